/**
 * The internal billing events both providers drive. An event is recorded once by id, then a job reads the company's
 * subscriptions back from the provider and sets the licence from that final state, so duplicates, retries and any
 * order of arrival end in the same licence.
 */
import { sql, type Kysely } from 'kysely';
import { PLAN_IDS, planById } from '@roomwalk/shared';
import type { Database } from '../../db/types.js';
import type { Services } from '../services.js';
import {
  applyPlan,
  downgradeToFree,
  expiredLicenses,
  getLicense,
  inTransaction,
  type ApplyPlanResult,
} from './licenses.js';
import { effectiveSubscription, type PaymentProvider, type SubscriptionState } from './provider.js';
import { paymentProvider } from './payment-provider.js';
import { serverNow } from '../../core/clock.js';

/**
 * The job: find the event's company, sync it, mark the event processed. Throws (and is retried) when the provider
 * fails.
 */
export async function processBillingEvent(services: Services, eventId: string): Promise<void> {
  const bdb = services.db;
  const ev = await bdb.selectFrom('billing_events').selectAll().where('id', '=', eventId).executeTakeFirst();
  if (!ev || ev.processed_at) return;
  const provider = await paymentProvider(services);
  if (provider.kind !== ev.provider) {
    services.log.warn(
      { eventId, provider: ev.provider },
      'billing event from a provider that is not configured; ignored',
    );
  } else {
    const companyId = ev.company_id ?? (ev.customer_id ? await provider.companyForCustomer(ev.customer_id) : null);
    if (companyId) {
      if (!ev.company_id)
        await bdb.updateTable('billing_events').set({ company_id: companyId }).where('id', '=', eventId).execute();
      await syncCompany(services, companyId, serverNow(services), provider);
    } else {
      services.log.warn({ eventId, type: ev.type }, 'billing event for an unknown customer; ignored');
    }
  }
  await bdb.updateTable('billing_events').set({ processed_at: new Date() }).where('id', '=', eventId).execute();
}

/**
 * Reads the company's subscriptions from the provider and applies the effective one. On PostgreSQL an advisory lock
 * per company makes concurrent syncs on several workers run one after the other, so a slower, older read never
 * overwrites a newer one. PGlite runs one process with one job at a time and needs none.
 */
async function syncCompany(
  services: Services,
  companyId: string,
  now: Date,
  provider?: PaymentProvider,
): Promise<ApplyPlanResult | null> {
  const p = provider ?? (await paymentProvider(services));
  if (services.database.kind !== 'postgres')
    return applySubscriptions(services.db, companyId, await p.subscriptions(companyId), now);
  return services.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`billing:${companyId}`}))`.execute(trx);
    const subs = await p.subscriptions(companyId);
    return applySubscriptions(trx, companyId, subs, now);
  });
}

/**
 * Sets the licence from the provider's subscriptions: the newest live one gives its plan; with none live the company
 * falls back to the Free Trial. An Offline License is never overridden by card subscriptions.
 */
async function applySubscriptions(
  db: Kysely<Database>,
  companyId: string,
  subs: readonly SubscriptionState[],
  now: Date,
): Promise<ApplyPlanResult | null> {
  return inTransaction(db, async (trx) => {
    const license = await getLicense(trx, companyId);
    if (license?.plan_id === PLAN_IDS.offline) return null;
    const live = effectiveSubscription(subs, now);
    if (live) {
      const plan = planById(live.planId!)!;
      const isNewSubscription = license?.subscription_id !== live.id;
      return applyPlan(trx, companyId, plan, {
        subscriptionId: live.id,
        endDate: live.cancelAt,
        periodStart: live.currentPeriodStart,
        startDate: isNewSubscription ? live.startDate : null,
        now,
      });
    }
    if (!license || (license.plan_id === PLAN_IDS.free && !license.subscription_id)) return null;
    return downgradeToFree(trx, companyId, now);
  });
}

/**
 * The expiry sweep: licences past their end date at `now` (the server's clock: the job passes serverNow) are synced
 * (card plans) or set back to the Free Trial (others).
 */
export async function expireLicenses(services: Services, now: Date): Promise<number> {
  const due = await expiredLicenses(services.db, now);
  for (const license of due) {
    if (license.subscription_id) await syncCompany(services, license.company_id, now);
    const after = await getLicense(services.db, license.company_id);
    // Still past its end (the provider has not ended it yet, or there is no subscription): end it here.
    if (after && after.end_date && new Date(after.end_date) <= now)
      await downgradeToFree(services.db, license.company_id, now);
  }
  return due.length;
}
