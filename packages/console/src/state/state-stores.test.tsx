import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { NOTICES } from '@roomwalk/shared';
import { createTutorialStore } from './tutorial-store.js';
import { readConsent, CONSENT_KEY } from './cookie-consent.js';
import { createDoubleBack } from './android-back.js';
import { SnackbarProvider, useSnackbar } from '../ui/snackbar.js';
import { alertsFor, RESEND_LABELS } from '../screens/account/account-alerts.js';
import { planButton, planPrice } from '../screens/billing/subscriptions-page.js';
import { memberLabel } from '../screens/team/team-page.js';
import { base64ToBytes } from '../screens/reports/download-file.js';
import { hasSignupParams, stripSignupParams } from '../screens/auth/signup-params.js';

afterEach(() => vi.useRealTimers());

describe('local state', () => {
  it('tutorial: reset, complete and dismiss are stored', () => {
    const t = createTutorialStore(localStorage);
    expect(t.getState()).toEqual({ firstView: true, available: true });
    t.complete();
    t.dismiss();
    expect(createTutorialStore(localStorage).getState()).toEqual({ firstView: false, available: false });
    t.reset();
    expect(createTutorialStore(localStorage).getState()).toEqual({ firstView: true, available: true });
  });

  it('cookie consent: pending without a choice, stored choices, disableCookies=true forces declined', () => {
    expect(readConsent('')).toBe('pending');
    localStorage.setItem(CONSENT_KEY, 'true');
    expect(readConsent('')).toBe('accepted');
    expect(readConsent('?disableCookies=true')).toBe('declined');
    localStorage.setItem(CONSENT_KEY, 'false');
    expect(readConsent('')).toBe('declined');
  });

  it('android back: warns, then exits on a second press within 2 s only', () => {
    let now = 0;
    const press = createDoubleBack(() => now);
    expect(press()).toBe('warn');
    now = 1999;
    expect(press()).toBe('exit');
    now = 10_000;
    expect(press()).toBe('warn');
    now = 12_001;
    expect(press()).toBe('warn');
  });
});

describe('snackbars', () => {
  it('hide after 4 s', () => {
    vi.useFakeTimers();
    let notify: ReturnType<typeof useSnackbar> = () => undefined;
    const Grab = () => {
      notify = useSnackbar();
      return null;
    };
    render(
      <SnackbarProvider>
        <Grab />
      </SnackbarProvider>,
    );
    act(() => notify('success', NOTICES.profileSaved));
    expect(screen.getByText(NOTICES.profileSaved)).toBeInTheDocument();
    expect(document.querySelector('[data-variant="success"]')).not.toBeNull();
    act(() => vi.advanceTimersByTime(3999));
    expect(screen.getByText(NOTICES.profileSaved)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(NOTICES.profileSaved)).not.toBeInTheDocument();
  });
});

describe('screen rules', () => {
  const license = { quantity: 5, monthlyActiveTours: 5, uploadLimit: 10, monthlyUploadedTours: 3 };
  it('account alerts follow activation and the quota math', () => {
    expect(alertsFor({ activated: false, license })).toEqual({ notActivated: true, noActiveTours: true, noUploads: false });
    expect(alertsFor({ activated: true, license: null })).toMatchObject({ notActivated: true });
    expect(alertsFor({ activated: true, license: { ...license, monthlyActiveTours: 1, monthlyUploadedTours: 10 } })).toEqual({
      notActivated: false,
      noActiveTours: false,
      noUploads: true,
    });
    expect(Object.values(RESEND_LABELS)).toEqual([
      'Re-send activation email',
      'Sending activation email...',
      'Activation email sent',
      'Failed to send activation email',
    ]);
  });

  it('plan cards: current plan by upTo, free start, price with space thousands', () => {
    expect(planButton({ upTo: 5, flatAmount: 49_900 }, 5)).toBe('Current Plan');
    expect(planButton({ upTo: 1, flatAmount: 0 }, 5)).toBe('Start for free');
    expect(planButton({ upTo: 20, flatAmount: 149_900 }, 5)).toBe('Activate Plan');
    expect(planPrice({ flatAmount: 149_900, currencySymbol: 'R' })).toBe('R1 499');
    expect(planPrice({ flatAmount: 0, currencySymbol: 'R' })).toBe('Free');
  });

  it('member labels', () => {
    expect(memberLabel({ accepted: false })).toBe('Pending');
    expect(memberLabel({ accepted: true, user: { isAdmin: false } })).toBe('Standard User');
    expect(memberLabel({ accepted: true, user: { isAdmin: true } })).toBe('Admin User');
  });

  it('reports decode base64 to the file bytes', () => {
    expect(new TextDecoder().decode(base64ToBytes(btoa('a,b\n1,2\n')))).toBe('a,b\n1,2\n');
  });

  it('sign-up parameters are stripped from the query, others kept', () => {
    expect(hasSignupParams('?rB=x')).toBe(true);
    expect(stripSignupParams('?inviteToken=a&rB=b&gToken=c')).toBe('');
    expect(stripSignupParams('?inviteToken=a&utm=z')).toBe('?utm=z');
  });
});
