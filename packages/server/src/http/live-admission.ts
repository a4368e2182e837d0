/**
 * Who may join a live viewing room (http/tour-viewer-ws.ts): the socket's origin, its credentials (a signalling token
 * from tourLeadCreate or tourHostSession, else the host's own session token) and the session they name, still open.
 */
import type { IncomingMessage } from 'node:http';
import type { RawData } from 'ws';
import { LIVE_CLOSE_CODES as CLOSE_CODES, TOUR_STATUS, type VisibleFrames } from '@roomwalk/shared';
import { liveHelloSchema, parseSocketMessage } from '@roomwalk/shared/schemas/socket-messages';
import type { Services } from '../services/services.js';
import { serverNow } from '../core/clock.js';
import { resolveAuth } from '../services/resolve-auth.js';
import { participantId, signalingTokens } from '../services/live/sessions.js';
import { LIVE_ROLES, type LiveRole, type SignalingClaims } from '../services/live/signaling-token.js';
import { liveViewerRefusal } from '../services/tour-access/visit-gate.js';
import { viewerLinkFrames } from '../services/live/link-frames.js';
import { LIVE_LIMITS } from './live-limits.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Admission =
  | {
      ok: true;
      tourId: string;
      sessionId: string;
      role: LiveRole;
      userId: string;
      expiresAt: Date;
      /** A viewer through an audience link that hides rooms: its frames (scrolls are moved to and from them). */
      frames?: VisibleFrames | null;
    }
  | { ok: false; code: number; reason: string };

/**
 * Same origin, the public URL's origin, LIVE_ALLOWED_ORIGINS, and in development any localhost port. No Origin (not a
 * browser): allowed, the token decides.
 */
function originAllowed(services: Services, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (host && o.host === host) return true;
  if (o.origin === new URL(services.config.publicUrl).origin) return true;
  const allowed = services.config.LIVE_ALLOWED_ORIGINS.split(',')
    .map((s) => s.trim().replace(/\/$/, ''))
    .filter(Boolean);
  if (allowed.includes('*') || allowed.includes(o.origin)) return true;
  return services.config.isDev && (o.hostname === 'localhost' || o.hostname === '127.0.0.1');
}

function parseTourId(raw: string | null): string | null {
  if (!raw) return null;
  const id = raw.startsWith('tour_') ? raw.slice(5) : raw;
  return UUID.test(id) ? id.toLowerCase() : null;
}

/** A participant's credentials: its first message's (`roomwalk_live_hello`), or an older client's URL parameters. */
export interface Credentials {
  token: string | null;
  access: string | null;
  link: string | null;
}

export function credentialsOf(data: RawData): Credentials | null {
  const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (raw.length > LIVE_LIMITS.signalMessageBytes) return null;
  const hello = parseSocketMessage(liveHelloSchema, raw.toString('utf8'));
  return hello ? { token: hello.token, access: hello.access ?? null, link: hello.link ?? null } : null;
}

/** Whether the socket's participant may join the session it names, as whom, and until when. */
export async function admit(services: Services, req: IncomingMessage, creds: Credentials): Promise<Admission> {
  const url = new URL(req.url ?? '/', 'http://local');
  // A visitor's signalling token (from tourLeadCreate on the listing page) works from any origin: an embed by script
  // tag runs on the listing site's own origin. The host's tokens stay limited to our origins and
  // LIVE_ALLOWED_ORIGINS.
  const originOk = originAllowed(services, req.headers.origin, req.headers.host);
  const tourId = parseTourId(url.searchParams.get('tourId'));
  const sessionParam = url.searchParams.get('session');
  if (!tourId || (sessionParam !== null && !UUID.test(sessionParam)))
    return { ok: false, code: CLOSE_CODES.badRequest, reason: 'A valid tourId is required' };
  const token = creds.token;
  if (!token) return { ok: false, code: CLOSE_CODES.unauthorised, reason: 'Unauthorised' };
  const sessionId = sessionParam?.toLowerCase() ?? null;
  const signal = await signalingTokens(services).verify(token);
  if (signal.ok && !originOk && signal.claims.role !== LIVE_ROLES.viewer)
    return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Origin not allowed' };
  if (!signal.ok && !originOk) return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Origin not allowed' };
  let who: Participant | Refusal;
  if (signal.ok) who = await bySignalingToken(services, tourId, sessionId, signal.claims, creds);
  else if (signal.reason === 'expired')
    return { ok: false, code: CLOSE_CODES.sessionExpired, reason: 'Session expired' };
  else who = await byHostSession(services, tourId, sessionId, token);
  if (!who.ok) return who;
  return openSession(services, tourId, who);
}

