/**
 * The signed things of tour access: an access grant (what the password screen gives a visitor for this browser
 * session), a lead gate's pass (what lets one lead through one gate), and a media signature (what lets a clip or poster
 * of a protected tour be fetched). All are HMACs with a key derived from JWT_SECRET, each names what it grants, and all
 * name the tour's `access_version`, so changing the access or the password revokes every grant, pass and signed URL at
 * once. Each expires by the server's clock (core/clock.ts serverNow): a caller that passes no time gets it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../services.js';
import { serverNow } from '../../core/clock.js';

/** How long a grant lasts: a browser session keeps it in sessionStorage, so the tab's life in practice. */
const GRANT_SECONDS = 12 * 60 * 60;
/** Signed media URLs last between two and three hours: the expiry is rounded to the hour so URLs stay cacheable. */
const MEDIA_MIN_SECONDS = 2 * 60 * 60;
const MEDIA_ROUND_SECONDS = 60 * 60;

/** Tour access's key, derived from JWT_SECRET (one HMAC more per MAC: about a microsecond, nothing kept). */
const keyOf = (services: Services): Buffer =>
  createHmac('sha256', services.config.jwtSecret).update('tour-access').digest();

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

/**
 * What a signed capability grants, named inside what its MAC covers: a password grant (`grant`) lets its holder see a
 * password tour; a gate pass (`pass`) lets its lead through one lead gate and nothing else (never a password).
 */
const grantText = (tourId: string, version: number, expires: number | string) =>
  `grant\n${tourId}\n${version}\n${expires}`;
const passText = (tourId: string, version: number, expires: number | string, pass: GatePass) =>
  `pass\n${tourId}\n${version}\n${expires}\n${pass.leadId}\n${pass.gate}`;
/** A pass's first part: a pass is told from a grant by its form and by what its MAC covers. */
const PASS_PREFIX = 'p';

/** A password grant for one tour at one access version: `<expires>.<version>.<mac>`. */
export function signGrant(
  services: Services,
  tourId: string,
  version: number,
  nowMs = serverNow(services).getTime(),
): { token: string; expiresAt: Date } {
  const expires = Math.floor(nowMs / 1000) + GRANT_SECONDS;
  return {
    token: `${expires}.${version}.${mac(services, grantText(tourId, version, expires))}`,
    expiresAt: new Date(expires * 1000),
  };
}

/**
 * The pass through one lead gate (the tour's own, TOUR_GATE, or one audience link's, its id) for one lead at the access
 * version the lead went through at: `p.<expires>.<version>.<lead id>.<gate>.<mac>`. It opens that gate only while the
 * lead still holds it (services/lead-gate/pass-check.ts) and is never a password grant.
 */
