/**
 * After a checkout the provider confirms the payment asynchronously (Stripe's webhook, or the local checkout's event,
 * applied by a worker job). The subscriptions page remembers the allowance it is buying; on /profile/success the
 * account page re-reads the licence every 2 s until its quantity matches, for at most a minute, and says so meanwhile.
 */
import { safeSessionStorage } from '@roomwalk/shared';
import { useEffect, useState } from 'react';

export const CONFIRM_POLL_MS = 2000;
export const CONFIRM_MAX_MS = 60_000;
const KEY = 'roomwalk.checkoutUpTo';

/** Called just before leaving for the checkout. */
export function rememberCheckout(upTo: number): void {
  try {
    safeSessionStorage().setItem(KEY, String(upTo));
  } catch {
    // Storage may be unavailable (private mode); the page then simply shows what the server has.
  }
}

function pendingTarget(): number | null {
  try {
    const v = Number(safeSessionStorage().getItem(KEY));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

export function usePaymentConfirmation(
  active: boolean,
  quantity: number | null | undefined,
  reload: () => void,
): boolean {
  const [target] = useState(pendingTarget);
  const [timedOut, setTimedOut] = useState(false);
  const confirmed = quantity != null && quantity === target;
  const waiting = active && target != null && quantity !== undefined && !confirmed && !timedOut;

  useEffect(() => {
    if (confirmed || timedOut) {
      try {
        safeSessionStorage().removeItem(KEY);
      } catch {
        /* nothing to clear */
      }
    }
  }, [confirmed, timedOut]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the payment answer changes; reload is a new function on every render
  useEffect(() => {
    if (!waiting) return undefined;
    const started = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - started >= CONFIRM_MAX_MS) setTimedOut(true);
      else reload();
    }, CONFIRM_POLL_MS);
    return () => clearInterval(timer);
    // `reload` is a new function each render; the interval only starts and stops with `waiting`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [waiting]);

  return waiting;
}
