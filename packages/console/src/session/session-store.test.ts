import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSessionStore, PREV_LOGIN_METHOD_KEY, SESSION_KEY } from './session-store.js';
import { makeToken, validToken } from '../test/helpers.js';

const quiet = { log: () => undefined };

describe('session store', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2025-06-01T10:00:00Z') }));
  afterEach(() => vi.useRealTimers());

  it('stores token, roles and login method on login', () => {
    const store = createSessionStore(quiet);
    const token = validToken(['pro', 'admin']);
    expect(store.login(token, 'roomwalk')).toBe(true);
    expect(store.getState()).toMatchObject({ authenticated: true, token, roles: ['pro', 'admin'] });
    expect(JSON.parse(localStorage.getItem(SESSION_KEY)!)).toEqual({ token, roles: ['pro', 'admin'] });
    expect(localStorage.getItem(PREV_LOGIN_METHOD_KEY)).toBe('roomwalk');
    expect(store.prevLoginMethod()).toBe('roomwalk');
  });

  it('rejects a token without roles and logs out', () => {
    const log = vi.fn();
    const store = createSessionStore({ log });
    expect(store.login(makeToken({ sub: 'u', exp: Date.now() / 1000 + 60 }), 'roomwalk')).toBe(false);
    expect(store.login(makeToken({ sub: 'u', roles: [], exp: Date.now() / 1000 + 60 }), 'google')).toBe(false);
    expect(store.getState().authenticated).toBe(false);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(log).toHaveBeenCalled();
  });

  it('logs out automatically at the token expiry', () => {
    const store = createSessionStore(quiet);
    store.login(validToken(['free'], 120), 'roomwalk');
    vi.advanceTimersByTime(119_000);
    expect(store.getState().authenticated).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(store.getState()).toMatchObject({ authenticated: false, requiresReauth: true });
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('restores a valid stored session and clears an expired or role-less one', () => {
    localStorage.setItem(SESSION_KEY, JSON.stringify({ token: validToken(['basic']) }));
    expect(createSessionStore(quiet).getState()).toMatchObject({ authenticated: true, roles: ['basic'] });

    localStorage.setItem(
      SESSION_KEY,
      JSON.stringify({ token: makeToken({ roles: ['free'], exp: Date.now() / 1000 - 1 }) }),
    );
    expect(createSessionStore(quiet).getState().authenticated).toBe(false);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();

    localStorage.setItem(SESSION_KEY, JSON.stringify({ token: makeToken({ exp: Date.now() / 1000 + 60 }) }));
    expect(createSessionStore(quiet).getState().authenticated).toBe(false);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();

    localStorage.setItem(SESSION_KEY, 'not json');
    expect(createSessionStore(quiet).getState().authenticated).toBe(false);
  });

  it('keeps prevLoginMethod after logout and marks a 401 logout as needing re-auth', () => {
    const store = createSessionStore(quiet);
    store.login(validToken(), 'google');
    store.logout('unauthorized');
    expect(store.getState()).toMatchObject({ authenticated: false, token: null, requiresReauth: true });
    expect(store.prevLoginMethod()).toBe('google');
  });
});
