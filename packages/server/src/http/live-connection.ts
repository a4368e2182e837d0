/**
 * One participant's socket in a live viewing room (http/tour-viewer-ws.ts): its credentials first (the first message,
 * or an older client's URL parameters), then admission, the room's welcome, and its messages relayed to the room
 * within its token bucket. A viewer through an audience link that hides rooms scrolls in the link's frames.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket, { type RawData } from 'ws';
import { LIVE_CLOSE_CODES as CLOSE_CODES, type VisibleFrames } from '@roomwalk/shared';
import {
  clientScrollingSchema,
  clientSignalSchema,
  LIVE_SOCKET_MESSAGES as SOCKET_MESSAGES,
} from '@roomwalk/shared/schemas/socket-messages';
import type { Services } from '../services/services.js';
import { serverNow } from '../core/clock.js';
import { encodeId } from '../core/ids.js';
import type { RoomHub, LocalPeer } from '../services/live/room-hub.js';
import { roomKey } from '../services/live/room-hub.js';
import { LIVE_ROLES, type LiveRole } from '../services/live/signaling-token.js';
import { mapScrollText, tourToViewer, viewerToTour } from '../services/live/link-frames.js';
import type { IceServer } from '../services/live/ice-servers.js';
import { admit, credentialsOf, type Admission, type Credentials } from './live-admission.js';
import { LIVE_LIMITS } from './live-limits.js';

type Peer = LocalPeer & { tourGlobalId: string };

type Parsed =
  | { ok: true; text: string; to?: string; only?: LiveRole; scroll?: true }
  | { ok: false; close?: { code: number; reason: string }; error?: string };

/** Validates one client message and builds the text the others receive. */
function parseMessage(
  raw: string,
  peer: { role: LiveRole; peerId: string; userId: string; tourGlobalId: string },
): Parsed {
  const bytes = Buffer.byteLength(raw);
  if (bytes > LIVE_LIMITS.signalMessageBytes)
    return { ok: false, close: { code: CLOSE_CODES.tooBig, reason: 'Message too big' } };
  let msg: unknown;
  try {
    msg = JSON.parse(raw);
  } catch {
    return { ok: false, error: 'Not JSON' };
  }
  if (typeof msg !== 'object' || msg === null) return { ok: false, error: 'Not a message' };
  const type = (msg as { type?: unknown }).type;
  if (type === SOCKET_MESSAGES.scrolling) {
    if (bytes > LIVE_LIMITS.scrollMessageBytes)
      return { ok: false, close: { code: CLOSE_CODES.tooBig, reason: 'Message too big' } };
    const m = clientScrollingSchema.safeParse(msg);
    if (!m.success) return { ok: false, error: m.error.issues[0]?.message ?? 'Not a message' };
    const { frameIndex } = m.data.data;
    if (m.data.tourId !== undefined && m.data.tourId !== peer.tourGlobalId)
      return { ok: false, error: 'Wrong tourId for this room' };
    return {
      ok: true,
      scroll: true,
      text: JSON.stringify({
        type: SOCKET_MESSAGES.scrolling,
        tourId: peer.tourGlobalId,
        data: { frameIndex },
        from: peer.peerId,
      }),
    };
  }
  if (type === SOCKET_MESSAGES.signal) {
    const m = clientSignalSchema.safeParse(msg);
    if (!m.success) return { ok: false, error: 'Unknown signal' };
    const { data, to } = m.data;
    // Signalling only ever goes between the host and the viewers of the session.
    const only = peer.role === LIVE_ROLES.host ? LIVE_ROLES.viewer : LIVE_ROLES.host;
    return {
      ok: true,
      text: JSON.stringify({
        type: SOCKET_MESSAGES.signal,
        from: peer.peerId,
        fromRole: peer.role,
        fromUser: peer.userId,
        data,
      }),
      only,
      ...(to ? { to } : {}),
    };
  }
  return { ok: false }; // Unknown types are ignored: newer clients may speak more.
}

export class LiveConnection {
  #peer: Peer | null = null;
  /** Set for a viewer whose audience link hides rooms: its scrolls are in the link's frames. */
  #frames: VisibleFrames | null = null;
  #closed = false;
  #admitting = false;
  #expiry: NodeJS.Timeout | undefined;
  #helloTimer: NodeJS.Timeout | undefined;
  /** Messages that came while the socket was being admitted, relayed once it is. */
  #early: Array<{ data: RawData; isBinary: boolean }> = [];
  #tokens: number = LIVE_LIMITS.burst;
  #refilledAt = Date.now();

  constructor(
    private readonly services: Services,
    private readonly hub: RoomHub,
    private readonly iceServers: IceServer[],
    private readonly socket: WebSocket,
    private readonly req: IncomingMessage,
  ) {
    socket.on('message', (data, isBinary) => this.#onSocketMessage(data, isBinary));
    socket.on('close', () => this.#onClose());
    // Credentials come as the first message (an older client's `token=` in the URL is still taken; the URL is never
    // logged here, but a proxy in front would log it).
    const url = new URL(req.url ?? '/', 'http://local');
    if (url.searchParams.has('token'))
      this.#enter({
        token: url.searchParams.get('token'),
        access: url.searchParams.get('access'),
        link: url.searchParams.get('link'),
      });
    else {
      this.#helloTimer = setTimeout(() => this.#close(CLOSE_CODES.unauthorised, 'Unauthorised'), LIVE_LIMITS.helloMs);
      this.#helloTimer.unref();
    }
  }

