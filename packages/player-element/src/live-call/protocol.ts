/** Wire protocol of /ws/tour-viewer-events (docs/live-viewing.md), shared by scroll sync and the WebRTC transport. */
import { ERROR_TEXTS, formatTexts } from '@roomwalk/shared/messages';
import { LIVE_CLOSE_CODES, MESSAGE_TYPES } from '@roomwalk/shared/constants';
import { LIVE_SOCKET_MESSAGES } from '@roomwalk/shared/schemas/socket-messages';

/** The socket's messages (shared contract, schemas in @roomwalk/shared/schemas/socket-messages) and the window's marker. */
export const LIVE_MESSAGES = { ...LIVE_SOCKET_MESSAGES, marker: MESSAGE_TYPES.marker } as const;

/**
 * Close codes the server uses (shared contract); 4000–4005 are final: a reconnect would get the same answer, or for
 * 4005 (replaced by the same person's newer socket, another tab) would replace that socket in turn, and the two tabs
 * would take the room from each other for ever.
 */
export const CLOSE_CODES = LIVE_CLOSE_CODES;

export const FINAL_CLOSE_CODES: ReadonlySet<number> = new Set([
  CLOSE_CODES.badRequest,
  CLOSE_CODES.unauthorised,
  CLOSE_CODES.sessionExpired,
  CLOSE_CODES.forbidden,
  CLOSE_CODES.notFound,
  CLOSE_CODES.replaced,
]);

/**
 * The spec's text for a final close: the session expiry text, ours for a replaced socket, else "Connection error:
 * {code}".
 */
export function closeText(code: number): string {
  if (code === CLOSE_CODES.replaced) return ERROR_TEXTS.liveReplaced;
  return code === CLOSE_CODES.sessionExpired ? ERROR_TEXTS.sessionExpired : formatTexts.connectionError(code);
}

export type LiveRole = 'host' | 'viewer';

export interface PeerInfo {
  peerId: string;
  role: LiveRole;
  userId: string;
}

interface RTCIceServerLike {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface WelcomeMessage {
  type: typeof LIVE_MESSAGES.welcome;
  peerId: string;
  role: LiveRole;
  userId: string;
  tourId: string;
  session: string;
  expireTime: string;
  iceServers: RTCIceServerLike[];
  peers: PeerInfo[];
}

interface ScrollingMessage {
  type: typeof LIVE_MESSAGES.scrolling;
  tourId: string;
  data: { frameIndex: number };
  from?: string;
}

export type SignalData =
  /** `call` names one call attempt of the sender: a new one (page reload, retry) is renegotiated, a repeat is not. */
  | { kind: 'ready'; call: string; reply?: boolean }
  | { kind: 'offer'; sdp: string; restart?: boolean }
  | { kind: 'answer'; sdp: string }
  | { kind: 'ice'; candidate: RTCIceCandidateInit | null }
  | { kind: 'bye' };

export interface SignalMessage {
  type: typeof LIVE_MESSAGES.signal;
  from: string;
  fromRole: LiveRole;
  /** The sender's participant id (viewingSessionUserId), stable across its reconnects. */
  fromUser: string;
  data: SignalData;
}

interface PeerMessage {
  type: typeof LIVE_MESSAGES.peerJoined | typeof LIVE_MESSAGES.peerLeft;
  peer: PeerInfo;
}

interface ErrorMessage {
  type: typeof LIVE_MESSAGES.error;
  code: string;
  message: string;
}

export type ServerMessage = WelcomeMessage | ScrollingMessage | SignalMessage | PeerMessage | ErrorMessage;

/** The tokens a session hands out (GraphQL ViewingSessionRequest). */
export interface ViewingSessionRequestLike {
  signalingToken: string;
  rtcToken?: string | null;
  appId?: string | null;
  viewingSessionUserId: string;
  expireTime: string | Date;
}

/** The session id carried in a signalling token (its `sid` claim); read, not verified: the server verifies. */
export function sessionFromToken(token: string): string | null {
  try {
    const part = token.split('.')[1];
    if (!part) return null;
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const sid = (JSON.parse(json) as { sid?: unknown }).sid;
    return typeof sid === 'string' ? sid : null;
  } catch {
    return null;
  }
}

/** The socket URL for a server base (http, https, ws or wss). */
export function socketUrl(base: string, q: { tourId: string; session?: string | null }): string {
  const u = new URL('/ws/tour-viewer-events', base.replace(/^http/, 'ws'));
  u.searchParams.set('tourId', q.tourId);
  if (q.session) u.searchParams.set('session', q.session);
  return u.toString();
}

/**
 * The socket's first message: the credentials, never in its URL (proxies log URLs). A password tour's visitor joins
 * with the grant and pass the tour query sends (the server checks them as that query does); a visitor through an
 * audience link that hides rooms names the link (the server moves scrolls between its frames and the tour's).
 */
export function helloMessage(q: { token: string; access?: string | undefined; link?: string | undefined }): string {
  return JSON.stringify({
    type: LIVE_SOCKET_MESSAGES.hello,
    token: q.token,
    ...(q.access ? { access: q.access } : {}),
    ...(q.link ? { link: q.link } : {}),
  });
}
