/** The auth session: token and roles stored locally, validated, and ended at expiry or on 401. */
import {
  LOGIN_METHODS,
  decodeToken,
  isTokenValid,
  msUntilExpiry,
  tokenRoles,
  safeLocalStorage,
} from '@roomwalk/shared';

type LoginMethod = (typeof LOGIN_METHODS)[keyof typeof LOGIN_METHODS];
type LogoutReason = 'user' | 'expired' | 'unauthorized' | 'invalid';

export interface SessionState {
  authenticated: boolean;
  token: string | null;
  roles: readonly string[];
  /** True after the session ended on its own (expiry or a 401), so the login page can say why. */
  requiresReauth: boolean;
  /** Why the last session ended; null while signed in or before any session. */
  logoutReason: LogoutReason | null;
}

export interface SessionStore {
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** Starts a session; false (and logged out) when the token has no roles or does not validate. */
  login(token: string, method: LoginMethod): boolean;
  logout(reason?: LogoutReason): void;
  prevLoginMethod(): LoginMethod | null;
  dispose(): void;
}

export const SESSION_KEY = 'roomwalk.session';
export const PREV_LOGIN_METHOD_KEY = 'prevLoginMethod';
/** setTimeout's ceiling; a later expiry is re-armed when this fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface SessionStoreOptions {
  storage?: Storage;
  now?: () => number;
  log?: (message: string) => void;
}

const LOGGED_OUT: SessionState = {
  authenticated: false,
  token: null,
  roles: [],
  requiresReauth: false,
  logoutReason: null,
};

export function createSessionStore(opts: SessionStoreOptions = {}): SessionStore {
  const storage = opts.storage ?? safeLocalStorage();
  const now = opts.now ?? Date.now;
  const log = opts.log ?? ((m: string) => console.error(m));
  const listeners = new Set<() => void>();
  let state: SessionState = LOGGED_OUT;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const emit = () => {
    for (const l of listeners) l();
  };
  const set = (next: SessionState) => {
    state = next;
    emit();
  };

  function armExpiry(token: string) {
    clearTimeout(timer);
    const ms = msUntilExpiry(token, now());
    if (ms === null) return;
    timer = setTimeout(
      () => {
        if (state.token !== token) return;
        if (isTokenValid(token, now())) armExpiry(token);
        else logout('expired');
      },
      Math.min(Math.max(ms, 0), MAX_TIMER_MS),
    );
  }

  function logout(reason: LogoutReason = 'user') {
    clearTimeout(timer);
    timer = undefined;
    storage.removeItem(SESSION_KEY);
    if (!state.authenticated && !state.token && reason === 'user') return;
    set({ ...LOGGED_OUT, requiresReauth: reason === 'expired' || reason === 'unauthorized', logoutReason: reason });
  }

  function login(token: string, method: LoginMethod): boolean {
    const roles = tokenRoles(decodeToken(token));
    if (!roles || !isTokenValid(token, now())) {
      log('Invalid auth token: it must decode, carry roles and not be expired.');
      logout('invalid');
      return false;
    }
    storage.setItem(SESSION_KEY, JSON.stringify({ token, roles }));
    storage.setItem(PREV_LOGIN_METHOD_KEY, method);
    armExpiry(token);
    set({ authenticated: true, token, roles, requiresReauth: false, logoutReason: null });
    return true;
  }

  // Restore a stored session; one with an expired token or without roles is cleared.
  const raw = storage.getItem(SESSION_KEY);
  if (raw) {
    let token: string | null = null;
    try {
      token = (JSON.parse(raw) as { token?: unknown }).token as string;
    } catch {
      token = null;
    }
    const roles = typeof token === 'string' ? tokenRoles(decodeToken(token)) : null;
    if (typeof token === 'string' && roles && isTokenValid(token, now())) {
      state = { authenticated: true, token, roles, requiresReauth: false, logoutReason: null };
      armExpiry(token);
    } else {
      log('Invalid auth token in storage: session cleared.');
      storage.removeItem(SESSION_KEY);
    }
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    login,
    logout,
    prevLoginMethod() {
      const v = storage.getItem(PREV_LOGIN_METHOD_KEY);
      return v === LOGIN_METHODS.roomwalk || v === LOGIN_METHODS.google ? v : null;
    },
    dispose() {
      clearTimeout(timer);
      listeners.clear();
    },
  };
}
