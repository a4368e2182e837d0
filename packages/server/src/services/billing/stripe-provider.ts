/**
 * Stripe adapter. Plans are Stripe prices whose lookup key is `roomwalk_<planId>` (roomwalk_entry, roomwalk_basic,
 * roomwalk_pro); the allowance of each plan stays in the shared catalogue, Stripe owns amounts and currency.
 * Customers carry metadata.company_id; subscriptions are read back from Stripe, never trusted from an event body.
 */
import Stripe from 'stripe';
import { PLANS, planById, type Plan } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { catalogueTier, type PaymentProvider, type PriceTier, type SubscriptionState } from './provider.js';
import { isPlanId } from './licenses.js';

const LOOKUP_KEY_PREFIX = 'roomwalk_';
const TIERS_CACHE_MS = 5 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const CURRENCY_SYMBOLS: Record<string, string> = {
  zar: 'R',
  usd: '$',
  eur: '€',
  gbp: '£',
  aud: 'A$',
  cad: 'CA$',
  nzd: 'NZ$',
};
const currencySymbol = (code: string): string => CURRENCY_SYMBOLS[code.toLowerCase()] ?? `${code.toUpperCase()} `;

/** A Stripe client for our settings; STRIPE_API_URL points it elsewhere (a local fake in tests). */
function createStripeClient(config: Services['config']): Stripe {
  const opts: Stripe.StripeConfig = {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'Roomwalk' },
  };
  if (config.STRIPE_API_URL) {
    const u = new URL(config.STRIPE_API_URL);
    opts.host = u.hostname;
    opts.port = u.port || (u.protocol === 'http:' ? '80' : '443');
    opts.protocol = u.protocol === 'http:' ? 'http' : 'https';
  }
  return new Stripe(config.STRIPE_SECRET_KEY!, opts);
}

const planFromLookupKey = (key: string | null | undefined): Plan | undefined =>
  key?.startsWith(LOOKUP_KEY_PREFIX) ? planById(key.slice(LOOKUP_KEY_PREFIX.length)) : undefined;

