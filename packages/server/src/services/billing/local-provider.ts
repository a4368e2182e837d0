/**
 * The built-in provider (the default): a checkout page and a billing portal served by our own server, subscriptions
 * kept in our database. It raises the same internal events as a Stripe webhook, so `npm start` has a working upgrade,
 * change and cancel flow with no outside account. Its links, periods and cancellations run on the server's clock
 * (core/clock.ts serverNow), which a development server moves to show a month passing.
 */
import { randomBytes } from 'node:crypto';
import { planById } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { currentPeriodStart } from '../licenses.js';
import { catalogueTiers, type PaymentProvider, type PriceTier, type SubscriptionState } from './provider.js';
import { emitLocalEvent } from './billing-events.js';
import type { LocalCheckoutSessionRow, LocalSubscriptionRow } from '../../db/tables/billing.js';
import { serverNow } from '../../core/clock.js';

/** A checkout link stays valid for a day (as Stripe's do); a portal link for an hour. */
const LOCAL_CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
const LOCAL_PORTAL_TTL_MS = 60 * 60 * 1000;

const token = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;

function addMonths(anchor: Date, n: number): Date {
  const d = new Date(anchor);
  d.setUTCMonth(anchor.getUTCMonth() + n);
  return d;
}

/** The first monthly boundary after `now` counted from `anchor`. */
function nextPeriodStart(anchor: Date, now: Date): Date {
  const start = currentPeriodStart({ period_start: anchor }, now);
  let n = (start.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (start.getUTCMonth() - anchor.getUTCMonth());
  let d = addMonths(anchor, n);
  while (d <= now) d = addMonths(anchor, ++n);
  return d;
}

/** A local subscription as the provider interface reports it; a cancellation takes effect at its date. */
function localSubscriptionState(row: LocalSubscriptionRow, now: Date): SubscriptionState {
  const anchor = new Date(row.current_period_start);
  const cancelAt = row.cancel_at ? new Date(row.cancel_at) : row.canceled_at ? new Date(row.canceled_at) : null;
  const ended = row.status === 'canceled' || (cancelAt !== null && cancelAt <= now);
  const plan = planById(row.plan_id);
  return {
    id: row.id,
    status: ended ? 'canceled' : 'active',
    planId: plan?.id ?? null,
    priceId: row.price_id,
    created: new Date(row.created_at),
    startDate: new Date(row.created_at),
    currentPeriodStart: currentPeriodStart({ period_start: anchor }, now),
    currentPeriodEnd: nextPeriodStart(anchor, now),
    cancelAt,
  };
}

export interface LocalProvider extends PaymentProvider {
  kind: 'local';
}

export function createLocalProvider(services: Services): LocalProvider {
  const bdb = () => services.db;
  const base = () => services.config.publicUrl;
  return {
    kind: 'local',
    async priceTiers() {
      return catalogueTiers();
    },
    async createCheckout(req) {
      const now = serverNow(services);
      await bdb()
        .insertInto('local_checkout_sessions')
        .values({
          id: token('cs_local'),
          company_id: req.companyId,
          user_id: req.userId,
          plan_id: req.plan.id,
          price_id: req.tier.priceId,
          idempotency_key: req.idempotencyKey,
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          created_at: now,
          expires_at: new Date(now.getTime() + LOCAL_CHECKOUT_TTL_MS),
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .execute();
      const row = await bdb()
        .selectFrom('local_checkout_sessions')
        .select('id')
        .where('idempotency_key', '=', req.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { url: `${base()}/billing/checkout/${row.id}` };
    },
    async createPortalSession({ companyId, returnUrl }) {
      const any = await bdb()
        .selectFrom('local_subscriptions')
        .select('id')
        .where('company_id', '=', companyId)
        .limit(1)
        .executeTakeFirst();
      if (!any) return null;
      const now = serverNow(services);
      const id = token('bps_local');
      await bdb()
        .insertInto('local_portal_sessions')
        .values({
          id,
          company_id: companyId,
          return_url: returnUrl,
          created_at: now,
          expires_at: new Date(now.getTime() + LOCAL_PORTAL_TTL_MS),
        })
        .execute();
      return { url: `${base()}/billing/portal/${id}` };
    },
    async subscriptions(companyId) {
      const rows = await bdb()
        .selectFrom('local_subscriptions')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'desc')
        .limit(500)
        .execute();
      const now = serverNow(services);
      return rows.map((r) => localSubscriptionState(r, now));
    },
    async companyForCustomer(customerId) {
      const row = await bdb()
        .selectFrom('billing_customers')
        .select('company_id')
        .where('provider', '=', 'local')
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      return row?.company_id ?? null;
    },
  };
}

// ---- What the local checkout and portal pages do ------------------------------------------------------------

export type CheckoutSessionView = LocalCheckoutSessionRow & { tier: PriceTier | undefined; expired: boolean };

export async function findCheckoutSession(services: Services, id: string): Promise<CheckoutSessionView | null> {
  const row = await services.db
    .selectFrom('local_checkout_sessions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const tier = catalogueTiers().find((t) => t.priceId === row.price_id);
  return {
    ...row,
    tier,
    expired: row.status === 'open' && new Date(row.expires_at).getTime() <= serverNow(services).getTime(),
  };
}

async function ensureLocalCustomer(services: Services, companyId: string): Promise<string> {
  const bdb = services.db;
  await bdb
    .insertInto('billing_customers')
    .values({ company_id: companyId, provider: 'local', customer_id: token('cus_local') })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await bdb
    .selectFrom('billing_customers')
    .select('customer_id')
    .where('company_id', '=', companyId)
    .where('provider', '=', 'local')
    .executeTakeFirstOrThrow();
  return row.customer_id;
}

/**
 * Pays an open checkout session: creates the subscription (ending any other live one of the company, since a
 * company has one plan) and raises checkout.session.completed and customer.subscription.created. A second submit
 * of the same session changes nothing.
 */
export async function completeLocalCheckout(
  services: Services,
  sessionId: string,
  cardLast4: string,
): Promise<'completed' | 'already-complete' | 'expired' | 'not-found'> {
  const found = await findCheckoutSession(services, sessionId);
  if (!found) return 'not-found';
  const customerId = await ensureLocalCustomer(services, found.company_id);
  const now = serverNow(services);
  const result = await services.db.transaction().execute(async (trx) => {
    const bdb = trx;
    const session = await bdb
      .selectFrom('local_checkout_sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .forUpdate()
      .executeTakeFirst();
    if (!session) return { outcome: 'not-found' as const };
    if (session.status === 'complete') return { outcome: 'already-complete' as const };
    if (new Date(session.expires_at) <= now) return { outcome: 'expired' as const };
    const ended = await bdb
      .updateTable('local_subscriptions')
      .set({ status: 'canceled', canceled_at: now, updated_at: now })
      .where('company_id', '=', session.company_id)
      .where('status', '=', 'active')
      .returning('id')
      .execute();
    const subId = token('sub_local');
    await bdb
      .insertInto('local_subscriptions')
      .values({
        id: subId,
        company_id: session.company_id,
        customer_id: customerId,
        plan_id: session.plan_id,
        price_id: session.price_id,
        status: 'active',
        card_last4: cardLast4,
        current_period_start: now,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await bdb
      .updateTable('local_checkout_sessions')
      .set({ status: 'complete', completed_at: now, subscription_id: subId })
      .where('id', '=', sessionId)
      .execute();
    return { outcome: 'completed' as const, companyId: session.company_id, endedCount: ended.length };
  });
  if (result.outcome !== 'completed') return result.outcome;
  if (result.endedCount > 0)
    await emitLocalEvent(services, 'customer.subscription.deleted', result.companyId, customerId);
  await emitLocalEvent(services, 'checkout.session.completed', result.companyId, customerId);
  await emitLocalEvent(services, 'customer.subscription.created', result.companyId, customerId);
  return 'completed';
}

export interface PortalView {
  session: { id: string; company_id: string; return_url: string };
  subscription: LocalSubscriptionRow | null;
  state: SubscriptionState | null;
}

/** A valid (unexpired) portal session with the company's current local subscription. */
export async function findPortalSession(services: Services, id: string): Promise<PortalView | null | 'expired'> {
  const bdb = services.db;
  const session = await bdb.selectFrom('local_portal_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session) return null;
  if (new Date(session.expires_at).getTime() <= serverNow(services).getTime()) return 'expired';
  const rows = await bdb
    .selectFrom('local_subscriptions')
    .selectAll()
    .where('company_id', '=', session.company_id)
    .orderBy('created_at', 'desc')
    .limit(20)
    .execute();
  const now = serverNow(services);
  const live = rows.map((r) => ({ r, s: localSubscriptionState(r, now) })).find((x) => x.s.status === 'active') ?? null;
  return { session, subscription: live?.r ?? null, state: live?.s ?? null };
}

export type PortalAction = { action: 'change'; priceId: string } | { action: 'cancel' } | { action: 'resume' };

/**
 * Changes, cancels (at the end of the paid month) or resumes the live subscription; raises
 * customer.subscription.updated.
 */
export async function applyPortalAction(
  services: Services,
  view: PortalView,
  act: PortalAction,
): Promise<'changed' | 'canceled' | 'resumed' | 'unchanged' | 'unknown-plan'> {
  const sub = view.subscription;
  const state = view.state;
  if (!sub || !state) return 'unchanged';
  const bdb = services.db;
  const now = serverNow(services);
  let outcome: 'changed' | 'canceled' | 'resumed' | 'unchanged' | 'unknown-plan' = 'unchanged';
  if (act.action === 'change') {
    const tier = catalogueTiers().find((t) => t.priceId === act.priceId && t.flatAmount > 0);
    if (!tier) return 'unknown-plan';
    if (tier.planId === sub.plan_id) return 'unchanged';
    // Like Stripe's default proration: the billing month keeps its anchor, so the monthly counters carry on.
    await bdb
      .updateTable('local_subscriptions')
      .set({ plan_id: tier.planId, price_id: tier.priceId, updated_at: now })
      .where('id', '=', sub.id)
      .execute();
    outcome = 'changed';
  } else if (act.action === 'cancel') {
    if (sub.cancel_at) return 'unchanged';
    await bdb
      .updateTable('local_subscriptions')
      .set({ cancel_at: state.currentPeriodEnd, updated_at: now })
      .where('id', '=', sub.id)
      .execute();
    outcome = 'canceled';
  } else {
    if (!sub.cancel_at) return 'unchanged';
    await bdb
      .updateTable('local_subscriptions')
      .set({ cancel_at: null, updated_at: now })
      .where('id', '=', sub.id)
      .execute();
    outcome = 'resumed';
  }
  await emitLocalEvent(services, 'customer.subscription.updated', sub.company_id, sub.customer_id);
  return outcome;
}
