/**
 * The plan cards' rules: each card's one button, its price, and whether the company is on the Offline
 * License.
 */
import { PLAN_IDS, formatPrice, planById } from '@roomwalk/shared';

export type PlanButton = 'Current Plan' | 'Start for free' | 'Activate Plan';

/** The card's one button: the active plan is the tier whose upTo equals the licence quantity. */
export function planButton(
  tier: { upTo: number; flatAmount: number },
  quantity: number | null | undefined,
): PlanButton {
  if (quantity != null && tier.upTo === quantity) return 'Current Plan';
  return tier.flatAmount === 0 ? 'Start for free' : 'Activate Plan';
}

export const planPrice = (tier: { flatAmount: number; currencySymbol: string }): string =>
  tier.flatAmount === 0 ? 'Free' : formatPrice(tier.flatAmount, tier.currencySymbol);

/** The Offline License is none of the cards: the page says it is the current plan and how to change it. */
export const isOfflineLicense = (planName: string | null | undefined): boolean =>
  planName === planById(PLAN_IDS.offline)!.planName;
