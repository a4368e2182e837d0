/**
 * Signalling tokens: short JWTs (HS256) that let one visitor into one viewing session of one tour, and nothing else.
 * Signed with a key derived from JWT_SECRET, so a session token can never pass as a signalling token or back.
 */
import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';

export const LIVE_ROLES = { host: 'host', viewer: 'viewer' } as const;
export type LiveRole = (typeof LIVE_ROLES)[keyof typeof LIVE_ROLES];

export interface SignalingClaims {
  /** Tour id (uuid). */
  tourId: string;
  /** Viewing session id (uuid). */
  sessionId: string;
  role: LiveRole;
  /** The participant's id in the call (viewingSessionUserId). */
  userId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

const AUDIENCE = 'roomwalk-live';

type VerifyResult = { ok: true; claims: SignalingClaims } | { ok: false; reason: 'invalid' | 'expired' };

export interface SignalingTokens {
  sign(claims: SignalingClaims): Promise<string>;
  verify(token: string): Promise<VerifyResult>;
}

/** Tokens end with their viewing session, by the server's clock (`nowMs`: core/clock.ts serverNow, given by the app). */
export function createSignalingTokens(jwtSecret: string, nowMs: () => number): SignalingTokens {
  const key = createHmac('sha256', jwtSecret).update('live-signaling').digest();
  return {
    async sign(c) {
      return new SignJWT({ tid: c.tourId, sid: c.sessionId, role: c.role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(c.userId)
        .setAudience(AUDIENCE)
        .setIssuedAt(Math.floor(nowMs() / 1000))
        .setExpirationTime(c.exp)
        .sign(key);
    },
    async verify(token) {
      try {
        const { payload: p } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          audience: AUDIENCE,
          currentDate: new Date(nowMs()),
        });
        if (
          typeof p.tid !== 'string' ||
          typeof p.sid !== 'string' ||
          typeof p.sub !== 'string' ||
          typeof p.exp !== 'number'
        )
          return { ok: false, reason: 'invalid' };
        if (p.role !== LIVE_ROLES.host && p.role !== LIVE_ROLES.viewer) return { ok: false, reason: 'invalid' };
        return { ok: true, claims: { tourId: p.tid, sessionId: p.sid, role: p.role, userId: p.sub, exp: p.exp } };
      } catch (err) {
        return { ok: false, reason: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}