  #close = (code: number, reason: string): void => {
    const { socket } = this;
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(code, reason);
  };

  #onSocketMessage(data: RawData, isBinary: boolean) {
    if (this.#peer) return this.#onMessage(data, isBinary);
    if (!this.#admitting) {
      clearTimeout(this.#helloTimer);
      const creds = isBinary ? null : credentialsOf(data);
      if (!creds) return this.#close(CLOSE_CODES.unauthorised, 'Unauthorised');
      return this.#enter(creds);
    }
    if (this.#early.push({ data, isBinary }) > LIVE_LIMITS.preAuthMessages)
      this.#close(CLOSE_CODES.rateLimited, 'Rate limited');
  }

  #onClose(): void {
    this.#closed = true;
    clearTimeout(this.#expiry);
    clearTimeout(this.#helloTimer);
    if (this.#peer) this.hub.leave(this.#peer);
  }

  /** An admitted participant's message: within its token bucket, text, small enough; relayed, or answered an error. */
  #onMessage(data: RawData, isBinary: boolean) {
    const peer = this.#peer;
    if (!peer) return;
    const now = Date.now();
    this.#tokens = Math.min(
      LIVE_LIMITS.burst,
      this.#tokens + ((now - this.#refilledAt) / 1000) * LIVE_LIMITS.perSecond,
    );
    this.#refilledAt = now;
    if (this.#tokens < 1) return this.#close(CLOSE_CODES.rateLimited, 'Rate limited');
    this.#tokens -= 1;
    if (isBinary) return this.#close(CLOSE_CODES.unsupportedData, 'Text messages only');
    const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (raw.length > LIVE_LIMITS.signalMessageBytes) return this.#close(CLOSE_CODES.tooBig, 'Message too big');
    const parsed = parseMessage(raw.toString('utf8'), peer);
    const frames = this.#frames;
    if (parsed.ok && parsed.scroll)
      return this.hub.relayScroll(
        peer,
        frames ? mapScrollText(parsed.text, (f) => viewerToTour(frames, f)) : parsed.text,
      );
    if (parsed.ok)
      return this.hub.relay(peer, parsed.text, {
        ...(parsed.to ? { to: parsed.to } : {}),
        ...(parsed.only ? { only: parsed.only } : {}),
      });
    if (parsed.close) return this.#close(parsed.close.code, parsed.close.reason);
    if (parsed.error)
      this.socket.send(JSON.stringify({ type: SOCKET_MESSAGES.error, code: 'BAD_MESSAGE', message: parsed.error }));
  }

  #enter(creds: Credentials): void {
    this.#admitting = true;
    admit(this.services, this.req, creds)
      .then((a) => {
        if (this.#closed) return;
        if (!a.ok) return this.#close(a.code, a.reason);
        this.#join(a);
      })
      .catch((err: unknown) => {
        this.services.log.error({ err }, 'live viewing socket: admission failed');
        this.#close(1011, 'Server error');
      });
  }

  /** Joins the room, welcomes the participant with who is there, ends it when the session does, relays what waited. */
  #join(a: Extract<Admission, { ok: true }>) {
    const { socket } = this;
    const tourGlobalId = encodeId('Tour', a.tourId);
    this.#frames = a.frames ?? null;
    const seen = this.#frames;
    const peer: Peer = {
      peerId: randomUUID(),
      role: a.role,
      userId: a.userId,
      room: roomKey(a.tourId, a.sessionId),
      joinedAt: Date.now(),
      tourGlobalId,
      send: (text) => {
        if (socket.readyState === WebSocket.OPEN)
          socket.send(seen ? mapScrollText(text, (f) => tourToViewer(seen, f)) : text);
      },
      close: this.#close,
    };
    this.#peer = peer;
    const joined = this.hub.join(peer);
    if (!joined.ok) {
      this.#peer = null;
      return this.#close(joined.code, joined.reason);
    }
    socket.send(
      JSON.stringify({
        type: SOCKET_MESSAGES.welcome,
        peerId: peer.peerId,
        role: a.role,
        userId: a.userId,
        tourId: tourGlobalId,
        session: a.sessionId,
        expireTime: a.expiresAt.toISOString(),
        iceServers: this.iceServers,
        peers: joined.present,
      }),
    );
    this.#expiry = setTimeout(
      () => this.#close(CLOSE_CODES.sessionExpired, 'Session expired'),
      Math.min(a.expiresAt.getTime() - serverNow(this.services).getTime(), 2 ** 31 - 1),
    );
    this.#expiry.unref();
    for (const m of this.#early.splice(0)) this.#onMessage(m.data, m.isBinary);
  }
}
