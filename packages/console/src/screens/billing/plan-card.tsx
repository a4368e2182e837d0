/** One plan's card: name, price, what it includes, and its one button (billing-rules.ts). */
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ALL_FEATURES, FEATURES, shownUploadLimit } from '@roomwalk/shared';
import { planButton, planPrice } from './billing-rules.js';
import type { Tier } from './use-subscriptions.js';

export function PlanCard({
  tier,
  quantity,
  busy,
  onChoose,
  locked,
}: {
  tier: Tier;
  quantity: number | null | undefined;
  busy: boolean;
  onChoose: () => void;
  locked?: boolean;
}) {
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
          <SlIcon name="check-lg" label="Included" /> {FEATURES.tours}: {tier.upTo} active,{' '}
          {shownUploadLimit(tier.upTo)} uploads a month
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
      <SlButton
        variant={button === 'Current Plan' ? 'default' : 'primary'}
        disabled={button === 'Current Plan' || busy || locked}
        loading={busy}
        onClick={onChoose}
      >
        {button}
      </SlButton>
    </article>
  );
}
