/** React access to the session store and an urql client bound to the current token. */
import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createApiClient } from '../network/api-client.js';
import type { SessionState, SessionStore } from './session-store.js';

const SessionContext = createContext<SessionStore | null>(null);

export function useSessionStore(): SessionStore {
  const store = useContext(SessionContext);
  if (!store) throw new Error('useSessionStore outside SessionProvider');
  return store;
}

export function useSession(): SessionState {
  const store = useSessionStore();
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}

/** Provides the session and a fresh API client (empty cache, new socket) for each token. */
export function SessionProvider({
  store,
  children,
  fetchImpl,
}: {
  store: SessionStore;
  children: ReactNode;
  fetchImpl?: typeof fetch;
}) {
  const token = useSyncExternalStore(
    store.subscribe,
    () => store.getState().token,
    () => store.getState().token,
  );
  const client = useMemo(
    () => createApiClient({ token, fetchImpl, onUnauthorized: () => store.logout('unauthorized') }),
    [token, store, fetchImpl],
  );
  return (
    <SessionContext.Provider value={store}>
      <UrqlProvider value={client}>{children}</UrqlProvider>
    </SessionContext.Provider>
  );
}