const toDate = (s: number | null | undefined): Date | null => (typeof s === 'number' ? new Date(s * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === 'string' ? v : (v?.id ?? null);

/** Price tiers from Stripe prices; the Free tier needs no payment and comes from the catalogue when Stripe has none. */
function tiersFromPrices(prices: readonly Stripe.Price[]): PriceTier[] {
  const byPlan = new Map<string, PriceTier>();
  for (const price of prices) {
    const plan = planFromLookupKey(price.lookup_key);
    if (!plan || !plan.sold || !price.active || byPlan.has(plan.id)) continue;
    const product =
      typeof price.product === 'object' && price.product && !('deleted' in price.product && price.product.deleted)
        ? (price.product as Stripe.Product)
        : null;
    if (product && !product.active) continue;
    const tier0 = price.billing_scheme === 'tiered' ? price.tiers?.[0] : undefined;
    byPlan.set(plan.id, {
      priceId: price.id,
      planId: plan.id,
      flatAmount: tier0 ? (tier0.flat_amount ?? 0) : (price.unit_amount ?? 0),
      unitAmount: tier0 ? (tier0.unit_amount ?? 0) : 0,
      upTo: plan.upTo,
      currencyCode: price.currency.toUpperCase(),
      currencySymbol: currencySymbol(price.currency),
      tierName: plan.tierName,
      description: product?.description || plan.description,
      features: plan.features,
    });
  }
  const free = planById('free');
  if (free && !byPlan.has(free.id)) byPlan.set(free.id, catalogueTier(free));
  return PLANS.filter((p) => byPlan.has(p.id)).map((p) => byPlan.get(p.id)!);
}

/** The subscription as our licence code needs it; the plan comes from the price's lookup key, else its metadata. */
function subscriptionState(sub: Stripe.Subscription): SubscriptionState {
  const item = sub.items?.data?.[0];
  const price = item?.price;
  const fromPrice = planFromLookupKey(price?.lookup_key)?.id;
  const fromMeta = sub.metadata?.plan_id;
  const planId = fromPrice ?? (isPlanId(fromMeta) ? fromMeta : null);
  const raw = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const periodStart = toDate(item?.current_period_start ?? raw.current_period_start);
  const periodEnd = toDate(item?.current_period_end ?? raw.current_period_end);
  const cancelAt = toDate(sub.cancel_at) ?? (sub.cancel_at_period_end ? periodEnd : null) ?? toDate(sub.ended_at);
  return {
    id: sub.id,
    status: sub.status,
    planId: planId ?? null,
    priceId: price?.id ?? null,
    created: toDate(sub.created) ?? new Date(0),
    startDate: toDate(sub.start_date) ?? toDate(sub.created) ?? new Date(0),
    currentPeriodStart: periodStart,
    currentPeriodEnd: periodEnd,
    cancelAt,
  };
}

/** The customer a Stripe object refers to (events carry customers, sessions, subscriptions and invoices). */
export function customerOfObject(object: unknown): string | null {
  const o = object as { object?: string; id?: string; customer?: string | { id: string } | null };
  if (o?.object === 'customer' && typeof o.id === 'string') return o.id;
  return idOf(o?.customer ?? null);
}

export function createStripeProvider(services: Services, client?: Stripe): PaymentProvider & { stripe: Stripe } {
  const stripe = client ?? createStripeClient(services.config);
  const bdb = () => services.db;
  let tiersCache: { at: number; tiers: PriceTier[] } | null = null;

  async function customerOf(companyId: string): Promise<string | null> {
    const row = await bdb()
      .selectFrom('billing_customers')
      .select('customer_id')
      .where('company_id', '=', companyId)
      .where('provider', '=', 'stripe')
      .executeTakeFirst();
    return row?.customer_id ?? null;
  }

  async function ensureCustomer(companyId: string, email: string, name: string): Promise<string> {
    const known = await customerOf(companyId);
    if (known) return known;
    const customer = await stripe.customers.create(
      { email, name, metadata: { company_id: companyId } },
      { idempotencyKey: `roomwalk-customer-${companyId}` },
    );
    await bdb()
      .insertInto('billing_customers')
      .values({ company_id: companyId, provider: 'stripe', customer_id: customer.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
    return (await customerOf(companyId)) ?? customer.id;
  }

  return {
    kind: 'stripe',
    stripe,

    async priceTiers() {
      if (tiersCache && Date.now() - tiersCache.at < TIERS_CACHE_MS) return tiersCache.tiers;
      const lookupKeys = PLANS.filter((p) => p.sold).map((p) => `${LOOKUP_KEY_PREFIX}${p.id}`);
      const list = await stripe.prices.list({
        lookup_keys: lookupKeys,
        active: true,
        limit: 100,
        expand: ['data.product', 'data.tiers'],
      });
      const tiers = tiersFromPrices(list.data);
      tiersCache = { at: Date.now(), tiers };
      return tiers;
    },

    async createCheckout(req) {
      const customer = await ensureCustomer(req.companyId, req.email, req.companyName);
      const metadata = { company_id: req.companyId, plan_id: req.plan.id };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer,
          client_reference_id: req.companyId,
          line_items: [{ price: req.tier.priceId, quantity: 1 }],
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          metadata,
          subscription_data: { metadata },
        },
        { idempotencyKey: req.idempotencyKey },
      );
      if (!session.url) throw new Error('Stripe answered a checkout session without a url');
      return { url: session.url };
    },

    async createPortalSession({ companyId, returnUrl }) {
      const customer = await customerOf(companyId);
      if (!customer) return null;
      const session = await stripe.billingPortal.sessions.create({ customer, return_url: returnUrl });
      return { url: session.url };
    },

    async subscriptions(companyId) {
      const customer = await customerOf(companyId);
      if (!customer) return [];
      const out: SubscriptionState[] = [];
      for await (const sub of stripe.subscriptions.list({ customer, status: 'all', limit: 100 })) {
        out.push(subscriptionState(sub));
        if (out.length >= 500) break;
      }
      return out;
    },

    async companyForCustomer(customerId) {
      const row = await bdb()
        .selectFrom('billing_customers')
        .select('company_id')
        .where('provider', '=', 'stripe')
        .where('customer_id', '=', customerId)
        .executeTakeFirst();
      if (row) return row.company_id;
      const customer = await stripe.customers.retrieve(customerId);
      if ('deleted' in customer && customer.deleted) return null;
      const companyId = (customer as Stripe.Customer).metadata?.company_id;
      if (!companyId || !UUID.test(companyId)) return null;
      const company = await services.db
        .selectFrom('companies')
        .select('id')
        .where('id', '=', companyId.toLowerCase())
        .executeTakeFirst();
      if (!company) return null;
      await bdb()
        .insertInto('billing_customers')
        .values({ company_id: company.id, provider: 'stripe', customer_id: customerId })
        .onConflict((oc) => oc.doNothing())
        .execute();
      return company.id;
    },
  };
}
