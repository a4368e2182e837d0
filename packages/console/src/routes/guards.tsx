/** Route access: private routes send a visitor to /login and remember where they were going. */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useSession } from '../session/session-context.js';

interface ReturnState {
  from?: { pathname: string; search: string; hash: string };
}

/** Needs a session; the declared route role (USER or ADMIN) is not enforced beyond that, as the spec says. */
export function RequireAuth({ children }: { children: ReactNode; role?: 'USER' | 'ADMIN' }) {
  const { authenticated, logoutReason } = useSession();
  const location = useLocation();
  if (!authenticated) {
    // A deliberate log out is not a detour: the next login starts at / again.
    const state: ReturnState | undefined =
      logoutReason === 'user'
        ? undefined
        : { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to="/login" replace state={state} />;
  }
  return <>{children}</>;
}

/** Where to go after logging in: the remembered private route, else /. */
export function returnPath(state: unknown): string {
  const from = (state as ReturnState | null)?.from;
  if (!from || from.pathname === '/login') return '/';
  return `${from.pathname}${from.search}${from.hash}`;
}

/** Unauthenticated visits to /previewplayer or /editplayer with a query go to /playerext with the same query. */
export function PlayerRedirect({ children }: { children: ReactNode }) {
  const { authenticated } = useSession();
  const location = useLocation();
  if (!authenticated && location.search) return <Navigate to={`/playerext${location.search}`} replace />;
  return <RequireAuth>{children}</RequireAuth>;
}
