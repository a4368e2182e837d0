/** 'Monthly Subscription' (accounts §2, §7, §9): up to 4 plan cards and the checkout answers. */
import { type ReactNode, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ACCOUNT_NOTES, ALL_FEATURES, FEATURES, PLAN_CARDS_MAX, PLAN_IDS, formatPrice, planById, shownUploadLimit } from '@roomwalk/shared';
import { PaymentCheckoutMutation, SubscriptionsQuery } from './billing-operations.js';
import { describeFailure } from '../../graphql/errors.js';
import type { ResultOf } from '../../graphql/graphql.js';
import { rememberCheckout } from './use-payment-confirmation.js';
import { useBillingPortal } from './use-billing-portal.js';
import { manageSubscriptionUrl } from '../../config/page-config.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Dialog } from '../../ui/dialog.js';
import { Loading, Page } from '../../ui/page.js';

type Tier = ResultOf<typeof SubscriptionsQuery>['priceTiers'][number];
export type PlanButton = 'Current Plan' | 'Start for free' | 'Activate Plan';

/** The card's one button: the active plan is the tier whose upTo equals the licence quantity (accounts §9). */
export function planButton(tier: Pick<Tier, 'upTo' | 'flatAmount'>, quantity: number | null | undefined): PlanButton {
  if (quantity != null && tier.upTo === quantity) return 'Current Plan';
  return tier.flatAmount === 0 ? 'Start for free' : 'Activate Plan';
}

export const planPrice = (tier: Pick<Tier, 'flatAmount' | 'currencySymbol'>): string => (tier.flatAmount === 0 ? 'Free' : formatPrice(tier.flatAmount, tier.currencySymbol));

type Answer = { kind: 'manage'; message: string } | { kind: 'failed'; message: string } | null;

function PlanCard({ tier, quantity, busy, onChoose, locked }: { tier: Tier; quantity: number | null | undefined; busy: boolean; onChoose: () => void; locked?: boolean }) {
  const button = planButton(tier, quantity);
  const price = planPrice(tier);
  return (
    <article className="card plan-card" aria-labelledby={`plan-${tier.priceId}`} data-testid="plan-card">
      <h2 id={`plan-${tier.priceId}`}>{tier.tierName}</h2>
      <div className="plan-price">
        {price}
        {price !== 'Free' ? <small> / month</small> : null}
      </div>
      <p>{tier.description}</p>
      <ul className="plan-features">
        <li>
          <SlIcon name="check-lg" label="Included" /> {FEATURES.tours}: {tier.upTo} active, {shownUploadLimit(tier.upTo)} uploads a month
        </li>
        <li>
          <SlIcon name="check-lg" label="Included" /> {FEATURES.views}: unlimited
        </li>
        {ALL_FEATURES.filter((f) => f !== FEATURES.tours && f !== FEATURES.views).map((f) =>
          tier.features.includes(f) ? (
            <li key={f}>
              <SlIcon name="check-lg" label="Included" /> {f}
            </li>
          ) : (
            <li key={f} className="no">
              <SlIcon name="x-lg" label="Not included" /> {f}
            </li>
          ),
        )}
      </ul>
      <SlButton variant={button === 'Current Plan' ? 'default' : 'primary'} disabled={button === 'Current Plan' || busy || locked} loading={busy} onClick={onChoose}>
        {button}
      </SlButton>
    </article>
  );
}

export default function SubscriptionsPage() {
  const [{ data, error }, refetch] = useQuery({ query: SubscriptionsQuery, requestPolicy: 'cache-and-network' });
  const [, checkout] = useMutation(PaymentCheckoutMutation);
  const [pending, setPending] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer>(null);
  const portal = useBillingPortal();

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

  const manageLink = manageSubscriptionUrl();
  let body: ReactNode;
  if (error && !data) body = <DataLoadError error={error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />;
  else if (!data) body = <Loading />;
  else {
    const license = data.me.user.company?.license;
    // The Offline License is none of the cards: say it is the current plan and how to change it (issue 16 item 14).
    const offline = license?.planName === planById(PLAN_IDS.offline)!.planName;
    const quantity = offline ? null : license?.quantity;
    body = (
      <>
        {offline ? (
          <p className="page-note" role="note" data-testid="current-plan-note">
            <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.offlineCurrent}
          </p>
        ) : null}
        <div className="plans">
          {data.priceTiers.slice(0, PLAN_CARDS_MAX).map((tier) => (
            <PlanCard key={tier.priceId} tier={tier} quantity={quantity} busy={pending === tier.priceId} locked={offline} onChoose={() => void choose(tier)} />
          ))}
        </div>
      </>
    );
  }

  return (
    <Page title="Monthly Subscription" back="/account">
      <p className="section">Cancel Anytime, No Commitment</p>
      {body}
      <Dialog
        open={answer?.kind === 'manage'}
        label="Manage your subscription"
        onClose={() => setAnswer(null)}
        footer={
          <>
            <SlButton onClick={() => setAnswer(null)}>Close</SlButton>
            {manageLink ? (
              <SlButton variant="primary" href={manageLink}>
                Manage Subscription
              </SlButton>
            ) : (
              <SlButton variant="primary" loading={portal.busy} onClick={() => void portal.openPortal()}>
                Manage Subscription
              </SlButton>
            )}
          </>
        }
      >
        <p>{answer?.message}</p>
      </Dialog>
      <Dialog
        open={answer?.kind === 'failed'}
        label="Failed to activate plan"
        onClose={() => setAnswer(null)}
        footer={
          <SlButton variant="primary" onClick={() => setAnswer(null)}>
            Close
          </SlButton>
        }
      >
        <p>{answer?.message}</p>
      </Dialog>
    </Page>
  );
}
