import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPolicyFetch, RequestTimeoutError } from './policy-fetch.js';

const res = (status: number) => new Response('{}', { status });
const quiet = { log: () => undefined };

describe('policy fetch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('times out a request after 5 s', async () => {
    const fetchImpl = vi.fn(
      (_i: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_r, reject) =>
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
        ),
    );
    const p = createPolicyFetch({ fetchImpl, ...quiet })('/query');
    const check = expect(p).rejects.toBeInstanceOf(RequestTimeoutError);
    await vi.advanceTimersByTimeAsync(4999);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await check;
  });

  it.each([500, 503, 504])('retries HTTP %i after 3.2 s and then 6.4 s', async (status) => {
    const fetchImpl = vi.fn(async () => res(status));
    const p = createPolicyFetch({ fetchImpl, ...quiet })('/query');
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(3199);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(6399);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect((await p).status).toBe(status);
  });

  it('returns the success that follows a retry', async () => {
    const fetchImpl = vi.fn().mockResolvedValueOnce(res(503)).mockResolvedValueOnce(res(200));
    const p = createPolicyFetch({ fetchImpl, ...quiet })('/query');
    await vi.advanceTimersByTimeAsync(3200);
    expect((await p).status).toBe(200);
  });

  it('does not retry other statuses', async () => {
    for (const status of [400, 404, 502]) {
      const fetchImpl = vi.fn(async () => res(status));
      expect((await createPolicyFetch({ fetchImpl, ...quiet })('/x')).status).toBe(status);
      expect(fetchImpl).toHaveBeenCalledTimes(1);
    }
  });

  it('calls onUnauthorized on a 401', async () => {
    const onUnauthorized = vi.fn();
    const r = await createPolicyFetch({ fetchImpl: async () => res(401), onUnauthorized, ...quiet })('/query');
    expect(r.status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });
});