type Refusal = Extract<Admission, { ok: false }>;
interface Participant {
  ok: true;
  sessionId: string;
  role: LiveRole;
  userId: string;
  frames: VisibleFrames | null;
}

/**
 * A signalling token names its session (`session=` may be left out, and must match when given). A visitor's token
 * outlives changes of the tour's access: the visitor must be let in now, as the tour query asks, and through an
 * audience link that still opens (its frames, when it hides rooms).
 */
async function bySignalingToken(
  services: Services,
  tourId: string,
  sessionId: string | null,
  claims: SignalingClaims,
  creds: Credentials,
): Promise<Participant | Refusal> {
  if (claims.tourId !== tourId || (sessionId !== null && claims.sessionId !== sessionId))
    return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Token is for another session' };
  let frames: VisibleFrames | null = null;
  if (claims.role === LIVE_ROLES.viewer) {
    const refused = await liveViewerRefusal(services, tourId, creds.access);
    if (refused) return { ok: false, code: CLOSE_CODES.forbidden, reason: refused };
    const link = creds.link;
    if (link) {
      const seen = await viewerLinkFrames(services, tourId, link);
      if (!seen.ok) return { ok: false, code: CLOSE_CODES.forbidden, reason: 'This link is no longer available' };
      frames = seen.frames;
    }
  }
  return { ok: true, sessionId: claims.sessionId, role: claims.role, userId: claims.userId, frames };
}

/** Not a signalling token: the host's own session token, a member of the tour's company, naming the session. */
async function byHostSession(
  services: Services,
  tourId: string,
  sessionId: string | null,
  token: string,
): Promise<Participant | Refusal> {
  const auth = await resolveAuth(services, `Bearer ${token}`);
  if (!auth) return { ok: false, code: CLOSE_CODES.unauthorised, reason: 'Unauthorised' };
  if (sessionId === null) return { ok: false, code: CLOSE_CODES.badRequest, reason: 'session is required' };
  const owner = await services.db
    .selectFrom('tours')
    .select(['company_id'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (owner && owner.company_id !== auth.companyId)
    return { ok: false, code: CLOSE_CODES.forbidden, reason: "Not a member of this tour's company" };
  return { ok: true, sessionId, role: LIVE_ROLES.host, userId: participantId.host(auth.userId), frames: null };
}

/** The session, while it lasts, of a tour not deleted (and processed, for a viewer). */
async function openSession(services: Services, tourId: string, who: Participant): Promise<Admission> {
  const row = await services.db
    .selectFrom('viewing_sessions')
    .innerJoin('tours', 'tours.id', 'viewing_sessions.tour_id')
    .select(['viewing_sessions.expires_at', 'tours.deleted_at', 'tours.status'])
    .where('viewing_sessions.id', '=', who.sessionId)
    .where('viewing_sessions.tour_id', '=', tourId)
    .executeTakeFirst();
  if (!row || row.deleted_at || (who.role === LIVE_ROLES.viewer && row.status !== TOUR_STATUS.PROCESSED))
    return { ok: false, code: CLOSE_CODES.notFound, reason: 'No such viewing session' };
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= serverNow(services).getTime())
    return { ok: false, code: CLOSE_CODES.sessionExpired, reason: 'Session expired' };
  const { sessionId, role, userId, frames } = who;
  return { ok: true, tourId, sessionId, role, userId, expiresAt, frames };
}
