/** Session tokens (JWT, HS256) and the one-time tokens of activation, reset and invites. */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

interface SessionClaims {
  sub: string;
  cid: string;
  roles: string[];
  exp: number;
  /** Issued at (seconds); sessions older than the user's last password change are refused. */
  iat: number;
  /**
   * The user's `credentials_changed_at` when the session was issued (ms since the epoch, 0 for never): a session is
   * good while it still matches (services/resolve-auth.ts). Null in sessions issued without it.
   */
  cca: number | null;
}

export interface TokenService {
  sign(claims: { userId: string; companyId: string; roles: string[]; credentialsChangedAt?: number }): Promise<string>;
  verify(token: string): Promise<SessionClaims | null>;
}

/** `users.credentials_changed_at` as sessions carry it: ms since the epoch, 0 when the credentials never changed. */
export const credentialsStamp = (at: Date | string | null | undefined): number => (at ? new Date(at).getTime() : 0);

/**
 * Sessions are issued and checked by `nowMs`, the server's clock (core/clock.ts serverNow, given by the app), so a
 * session's lifetime ends by the same clock as everything else that expires.
 */
export function createTokenService(secret: string, ttlSeconds: number, nowMs: () => number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async sign({ userId, companyId, roles, credentialsChangedAt }) {
      const issuedAt = Math.floor(nowMs() / 1000);
      return new SignJWT({
        roles,
        cid: companyId,
        ...(credentialsChangedAt !== undefined ? { cca: credentialsChangedAt } : {}),
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(userId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], currentDate: new Date(nowMs()) });
        if (
          typeof payload.sub !== 'string' ||
          typeof payload.cid !== 'string' ||
          !Array.isArray(payload.roles) ||
          typeof payload.exp !== 'number'
        )
          return null;
        return {
          sub: payload.sub,
          cid: payload.cid,
          roles: payload.roles.map(String),
          exp: payload.exp,
          iat: typeof payload.iat === 'number' ? payload.iat : 0,
          cca: typeof payload.cca === 'number' ? payload.cca : null,
        };
      } catch {
        return null;
      }
    },
  };
}

/** A new random token of 256 bits (url-safe) and the hash we store instead of it. */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
