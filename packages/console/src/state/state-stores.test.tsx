import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { NOTICES } from '@roomwalk/shared';
import { createTutorialStore } from './tutorial-store.js';
import { readConsent, CONSENT_KEY } from './cookie-consent.js';
import { createDoubleBack } from './android-back.js';
import { SnackbarProvider, useSnackbar } from '../ui/snackbar.js';

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
