/** 'Monthly Subscription': up to 4 plan cards and the checkout answers. */
import type { ReactNode } from 'react';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ACCOUNT_NOTES, PLAN_CARDS_MAX } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { CheckoutAnswerDialogs } from './checkout-answer-dialogs.js';
import { PlanCard } from './plan-card.js';
import { useSubscriptions } from './use-subscriptions.js';

export default function SubscriptionsPage() {
  const s = useSubscriptions();
  let body: ReactNode;
  if (s.error) body = <DataLoadError error={s.error} onRetry={s.retry} />;
  else if (!s.loaded) body = <Loading />;
  else
    body = (
      <>
        {s.offline ? (
          <p className="page-note" role="note" data-testid="current-plan-note">
            <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.offlineCurrent}
          </p>
        ) : null}
        <div className="plans">
          {s.tiers.slice(0, PLAN_CARDS_MAX).map((tier) => (
            <PlanCard
              key={tier.priceId}
              tier={tier}
              quantity={s.quantity}
              busy={s.pending === tier.priceId}
              locked={s.offline}
              onChoose={() => void s.choose(tier)}
            />
          ))}
        </div>
      </>
    );

  return (
    <Page title="Monthly Subscription" back="/account">
      <p className="section">Cancel Anytime, No Commitment</p>
      {body}
      <CheckoutAnswerDialogs answer={s.answer} onClose={s.dismiss} />
    </Page>
  );
}
