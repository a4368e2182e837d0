import { describe, expect, it } from 'vitest';
import { PLAN_IDS, planById } from '@roomwalk/shared';
import { isOfflineLicense, planButton, planPrice } from './billing-rules.js';

describe('plan cards', () => {
  it('plan cards: current plan by upTo, free start, price with space thousands', () => {
    expect(planButton({ upTo: 5, flatAmount: 49_900 }, 5)).toBe('Current Plan');
    expect(planButton({ upTo: 1, flatAmount: 0 }, 5)).toBe('Start for free');
    expect(planButton({ upTo: 20, flatAmount: 149_900 }, 5)).toBe('Activate Plan');
    expect(planButton({ upTo: 5, flatAmount: 49_900 }, null)).toBe('Activate Plan');
    expect(planPrice({ flatAmount: 149_900, currencySymbol: 'R' })).toBe('R1 499');
    expect(planPrice({ flatAmount: 0, currencySymbol: 'R' })).toBe('Free');
  });

  it('knows the Offline License, which is none of the cards', () => {
    expect(isOfflineLicense(planById(PLAN_IDS.offline)!.planName)).toBe(true);
    expect(isOfflineLicense(planById(PLAN_IDS.pro)!.planName)).toBe(false);
    expect(isOfflineLicense(null)).toBe(false);
  });
});
