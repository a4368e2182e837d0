import { describe, expect, it } from 'vitest';
import { abortable, isAbortError, unlessAborted } from './abortable.js';

const later = <T>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('abortable', () => {
  it('settles as the call does while not cancelled', async () => {
    const ac = new AbortController();
    await expect(abortable(ac.signal, Promise.resolve(7))).resolves.toBe(7);
    await expect(abortable(ac.signal, Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });

  it('rejects with an AbortError as soon as the signal aborts, before the call settles', async () => {
    const ac = new AbortController();
    const call = later<number>();
    const result = abortable(ac.signal, call.promise);
    ac.abort();
    const e = await result.catch((x: unknown) => x);
    expect(isAbortError(e)).toBe(true);
    call.resolve(1);
  });

  it('starts no call once cancelled, and hands a value that comes late to dropLate', async () => {
    const ac = new AbortController();
    ac.abort();
    let started = false;
    const e = await abortable(ac.signal, async () => {
      started = true;
      return 1;
    }).catch((x: unknown) => x);
    expect(isAbortError(e)).toBe(true);
    expect(started).toBe(false);

    const live = new AbortController();
    const call = later<string>();
    const dropped: string[] = [];
    const result = abortable(live.signal, call.promise, (v) => dropped.push(v)).catch(() => undefined);
    live.abort();
    call.resolve('bitmap');
    await result;
    await call.promise;
    await Promise.resolve();
    expect(dropped).toEqual(['bitmap']);
  });

  it('unlessAborted reports failures and lets a cancel pass', () => {
    const seen: unknown[] = [];
    const handle = unlessAborted((e) => seen.push(e));
    handle(new DOMException('stop', 'AbortError'));
    const boom = new Error('boom');
    handle(boom);
    expect(seen).toEqual([boom]);
  });
});
