import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import {
  CONFIRM_MAX_MS,
  CONFIRM_POLL_MS,
  rememberCheckout,
  usePaymentConfirmation,
} from './use-payment-confirmation.js';

afterEach(() => {
  vi.useRealTimers();
  sessionStorage.clear();
});

describe('waiting for the payment provider after checkout', () => {
  it('re-reads the licence every 2 s until its quantity is the one bought, then forgets the checkout', () => {
    vi.useFakeTimers();
    rememberCheckout(20);
    const reload = vi.fn();
    const { result, rerender } = renderHook(({ q }) => usePaymentConfirmation(true, q, reload), {
      initialProps: { q: 1 as number | null },
    });
    expect(result.current).toBe(true);
    vi.advanceTimersByTime(CONFIRM_POLL_MS * 2);
    expect(reload).toHaveBeenCalledTimes(2);
    rerender({ q: 20 });
    expect(result.current).toBe(false);
    expect(sessionStorage.getItem('roomwalk.checkoutUpTo')).toBeNull();
    vi.advanceTimersByTime(CONFIRM_POLL_MS * 3);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not wait without a checkout, or on other pages, and gives up after a minute', () => {
    vi.useFakeTimers();
    const reload = vi.fn();
    expect(renderHook(() => usePaymentConfirmation(true, 1, reload)).result.current).toBe(false);
    rememberCheckout(20);
    expect(renderHook(() => usePaymentConfirmation(false, 1, reload)).result.current).toBe(false);
    const { result } = renderHook(() => usePaymentConfirmation(true, 1, reload));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(CONFIRM_MAX_MS + CONFIRM_POLL_MS));
    expect(result.current).toBe(false);
  });
});
