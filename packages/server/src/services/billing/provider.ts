/**
 * The payment provider interface and the choice of adapter: Stripe when STRIPE_SECRET_KEY is set, otherwise the
 * built-in local checkout. Both feed the same internal events (./sync.ts), so the licence code never knows which ran.
 */
import { CURRENCY, PLANS, type Plan, type PlanId } from '@roomwalk/shared';
import type { ProviderKind } from '../../db/tables/billing.js';

/** A plan on sale, as the subscriptions page shows it: the card provider's product, its price and tour allowance. */
export interface PriceTier {
  priceId: string;
  planId: PlanId;
  /** Price per month in minor currency units. */
  flatAmount: number;
  unitAmount: number;
  /** Active tours included (the licence quantity). */
  upTo: number;
  currencyCode: string;
  currencySymbol: string;
  tierName: string;
  description: string;
  features: readonly string[];
}

/** A subscription as the provider holds it now: the only input the licence sync trusts. */
export interface SubscriptionState {
  id: string;
  /** The provider's status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: string;
  planId: PlanId | null;
  priceId: string | null;
  created: Date;
  startDate: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** When a cancelled subscription stops (end of the paid period); null when it renews. */
  cancelAt: Date | null;
}

interface CheckoutRequest {
  companyId: string;
  companyName: string;
  userId: string;
  email: string;
  tier: PriceTier;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
  /** Same key, same checkout: a double click or a retried request never opens two. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly kind: ProviderKind;
  priceTiers(): Promise<PriceTier[]>;
  /** Opens a hosted checkout and answers its URL. */
  createCheckout(req: CheckoutRequest): Promise<{ url: string }>;
  /** Opens the billing portal; null when the company has never had a subscription with this provider. */
  createPortalSession(req: { companyId: string; returnUrl: string }): Promise<{ url: string } | null>;
  /** Every subscription the company has with this provider, in the provider's current state. */
  subscriptions(companyId: string): Promise<SubscriptionState[]>;
  /** The company a provider customer belongs to. */
  companyForCustomer(customerId: string): Promise<string | null>;
}

/** Statuses in which a subscription still grants its plan (past_due: the provider is retrying the card). */
const LIVE_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/** The plan a company should have: its newest subscription that is live at `now` (the server's clock). */
export function effectiveSubscription(subs: readonly SubscriptionState[], now: Date): SubscriptionState | null {
  const live = subs.filter((s) => LIVE_STATUSES.has(s.status) && s.planId && (!s.cancelAt || s.cancelAt > now));
  live.sort((a, b) => b.created.getTime() - a.created.getTime() || b.id.localeCompare(a.id));
  return live[0] ?? null;
}

/** The local catalogue's tiers (the local provider sells exactly these; Stripe adds its own prices). */
export function catalogueTiers(): PriceTier[] {
  return PLANS.filter((p) => p.sold).map((p) => catalogueTier(p));
}

export function catalogueTier(p: Plan): PriceTier {
  return {
    priceId: `price_${p.id}`,
    planId: p.id,
    flatAmount: p.flatAmount,
    unitAmount: p.unitAmount,
    upTo: p.upTo,
    currencyCode: CURRENCY.code,
    currencySymbol: CURRENCY.symbol,
    tierName: p.tierName,
    description: p.description,
    features: p.features,
  };
}
