/** Renders a console page with a signed-in session and a fake /query that answers each operation by name. */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { ROLES } from '@roomwalk/shared';
import { createSessionStore } from '../session/session-store.js';
import { SessionProvider } from '../session/session-context.js';
import { SnackbarProvider } from '../ui/snackbar.js';
import { validToken } from './helpers.js';

export const ADMIN_ROLES: string[] = [ROLES.basic, ROLES.admin];
export const MEMBER_ROLES: string[] = [ROLES.basic];

export type Answers = Record<string, (variables: Record<string, unknown>) => unknown>;

export function renderPage(
  ui: ReactElement,
  opts: { path: string; route?: string; roles: string[]; answers: Answers },
) {
  const calls: Array<{ operationName: string; variables: Record<string, unknown> }> = [];
  const fetchImpl = (async (_url: string, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? '{}')) as {
      operationName?: string;
      query: string;
      variables?: Record<string, unknown>;
    };
    const name = body.operationName ?? /(?:query|mutation)\s+(\w+)/.exec(body.query)?.[1] ?? '';
    calls.push({ operationName: name, variables: body.variables ?? {} });
    const answer = opts.answers[name];
    const payload = answer
      ? { data: answer(body.variables ?? {}) }
      : { errors: [{ message: `no answer for ${name}` }] };
    return new Response(JSON.stringify(payload), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const store = createSessionStore({ storage: sessionStorage, log: () => undefined });
  store.login(validToken(opts.roles), 'roomwalk');
  const result = render(
    <SessionProvider store={store} fetchImpl={fetchImpl}>
      <SnackbarProvider>
        <MemoryRouter initialEntries={[opts.path]}>
          <Routes>
            <Route path={opts.route ?? opts.path.split('?')[0]!} element={ui} />
            <Route path="*" element={<p>elsewhere</p>} />
          </Routes>
        </MemoryRouter>
      </SnackbarProvider>
    </SessionProvider>,
  );
  return { ...result, calls, store };
}
