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

/** The gate a pass names: the tour's own lead gate, or an audience link's own gate (by the link's id). */
export const TOUR_GATE = 'tour';

/** A lead gate's pass: the lead through it and the gate it was granted at (TOUR_GATE or a link's id). */
export interface GatePass {
  leadId: string;
  gate: string;
}

const grantText = (tourId: string, version: number, expires: number | string, pass: GatePass | null) =>
  `grant\n${tourId}\n${version}\n${expires}${pass ? `\n${pass.leadId}\n${pass.gate}` : ''}`;

/**
 * A grant for one tour at one access version: `<expires>.<version>.<mac>`. A grant naming a lead and a gate
 * (`<expires>.<version>.<lead id>.<gate>.<mac>`) is also the pass through that one lead gate: the tour's own
 * (TOUR_GATE) or one audience link's (its id); the lead was approved, or went on at once (services/lead-gate/).
 */
export function signGrant(
  services: Services,
  tourId: string,
  version: number,
  nowMs = Date.now(),
  pass?: GatePass,
): { token: string; expiresAt: Date } {
  const expires = Math.floor(nowMs / 1000) + GRANT_SECONDS;
  const named = pass ? `.${pass.leadId}.${pass.gate}` : '';
  return {
    token: `${expires}.${version}${named}.${mac(services, grantText(tourId, version, expires, pass ?? null))}`,
    expiresAt: new Date(expires * 1000),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isGateId = (gate: string) => gate === TOUR_GATE || UUID.test(gate);

/**
 * The live grant's parts: null unless `token` is a live grant for this tour at its current access version. A pass of
 * the earlier form, naming a lead but no gate (`<expires>.<version>.<lead id>.<mac>`), is still a grant but no pass.
 */
function liveGrant(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  nowMs: number,
): { pass: GatePass | null } | null {
  if (typeof token !== 'string' || token.length > 200) return null;
  const parts = token.split('.');
  if (parts.length !== 3 && parts.length !== 4 && parts.length !== 5) return null;
  const [expires, v] = parts as [string, string];
  const sig = parts[parts.length - 1]!;
  if (!expires || !v || !sig || Number(v) !== version || !/^\d+$/.test(expires) || Number(expires) * 1000 <= nowMs)
    return null;
  if (parts.length === 4) {
    const leadId = parts[2]!;
    if (!UUID.test(leadId)) return null;
    const text = `grant\n${tourId}\n${version}\n${expires}\n${leadId}`;
    return sameText(sig, mac(services, text)) ? { pass: null } : null;
  }
  const pass = parts.length === 5 ? { leadId: parts[2]!, gate: parts[3]! } : null;
  if (pass && (!UUID.test(pass.leadId) || !isGateId(pass.gate))) return null;
  return sameText(sig, mac(services, grantText(tourId, version, expires, pass))) ? { pass } : null;
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

/**
 * The lead a live pass through this gate names (TOUR_GATE, or the id of the audience link whose own gate it is). A
 * pass granted at another gate of the tour, or any other grant, is null: each gate takes only its own passes.
 */
export function gatePassLead(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  gate: string,
  nowMs = Date.now(),
): string | null {
  const pass = liveGrant(services, tourId, version, token, nowMs)?.pass;
  return pass && pass.gate === gate ? pass.leadId : null;
}

/**
 * Signatures made this hour, by version, expiry and key: a protected tour's answer signs every clip (80 for 40 clips).
 */
const signed = new WeakMap<Services, Map<string, string>>();
const SIGNED_MAX = 50_000;

/**
 * When media signed now expire (seconds since the epoch): the same for every signature made in one hour, so an answer
 * that signs its files is the same for every grant holder within that hour (http/public-tour-cache.ts keeps it so).
 */
export const mediaExpiry = (nowMs = Date.now()): number =>
  Math.ceil((Math.floor(nowMs / 1000) + MEDIA_MIN_SECONDS) / MEDIA_ROUND_SECONDS) * MEDIA_ROUND_SECONDS;

/** The query string that lets `key` be fetched until the signature expires (`e`, `v`, `s`). */
export function mediaSignature(services: Services, key: string, version: number, nowMs = Date.now()): string {
  const e = mediaExpiry(nowMs);
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
