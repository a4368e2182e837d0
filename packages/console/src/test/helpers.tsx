/** Test helpers: tokens, a memory session, and a renderer with the console's providers around a route. */
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SessionProvider } from '../session/session-context.js';
import { createSessionStore, type SessionStore } from '../session/session-store.js';
import { SnackbarProvider } from '../ui/snackbar.js';
import { ERROR_TEXTS } from '@roomwalk/shared';

const b64url = (s: string) => btoa(s).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');

/** An unsigned JWT with the given claims (the console never verifies signatures; the server does). */
export function makeToken(claims: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.sig`;
}
export const validToken = (roles: string[] = ['free', 'admin'], ttlSeconds = 3600) =>
  makeToken({ sub: 'user_1', roles, exp: Math.floor(Date.now() / 1000) + ttlSeconds });

/** A session signed in with the given roles (a Free plan user by default). */
export function loggedInStore(roles: string[] = ['free']): SessionStore {
  const store = createSessionStore({ log: () => undefined });
  store.login(validToken(roles), 'roomwalk');
  return store;
}

/** A stubFetch answer: the operation is not available on this server (NOT_AVAILABLE_YET). */
export const notAvailable = () => ({
  body: { data: null, errors: [{ message: ERROR_TEXTS.notAvailableYet, extensions: { code: 'NOT_AVAILABLE_YET' } }] },
});

/** Shows the current location so tests can assert navigation. */
export function LocationProbe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

export interface RenderOptions {
  path: string;
  route: string;
  store?: SessionStore;
  extraRoutes?: ReactNode;
  state?: unknown;
}

export function renderRoute(
  element: ReactNode,
  { path, route, store = createSessionStore({ log: () => undefined }), extraRoutes, state }: RenderOptions,
) {
  const utils = render(
    <SessionProvider store={store}>
      <SnackbarProvider>
        <MemoryRouter
          initialEntries={[
            { pathname: route.split('?')[0]!, search: route.includes('?') ? `?${route.split('?')[1]}` : '', state },
          ]}
        >
          <LocationProbe />
          <Routes>
            <Route path={path} element={element} />
            {extraRoutes}
            <Route path="*" element={<div>elsewhere</div>} />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
  return { ...utils, store };
}

/**
 * A fetch stub answering GraphQL operations by name and REST paths by suffix. A `data:` URL (the icons' SVGs, fetched
 * once by the first screen that shows one) is no call to the server: it is fetched as it is and not counted, so which
 * test shows an icon first changes no test's `calls`.
 */
export function stubFetch(handlers: Record<string, (body: unknown) => { status?: number; body: unknown }>) {
  const calls: Array<{ url: string; body: unknown; headers: Headers }> = [];
  const realFetch = globalThis.fetch;
  const impl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    if (url.startsWith('data:')) return realFetch(input, init);
    const raw = init?.body;
    const body = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
    calls.push({ url, body, headers: new Headers(init?.headers) });
    const opName = (body as { operationName?: string } | null)?.operationName;
    const key = opName && handlers[opName] ? opName : Object.keys(handlers).find((k) => url.endsWith(k));
    if (!key)
      return new Response(JSON.stringify({ errors: [{ message: 'unhandled', extensions: { code: 'INTERNAL' } }] }), {
        status: 200,
      });
    const answer = handlers[key]!(body);
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { impl, calls };
}
