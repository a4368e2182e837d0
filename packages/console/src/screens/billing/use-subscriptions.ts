/** The Monthly Subscription page's data: the plans and the licence, the checkout of a chosen plan and its answer. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { describeFailure } from '../../graphql/errors.js';
import type { ResultOf } from '../../graphql/graphql.js';
import { isOfflineLicense } from './billing-rules.js';
import { PaymentCheckoutMutation, SubscriptionsQuery } from './billing-operations.js';
import { rememberCheckout } from './use-payment-confirmation.js';

export type Tier = ResultOf<typeof SubscriptionsQuery>['priceTiers'][number];
/** What a checkout answered when it did not go on to pay: manage the subscription elsewhere, or a failure. */
export type CheckoutAnswer = { kind: 'manage'; message: string } | { kind: 'failed'; message: string } | null;

export function useSubscriptions() {
  const [{ data, error }, refetch] = useQuery({ query: SubscriptionsQuery, requestPolicy: 'cache-and-network' });
  const [, checkout] = useMutation(PaymentCheckoutMutation);
  const [pending, setPending] = useState<string | null>(null);
  const [answer, setAnswer] = useState<CheckoutAnswer>(null);

  const choose = async (tier: Tier) => {
    setPending(tier.priceId);
    const r = await checkout({ input: { priceId: tier.priceId, quantity: 1 } });
    setPending(null);
    const a = r.data?.paymentCheckout;
    if (r.error || !a) return setAnswer({ kind: 'failed', message: describeFailure(r.error) });
    if (a.message) return setAnswer({ kind: 'manage', message: a.message });
    if (a.error) return setAnswer({ kind: 'failed', message: a.error });
    if (a.url) {
      rememberCheckout(tier.upTo);
      window.location.assign(a.url);
    }
  };

  const license = data?.me.user.company?.license;
  const offline = isOfflineLicense(license?.planName);
  return {
    loaded: !!data,
    error: data ? undefined : error,
    retry: () => refetch({ requestPolicy: 'network-only' }),
    tiers: data?.priceTiers ?? [],
    offline,
    /** The licence's quantity, which names the current card; none on the Offline License. */
    quantity: offline ? null : license?.quantity,
    pending,
    choose,
    answer,
    dismiss: () => setAnswer(null),
  };
}
