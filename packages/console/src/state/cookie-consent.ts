/** Cookie consent: unknown, then pending, accepted or declined; ?disableCookies=true forces declined. */
import { safeLocalStorage } from '@roomwalk/shared';
import { useCallback, useEffect, useState } from 'react';
import { analyticsToken } from '../config/page-config.js';
import { startAnalytics } from './analytics.js';

export type ConsentState = 'unknown' | 'pending' | 'accepted' | 'declined';
export const CONSENT_KEY = 'cookieConsent';

export function readConsent(search: string, storage: Storage = safeLocalStorage()): Exclude<ConsentState, 'unknown'> {
  if (new URLSearchParams(search).get('disableCookies') === 'true') return 'declined';
  const stored = storage.getItem(CONSENT_KEY);
  if (stored === 'true') return 'accepted';
  if (stored === 'false') return 'declined';
  return 'pending';
}

export function useCookieConsent() {
  const [state, setState] = useState<ConsentState>('unknown');
  useEffect(() => {
    const initial = readConsent(window.location.search);
    setState(initial);
    if (initial === 'accepted') startAnalytics(analyticsToken());
  }, []);
  const accept = useCallback(() => {
    safeLocalStorage().setItem(CONSENT_KEY, 'true');
    setState('accepted');
    startAnalytics(analyticsToken());
  }, []);
  const decline = useCallback(() => {
    safeLocalStorage().setItem(CONSENT_KEY, 'false');
    setState('declined');
  }, []);
  return { state, accept, decline };
}
