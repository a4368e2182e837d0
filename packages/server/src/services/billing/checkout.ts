/**
 * paymentCheckout and billingPortalSession: the answer shapes the console acts on. `url` sends the
 * browser on; `message` opens the manage-subscription warning; `error` opens the failed-to-activate dialog.
 */
import { PLAN_IDS, planById } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import type { Services } from '../services.js';
import { getLicense } from './licenses.js';
import { effectiveSubscription } from './provider.js';
import { paymentProvider } from './payment-provider.js';
import { serverNow } from '../../core/clock.js';

export const BILLING_TEXTS = {
  alreadySubscribed: 'Your company already has a subscription. Use Manage on your account page to change or cancel it.',
  offlineLicense: 'Your company has an Offline License arranged with Roomwalk. Contact support to change it.',
  unknownPrice: 'This plan is not available. Refresh the page and choose a plan again.',
  badQuantity: 'Not a valid quantity.',
  notActivated: 'Your account is not activated yet. Follow the link in your email first.',
  providerFailed: 'We could not start the payment. Please try again in a moment.',
  nothingToManage: 'There is no subscription to manage. Choose a plan first.',
  portalFailed: 'We could not open the billing portal. Please try again in a moment.',
  badReturnStub: 'Not a valid return page.',
} as const;

/** A checkout asked again within this window (double click, retried request) reuses the same session. */
const CHECKOUT_IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;
const DEFAULT_RETURN_STUB = 'account';

export interface CheckoutAnswer {
  url: string | null;
  message: string | null;
  error: string | null;
}
export interface PortalAnswer {
  url: string | null;
  error: string | null;
}

const answer = (a: Partial<CheckoutAnswer>): CheckoutAnswer => ({ url: null, message: null, error: null, ...a });

/** Return paths are relative to our public URL: letters, digits, / _ - and an optional simple query. */
function returnUrlFor(publicUrl: string, stub: string | null | undefined): string | null {
  const s = (stub ?? DEFAULT_RETURN_STUB).trim().replace(/^\/+/, '');
  if (s.length > 200 || s.includes('..') || s.includes('//')) return null;
  if (!/^[A-Za-z0-9/_-]*(\?[A-Za-z0-9=&_.%-]*)?$/.test(s)) return null;
  return `${publicUrl}/${s}`;
}

export async function paymentCheckout(
  services: Services,
  auth: AuthInfo,
  input: { priceId: string; quantity?: number | null | undefined },
): Promise<CheckoutAnswer> {
  const priceId = input.priceId.trim();
  if (!priceId || priceId.length > 200) return answer({ error: BILLING_TEXTS.unknownPrice });
  // The allowance comes from the plan; quantity is accepted for the spec's input shape and only bounded.
  if (input.quantity != null && (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > 100_000))
    return answer({ error: BILLING_TEXTS.badQuantity });

  const provider = await paymentProvider(services);
  const log = services.log;
  try {
    const tiers = await provider.priceTiers();
    const candidates = tiers.filter((t) => t.priceId === priceId);
    const tier = candidates.find((t) => t.upTo === input.quantity) ?? candidates[0];
    const plan = tier ? planById(tier.planId) : undefined;
    if (!tier || !plan || !plan.sold) return answer({ error: BILLING_TEXTS.unknownPrice });

    const license = await getLicense(services.db, auth.companyId);
    if (license?.plan_id === PLAN_IDS.offline) return answer({ message: BILLING_TEXTS.offlineLicense });
    const hasLive =
      !!license?.subscription_id ||
      !!effectiveSubscription(await provider.subscriptions(auth.companyId), serverNow(services));
    if (hasLive) return answer({ message: BILLING_TEXTS.alreadySubscribed });

    const successUrl = `${services.config.publicUrl}/profile/success`;
    const cancelUrl = `${services.config.publicUrl}/profile/cancel`;
    if (plan.id === PLAN_IDS.free) {
      // Nothing to pay: an activated company is on the Free Trial already when it has no subscription.
      return license ? answer({ url: successUrl }) : answer({ error: BILLING_TEXTS.notActivated });
    }

    const user = await services.db
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select(['users.username as email', 'companies.name as companyName'])
      .where('users.id', '=', auth.userId)
      .executeTakeFirstOrThrow();
    const window = Math.floor(Date.now() / CHECKOUT_IDEMPOTENCY_WINDOW_MS);
    const { url } = await provider.createCheckout({
      companyId: auth.companyId,
      companyName: user.companyName,
      userId: auth.userId,
      email: user.email,
      tier,
      plan,
      successUrl,
      cancelUrl,
      idempotencyKey: `roomwalk-checkout-${auth.companyId}-${tier.priceId}-${window}`,
    });
    return answer({ url });
  } catch (err) {
    log.error({ err, provider: provider.kind }, 'checkout failed');
    return answer({ error: BILLING_TEXTS.providerFailed });
  }
}

export async function billingPortalSession(
  services: Services,
  auth: AuthInfo,
  input: { returnStub?: string | null | undefined },
): Promise<PortalAnswer> {
  const returnUrl = returnUrlFor(services.config.publicUrl, input.returnStub);
  if (!returnUrl) return { url: null, error: BILLING_TEXTS.badReturnStub };
  const license = await getLicense(services.db, auth.companyId);
  if (license?.plan_id === PLAN_IDS.offline) return { url: null, error: BILLING_TEXTS.offlineLicense };
  const provider = await paymentProvider(services);
  try {
    const session = await provider.createPortalSession({ companyId: auth.companyId, returnUrl });
    return session ? { url: session.url, error: null } : { url: null, error: BILLING_TEXTS.nothingToManage };
  } catch (err) {
    services.log.error({ err, provider: provider.kind }, 'billing portal failed');
    return { url: null, error: BILLING_TEXTS.portalFailed };
  }
}
