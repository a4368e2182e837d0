import { describe, expect, it } from 'vitest';
import { FREE_TRIAL_PLAN_NAME, PLAN_IDS, planById } from '@roomwalk/shared';
import { canManagePlan, initials, paymentReturnOf, planNote } from './account-rules.js';

const OFFLINE = planById(PLAN_IDS.offline)!.planName;
const BASIC = planById(PLAN_IDS.basic)!.planName;

describe('account rules', () => {
  it('initials: name and surname, else the fallback, else "?"', () => {
    expect(initials('thandi', 'nkosi')).toBe('TN');
    expect(initials(' ', null, 'agent@example.com')).toBe('A');
    expect(initials(null, null, '')).toBe('?');
  });

  it('the payment return is read from the path', () => {
    expect(paymentReturnOf('/profile/success')).toBe('success');
    expect(paymentReturnOf('/profile/cancel')).toBe('cancel');
    expect(paymentReturnOf('/account')).toBe(null);
  });

  it('the plan note: the Offline License has its own; a member on a paid plan is told the admin manages it', () => {
    expect(planNote(OFFLINE, true)).toBe('offline');
    expect(planNote(OFFLINE, false)).toBe('offline');
    expect(planNote(BASIC, false)).toBe('member');
    expect(planNote(BASIC, true)).toBe(null);
    expect(planNote(FREE_TRIAL_PLAN_NAME, false)).toBe(null);
    expect(planNote(undefined, false)).toBe(null);
  });

  it('Manage is for an admin of a paid plan that is not the Offline License', () => {
    expect(canManagePlan(BASIC, true)).toBe(true);
    expect(canManagePlan(BASIC, false)).toBe(false);
    expect(canManagePlan(OFFLINE, true)).toBe(false);
    expect(canManagePlan(FREE_TRIAL_PLAN_NAME, true)).toBe(false);
    expect(canManagePlan(undefined, true)).toBe(false);
  });
});