export function signPass(
  services: Services,
  tourId: string,
  version: number,
  pass: GatePass,
  nowMs = serverNow(services).getTime(),
) {
  const expires = Math.floor(nowMs / 1000) + GRANT_SECONDS;
  const sig = mac(services, passText(tourId, version, expires, pass));
  return `${PASS_PREFIX}.${expires}.${version}.${pass.leadId}.${pass.gate}.${sig}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const isGateId = (gate: string) => gate === TOUR_GATE || UUID.test(gate);

/** A capability sent with a request may be a list (a grant and a pass, space-separated): at most this many. */
const MAX_CAPABILITIES = 3;
const CAPABILITY_MAX_CHARS = 200;

/** The single capabilities a request carries (`access`: one, or a space-separated list of a grant and passes). */
function capabilities(token: unknown): string[] {
  if (typeof token !== 'string' || token.length > MAX_CAPABILITIES * (CAPABILITY_MAX_CHARS + 1)) return [];
  const list = token.split(' ').filter(Boolean);
  return list.length <= MAX_CAPABILITIES ? list.filter((t) => t.length <= CAPABILITY_MAX_CHARS) : [];
}

const liveExpiry = (expires: string | undefined, nowMs: number) =>
  !!expires && /^\d+$/.test(expires) && Number(expires) * 1000 > nowMs;

/** Whether one capability is a live password grant for this tour at this access version. */
function isLiveGrant(services: Services, tourId: string, version: number, token: string, nowMs: number): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  const [expires, v, sig] = parts as [string, string, string];
  if (!liveExpiry(expires, nowMs) || !/^\d+$/.test(v) || Number(v) !== version || !sig) return false;
  return sameText(sig, mac(services, grantText(tourId, version, expires)));
}

/** The pass one capability is, when it is a live pass for this tour at this access version. */
function livePass(services: Services, tourId: string, version: number, token: string, nowMs: number): GatePass | null {
  const parts = token.split('.');
  if (parts.length !== 6 || parts[0] !== PASS_PREFIX) return null;
  const [, expires, v, leadId, gate, sig] = parts as [string, string, string, string, string, string];
  if (!liveExpiry(expires, nowMs) || !/^\d+$/.test(v) || Number(v) !== version || !sig) return null;
  if (!UUID.test(leadId) || !isGateId(gate)) return null;
  const pass = { leadId, gate };
  return sameText(sig, mac(services, passText(tourId, version, expires, pass))) ? pass : null;
}

/**
 * Whether `token` (one capability or a list) holds a live password grant for this tour at its current access version.
 * A gate pass is no grant: it opens its gate, never a password tour.
 */
export function verifyGrant(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  nowMs = serverNow(services).getTime(),
): boolean {
  return capabilities(token).some((t) => isLiveGrant(services, tourId, version, t, nowMs));
}

/**
 * The lead a live pass through this gate names (TOUR_GATE, or the id of the audience link whose own gate it is), by
 * its signature only: whether the lead still holds it is services/lead-gate/pass-check.ts. A pass granted at another
 * gate of the tour, or any other capability, is null: each gate takes only its own passes.
 */
export function gatePassLead(
  services: Services,
  tourId: string,
  version: number,
  token: unknown,
  gate: string,
  nowMs = serverNow(services).getTime(),
): string | null {
  for (const t of capabilities(token)) {
    const pass = livePass(services, tourId, version, t, nowMs);
    if (pass && pass.gate === gate) return pass.leadId;
  }
  return null;
}

/**
 * Signatures made this hour are kept (`services.mediaSignatures`, by version, expiry and key): a protected tour's answer
 * signs every clip (80 for 40 clips).
 */
const SIGNED_MAX = 50_000;

/**
 * When media signed at `nowMs` (the server's clock) expire (seconds since the epoch): the same for every signature made
 * in one hour, so an answer that signs its files is the same for every grant holder within that hour
 * (http/public-tour-cache.ts keeps it so).
 */
export const mediaExpiry = (nowMs: number): number =>
  Math.ceil((Math.floor(nowMs / 1000) + MEDIA_MIN_SECONDS) / MEDIA_ROUND_SECONDS) * MEDIA_ROUND_SECONDS;

/** The query string that lets `key` be fetched until the signature expires (`e`, `v`, `s`). */
export function mediaSignature(
  services: Services,
  key: string,
  version: number,
  nowMs = serverNow(services).getTime(),
): string {
  const e = mediaExpiry(nowMs);
  const memo = services.mediaSignatures;
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
  nowMs = serverNow(services).getTime(),
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
export function signGateWait(
  services: Services,
  tourId: string,
  leadId: string,
  nowMs = serverNow(services).getTime(),
): string {
  const expires = Math.floor(nowMs / 1000) + GATE_WAIT_SECONDS;
  return `${expires}.${mac(services, `gate-wait\n${tourId}\n${leadId}\n${expires}`)}`;
}

export function verifyGateWait(
  services: Services,
  tourId: string,
  leadId: string,
  token: unknown,
  nowMs = serverNow(services).getTime(),
): boolean {
  if (typeof token !== 'string' || token.length > 200) return false;
  const [expires, sig, extra] = token.split('.');
  if (!expires || !sig || extra !== undefined || !/^\d+$/.test(expires) || Number(expires) * 1000 <= nowMs)
    return false;
  return sameText(sig, mac(services, `gate-wait\n${tourId}\n${leadId}\n${expires}`));
}
