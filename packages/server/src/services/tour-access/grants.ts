/**
 * The two signed things of tour access: an access grant (what the password screen gives a visitor for this browser
 * session) and a media signature (what lets a clip or poster of a protected tour be fetched). Both are HMACs with a key
 * derived from JWT_SECRET and both name the tour's `access_version`, so changing the access or the password revokes
 * every grant and every signed URL at once.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';

/** How long a grant lasts: a browser session keeps it in sessionStorage, so the tab's life in practice. */
const GRANT_SECONDS = 12 * 60 * 60;
/** Signed media URLs last between two and three hours: the expiry is rounded to the hour so URLs stay cacheable. */
const MEDIA_MIN_SECONDS = 2 * 60 * 60;
const MEDIA_ROUND_SECONDS = 60 * 60;

const keys = new WeakMap<Services, Buffer>();
function keyOf(services: Services): Buffer {
  let key = keys.get(services);
  if (!key) {
    key = createHmac('sha256', services.config.jwtSecret).update('tour-access').digest();
    keys.set(services, key);
  }
  return key;
}

const mac = (services: Services, text: string) =>
  createHmac('sha256', keyOf(services)).update(text).digest('base64url');

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A grant for one tour at one access version: `<expires>.<version>.<mac>`. A grant naming a lead (`<expires>.<version>.
 * <lead id>.<mac>`) is also the pass through the tour's lead gate: the lead was approved, or went on at once
 * (services/lead-gate/).
 */
export function signGrant(
  services: Services,
  tourId: string,
  version: number,
  nowMs = Date.now(),
  leadId?: string,
): { token: string; expiresAt: Date } {
  const expires = Math.floor(nowMs / 1000) + GRANT_SECONDS;
  const lead = leadId ? `.${leadId}` : '';
  return {
    token: `${expires}.${version}${lead}.${mac(services, `grant\n${tourId}\n${version}\n${expires}${leadId ? `\n${leadId}` : ''}`)}`,
    expiresAt: new Date(expires * 1000),
  };
}

const LEAD_ID = /^[0-9a-f-]{36}$/;

/** The live grant's parts: null unless `token` is a live grant for this tour at its current access version. */
function liveGrant(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  nowMs: number,
): { leadId: string | null } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 3 && parts.length !== 4) return null;
  const [expires, v] = parts as [string, string];
  const leadId = parts.length === 4 ? parts[2]! : null;
  const sig = parts[parts.length - 1]!;
  if (!expires || !v || !sig || Number(v) !== version || !/^\d+$/.test(expires) || Number(expires) * 1000 <= nowMs)
    return null;
  if (leadId !== null && !LEAD_ID.test(leadId)) return null;
  return sameText(sig, mac(services, `grant\n${tourId}\n${version}\n${expires}${leadId ? `\n${leadId}` : ''}`))
    ? { leadId }
    : null;
}

/** Whether `token` is a live grant for this tour at its current access version (a lead gate's pass is one too). */
export function verifyGrant(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  nowMs = Date.now(),
): boolean {
  return liveGrant(services, tourId, version, token, nowMs) !== null;
}

/** The lead a live grant names: its holder passed the tour's lead gate. Null for any other token. */
export function gatePassLead(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  nowMs = Date.now(),
): string | null {
  return liveGrant(services, tourId, version, token, nowMs)?.leadId ?? null;
}

/**
 * Signatures made this hour, by version, expiry and key: a protected tour's answer signs every clip (80 for 40 clips).
 */
const signed = new WeakMap<Services, Map<string, string>>();
const SIGNED_MAX = 50_000;

/** The query string that lets `key` be fetched until the signature expires (`e`, `v`, `s`). */
export function mediaSignature(services: Services, key: string, version: number, nowMs = Date.now()): string {
  const e = Math.ceil((Math.floor(nowMs / 1000) + MEDIA_MIN_SECONDS) / MEDIA_ROUND_SECONDS) * MEDIA_ROUND_SECONDS;
  let memo = signed.get(services);
  if (!memo) {
    memo = new Map();
    signed.set(services, memo);
  }
  const id = `${version}\n${e}\n${key}`;
  let q = memo.get(id);
  if (q === undefined) {
    // e and v are digits and s is base64url: nothing to escape.
    q = `e=${e}&v=${version}&s=${mac(services, `media\n${key}\n${version}\n${e}`)}`;
    if (memo.size >= SIGNED_MAX) memo.clear();
    memo.set(id, q);
  }
  return q;
}

/** Whether a media request's `e`, `v`, `s` sign this key at the tour's current access version and have not expired. */
export function verifyMediaSignature(
  services: Services,
  key: string,
  version: number,
  q: Record<string, unknown>,
  nowMs = Date.now(),
): boolean {
  const { e, v, s } = q;
  if (
    typeof e !== 'string' ||
    typeof v !== 'string' ||
    typeof s !== 'string' ||
    !/^\d+$/.test(e) ||
    Number(v) !== version
  )
    return false;
  if (Number(e) * 1000 <= nowMs) return false;
  return sameText(s, mac(services, `media\n${key}\n${version}\n${e}`));
}

/** How long a waiting visitor's socket credential and the agent's mailed approval link last. */
export const GATE_WAIT_SECONDS = 24 * 60 * 60;

/** The credential a visitor waiting at the lead gate opens the live socket with: `<expires>.<mac>` over the lead. */
export function signGateWait(services: Services, tourId: string, leadId: string, nowMs = Date.now()): string {
  const expires = Math.floor(nowMs / 1000) + GATE_WAIT_SECONDS;
  return `${expires}.${mac(services, `gate-wait\n${tourId}\n${leadId}\n${expires}`)}`;
}

export function verifyGateWait(
  services: Services,
  tourId: string,
  leadId: string,
  token: unknown,
  nowMs = Date.now(),
): boolean {
  if (typeof token !== 'string' || token.length > 200) return false;
  const [expires, sig, extra] = token.split('.');
  if (!expires || !sig || extra !== undefined || !/^\d+$/.test(expires) || Number(expires) * 1000 <= nowMs)
    return false;
  return sameText(sig, mac(services, `gate-wait\n${tourId}\n${leadId}\n${expires}`));
}
