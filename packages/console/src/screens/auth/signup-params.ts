/**
 * Sign-up query parameters: inviteToken, rB (referred by) and gToken, read once then removed from the
 * address.
 */
import { safeSessionStorage } from '@roomwalk/shared';

export interface SignupParams {
  inviteToken: string | null;
  /** The invited address from the invite link, to fill in the E-mail field. */
  email?: string | null;
  referredBy: string | null;
  gToken: string | null;
}

const SIGNUP_PARAMS_KEY = 'roomwalk.signup-params';
const QUERY_NAMES = ['inviteToken', 'rB', 'gToken', 'email'] as const;

/** Reads the parameters from the query, falling back to what an earlier visit kept for this tab. */
export function readSignupParams(search: string, storage: Storage = safeSessionStorage()): SignupParams {
  const q = new URLSearchParams(search);
  let kept: Partial<SignupParams> = {};
  try {
    kept = JSON.parse(storage.getItem(SIGNUP_PARAMS_KEY) ?? '{}') as Partial<SignupParams>;
  } catch {
    kept = {};
  }
  const params: SignupParams = {
    inviteToken: q.get('inviteToken') ?? kept.inviteToken ?? null,
    email: q.get('email') ?? kept.email ?? null,
    referredBy: q.get('rB') ?? kept.referredBy ?? null,
    gToken: q.get('gToken') ?? kept.gToken ?? null,
  };
  storage.setItem(SIGNUP_PARAMS_KEY, JSON.stringify(params));
  return params;
}

/** The query without the sign-up parameters ('' when nothing else is left). */
export function stripSignupParams(search: string): string {
  const q = new URLSearchParams(search);
  for (const n of QUERY_NAMES) q.delete(n);
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}

export const hasSignupParams = (search: string): boolean => QUERY_NAMES.some((n) => new URLSearchParams(search).has(n));
