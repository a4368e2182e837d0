/** The authentication service: password grant and Google sign-in, outside GraphQL. */
import { ERROR_TEXTS, OAUTH_CLIENT } from '@roomwalk/shared';
import { serverUrl } from '../config/page-config.js';
import { createPolicyFetch } from './policy-fetch.js';

/** A failed login with the text the dialog shows (undefined: the dialog's default). */
export class AuthError extends Error {
  constructor(
    readonly userMessage: string | undefined,
    readonly status: number | null,
    readonly code?: string,
  ) {
    super(userMessage ?? 'Authentication request failed');
    this.name = 'AuthError';
  }
}

// Login answers must not trigger the session's 401 logout: a 401 here is a wrong password.
const authFetch = createPolicyFetch();

async function readBody(res: Response): Promise<Record<string, unknown>> {
  try {
    const body: unknown = await res.json();
    return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

async function postJson(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await authFetch(`${serverUrl()}${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } catch {
    throw new AuthError(undefined, null);
  }
  const data = await readBody(res);
  if (res.status === 401)
    throw new AuthError(str(data.message) ?? ERROR_TEXTS.authenticationFailed, 401, str(data.code));
  if (!res.ok) throw new AuthError(str(data.error) ?? str(data.message), res.status, str(data.code));
  return data;
}

const basicAuth = () => `Basic ${btoa(`${OAUTH_CLIENT.id}:${OAUTH_CLIENT.secret}`)}`;

/** POST /oauth/token with the password grant; resolves to the access token, and whether signing in cancelled a deletion. */
export async function passwordLogin(
  username: string,
  password: string,
  turnstileToken?: string,
): Promise<{ token: string; deletionCancelled: boolean }> {
  const headers: Record<string, string> = { Authorization: basicAuth() };
  if (turnstileToken) headers['X-Turnstile-Token'] = turnstileToken;
  const data = await postJson('/oauth/token', { username, password, grant_type: 'password' }, headers);
  const token = str(data.access_token);
  if (!token) throw new AuthError(undefined, 200);
  return { token, deletionCancelled: data.deletion_cancelled === true };
}

/** POST /auth/google/user with the provider's code and state; resolves to { token, email, deletionCancelled }. */
export async function googleLogin(
  code: string,
  state: string,
  gToken: string | null,
): Promise<{ token: string; email: string; deletionCancelled: boolean }> {
  const data = await postJson('/auth/google/user', { code, state, gToken });
  const token = str(data.token);
  if (!token) throw new AuthError(undefined, 200);
  return { token, email: str(data.email) ?? '', deletionCancelled: data.deletionCancelled === true };
}

/** GET /auth/google/url: the identity provider's authorization address; the provider returns to /signup/google. */
export async function googleAuthorizationUrl(
  params: { inviteToken?: string | null; referredBy?: string | null } = {},
): Promise<string> {
  const q = new URLSearchParams();
  if (params.inviteToken) q.set('inviteToken', params.inviteToken);
  if (params.referredBy) q.set('rB', params.referredBy);
  let res: Response;
  try {
    res = await authFetch(`${serverUrl()}/auth/google/url${q.size ? `?${q}` : ''}`, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch {
    throw new AuthError(undefined, null);
  }
  const data = await readBody(res);
  const url = str(data.url);
  if (!res.ok || !url) throw new AuthError(str(data.message) ?? str(data.error), res.status, str(data.code));
  return url;
}
