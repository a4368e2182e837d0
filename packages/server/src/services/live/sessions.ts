/** Viewing sessions: one room per visitor's request, shared by the visitor (viewer) and the agent (host). */
import { randomBytes } from 'node:crypto';
import type { Services } from '../services.js';
import { encodeId } from '../../core/ids.js';
import { agoraGrant } from './agora.js';
import { LIVE_ROLES, type LiveRole, type SignalingTokens } from './signaling-token.js';
import { serverNow } from '../../core/clock.js';

export interface ViewingSessionRequest {
  rtcToken: string | null;
  signalingToken: string;
  appId: string | null;
  viewingSessionUserId: string;
  expireTime: Date;
  /** Not in the GraphQL type: the room id, carried in links and on the socket URL. */
  sessionId: string;
}

export interface SessionRow {
  id: string;
  tour_id: string;
  lead_id: string | null;
  expires_at: Date;
}

export const signalingTokens = (services: Services): SignalingTokens => services.signalingTokens;

/** Participant ids in a call: stable for a host (one per user), fresh for each visitor. */
export const participantId = {
  host: (userId: string) => `host-${userId}`,
  viewer: () => `viewer-${randomBytes(8).toString('hex')}`,
};

/** Issues the tokens of one participant for a session (signalling always; Agora when configured). */
export async function issueRequest(
  services: Services,
  session: SessionRow,
  role: LiveRole,
  userId: string,
): Promise<ViewingSessionRequest> {
  const expireTime = new Date(session.expires_at);
  const signalingToken = await signalingTokens(services).sign({
    tourId: session.tour_id,
    sessionId: session.id,
    role,
    userId,
    exp: Math.floor(expireTime.getTime() / 1000),
  });
  const agora = agoraGrant(services.config, session.id, userId, expireTime, serverNow(services));
  return {
    rtcToken: agora?.rtcToken ?? null,
    appId: agora?.appId ?? null,
    signalingToken,
    viewingSessionUserId: userId,
    expireTime,
    sessionId: session.id,
  };
}

export function sessionExpiry(services: Services): Date {
  return new Date(serverNow(services).getTime() + services.config.LIVE_SESSION_TTL_SECONDS * 1000);
}

/**
 * The host's session for a tour: the one named (from the link in the lead mail), else the newest open one,
 * else a new one the host waits in ("Waiting on Viewer..."); the next visitor's lead joins that one.
 * Returns null when the named session is not one of this tour's open sessions.
 */
export async function hostSession(
  services: Services,
  tourId: string,
  hostUserId: string,
  sessionId: string | null,
): Promise<SessionRow | null> {
  const db = services.db;
  const open = db
    .selectFrom('viewing_sessions')
    .select(['id', 'tour_id', 'lead_id', 'expires_at'])
    .where('tour_id', '=', tourId)
    .where('expires_at', '>', serverNow(services));
  if (sessionId) return (await open.where('id', '=', sessionId).executeTakeFirst()) ?? null;
  const newest = await open.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  if (newest) return newest;
  return db
    .insertInto('viewing_sessions')
    .values({ tour_id: tourId, lead_id: null, created_by: hostUserId, expires_at: sessionExpiry(services) })
    .returning(['id', 'tour_id', 'lead_id', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** The agent's link in the lead mail: the agent player as host, in this session. */
export function hostLink(publicUrl: string, tourId: string, sessionId: string): string {
  const q = new URLSearchParams({ tourId: encodeId('Tour', tourId), liveViewing: 'true', session: sessionId });
  return `${publicUrl}/agentplayer?${q.toString()}`;
}

export { LIVE_ROLES };
