/**
 * GET /ws/tour-viewer-events?tourId=&session= — the live viewing socket (docs/live-viewing.md): scroll
 * sync (`roomwalk_scrolling`) and WebRTC signalling (`roomwalk_signal`) in rooms of one tour and viewing session. With
 * `lead=` instead, a visitor waiting at a lead gate for the agent's approval (lead-gate-socket.ts).
 *
 * Mercurius registers @fastify/websocket inside its own plugin context, where our routes cannot reach it, and a
 * second registration would make both instances answer every upgrade. So this path is taken off the server's
 * `upgrade` event before the others see it and served by `ws` directly (which also keeps the token in the URL out
 * of the request log); every other upgrade (GraphQL subscriptions on /query) goes on to Mercurius as before.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { LIVE_CLOSE_CODES, TOUR_STATUS } from '@roomwalk/shared';
import {
  clientScrollingSchema,
  clientSignalSchema,
  LIVE_SOCKET_MESSAGES,
  liveHelloSchema,
  MAX_FRAME_INDEX,
  parseSocketMessage,
} from '@roomwalk/shared/schemas/socket-messages';
import type { Services } from '../services/services.js';
import { resolveAuth } from '../services/resolve-auth.js';
import { encodeId } from '../core/ids.js';
import { parseIceServers } from '../services/live/ice-servers.js';
import { createRoomBus } from '../services/live/room-bus.js';
import { RoomHub, roomKey, type LocalPeer } from '../services/live/room-hub.js';
import { participantId, signalingTokens } from '../services/live/sessions.js';
import { LIVE_ROLES, type LiveRole } from '../services/live/signaling-token.js';
import { liveViewerRefusal } from '../services/tour-access/visit-gate.js';
import { createGateWaiters, isGateWaiter } from './lead-gate-socket.js';
import { mapScrollText, tourToViewer, viewerLinkFrames, viewerToTour } from '../services/live/link-frames.js';
import type { VisibleFrames } from '@roomwalk/shared';

export const TOUR_VIEWER_PATH = '/ws/tour-viewer-events';

/** Close codes of the socket (shared contract); the player maps them to the spec's connection texts. */
export const CLOSE_CODES = LIVE_CLOSE_CODES;

const SOCKET_MESSAGES = LIVE_SOCKET_MESSAGES;

export const LIVE_LIMITS = {
  /** A scroll message is tiny; anything bigger is not one of ours. */
  scrollMessageBytes: 1024,
  /** Signalling carries SDP (a few KB with audio and video). */
  signalMessageBytes: 16 * 1024,
  /** Token bucket per connection: a burst of 100 messages, 50 a second sustained (scrolls come at most every 33 ms). */
  burst: 100,
  perSecond: 50,
  /** Messages a client may send before it is authenticated. */
  preAuthMessages: 20,
  /** How long a socket may take to send its credentials (its first message) before it is closed. */
  helloMs: 10_000,
  heartbeatMs: 30_000,
  maxFrameIndex: MAX_FRAME_INDEX,
  /**
   * Against amplification: one socket per participant (token) in a room: a newer one replaces the older (4005).
   * A room is one visitor and the agency's hosts; six sockets on a node leave the agent five colleagues (4009 beyond).
   */
  maxPeersPerRoom: 6,
  /**
   * Scrolls relayed into one room: the same bucket as one socket's (so a single sender never notices); beyond it a
   * sender's latest position waits and replaces its earlier one. Deliveries per room ≤ 50/s × 5 others sustained.
   */
  roomScrollBurst: 100,
  roomScrollPerSecond: 50,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The rooms of this node; tests reach it as `app.liveRooms`. */
declare module 'fastify' {
  interface FastifyInstance {
    liveRooms: RoomHub;
  }
}

type Admission =
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
export function originAllowed(services: Services, origin: string | undefined, host: string | undefined): boolean {
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
interface Credentials {
  token: string | null;
  access: string | null;
  link: string | null;
}

function credentialsOf(data: RawData): Credentials | null {
  const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  if (raw.length > LIVE_LIMITS.signalMessageBytes) return null;
  const hello = parseSocketMessage(liveHelloSchema, raw.toString('utf8'));
  return hello ? { token: hello.token, access: hello.access ?? null, link: hello.link ?? null } : null;
}

async function admit(services: Services, req: IncomingMessage, creds: Credentials): Promise<Admission> {
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

  let role: LiveRole;
  let userId: string;
  let sessionId = sessionParam?.toLowerCase() ?? null;
  let frames: VisibleFrames | null = null;
  const signal = await signalingTokens(services).verify(token);
  if (signal.ok && !originOk && signal.claims.role !== LIVE_ROLES.viewer)
    return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Origin not allowed' };
  if (!signal.ok && !originOk) return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Origin not allowed' };
  if (signal.ok) {
    // A signalling token names its session; `session=` may be left out, and must match when given.
    if (signal.claims.tourId !== tourId || (sessionId !== null && signal.claims.sessionId !== sessionId))
      return { ok: false, code: CLOSE_CODES.forbidden, reason: 'Token is for another session' };
    sessionId = signal.claims.sessionId;
    role = signal.claims.role;
    userId = signal.claims.userId;
    // A visitor's token outlives changes of the tour's access: the visitor must be let in now, as the tour query asks.
    if (role === LIVE_ROLES.viewer) {
      const refused = await liveViewerRefusal(services, tourId, creds.access);
      if (refused) return { ok: false, code: CLOSE_CODES.forbidden, reason: refused };
      const link = creds.link;
      if (link) {
        const seen = await viewerLinkFrames(services, tourId, link);
        if (!seen.ok) return { ok: false, code: CLOSE_CODES.forbidden, reason: 'This link is no longer available' };
        frames = seen.frames;
      }
    }
  } else if (signal.reason === 'expired') {
    return { ok: false, code: CLOSE_CODES.sessionExpired, reason: 'Session expired' };
  } else {
    // Not a signalling token: the host's own session token, checked against the tour's company below.
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
    role = LIVE_ROLES.host;
    userId = participantId.host(auth.userId);
  }

  const row = await services.db
    .selectFrom('viewing_sessions')
    .innerJoin('tours', 'tours.id', 'viewing_sessions.tour_id')
    .select(['viewing_sessions.expires_at', 'tours.deleted_at', 'tours.status'])
    .where('viewing_sessions.id', '=', sessionId)
    .where('viewing_sessions.tour_id', '=', tourId)
    .executeTakeFirst();
  if (!row || row.deleted_at || (role === LIVE_ROLES.viewer && row.status !== TOUR_STATUS.PROCESSED))
    return { ok: false, code: CLOSE_CODES.notFound, reason: 'No such viewing session' };
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= Date.now())
    return { ok: false, code: CLOSE_CODES.sessionExpired, reason: 'Session expired' };
  return { ok: true, tourId, sessionId, role, userId, expiresAt, frames };
}

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

export async function registerTourViewerWs(app: FastifyInstance, services: Services): Promise<void> {
  const iceServers = parseIceServers(services.config.ICE_SERVERS);
  const hub = new RoomHub(LIVE_LIMITS);
  const bus = await createRoomBus(services, (e) => hub.onRemote(e));
  hub.attach(bus);
  app.decorate('liveRooms', hub);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  const alive = new WeakMap<WebSocket, boolean>();

  const gateWaiters = createGateWaiters(services);

  wss.on('connection', (socket: WebSocket, req: IncomingMessage) => {
    alive.set(socket, true);
    socket.on('pong', () => alive.set(socket, true));
    socket.on('error', () => undefined);
    // A visitor waiting at a lead gate for the agent's approval (http/lead-gate-socket.ts).
    if (isGateWaiter(req)) return gateWaiters.serve(socket, req);
    let peer: (LocalPeer & { tourGlobalId: string }) | null = null;
    /** Set for a viewer whose audience link hides rooms: its scrolls are in the link's frames. */
    let frames: VisibleFrames | null = null;
    let closed = false;
    let expiry: NodeJS.Timeout | undefined;
    const early: Array<{ data: RawData; isBinary: boolean }> = [];
    let tokens: number = LIVE_LIMITS.burst;
    let refilledAt = Date.now();

    const close = (code: number, reason: string) => {
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)
        socket.close(code, reason);
    };
    const onMessage = (data: RawData, isBinary: boolean) => {
      if (!peer) return;
      const now = Date.now();
      tokens = Math.min(LIVE_LIMITS.burst, tokens + ((now - refilledAt) / 1000) * LIVE_LIMITS.perSecond);
      refilledAt = now;
      if (tokens < 1) return close(CLOSE_CODES.rateLimited, 'Rate limited');
      tokens -= 1;
      if (isBinary) return close(CLOSE_CODES.unsupportedData, 'Text messages only');
      const raw = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      if (raw.length > LIVE_LIMITS.signalMessageBytes) return close(CLOSE_CODES.tooBig, 'Message too big');
      const parsed = parseMessage(raw.toString('utf8'), peer);
      if (parsed.ok && parsed.scroll)
        return hub.relayScroll(
          peer,
          frames ? mapScrollText(parsed.text, (f) => viewerToTour(frames!, f)) : parsed.text,
        );
      if (parsed.ok)
        return hub.relay(peer, parsed.text, {
          ...(parsed.to ? { to: parsed.to } : {}),
          ...(parsed.only ? { only: parsed.only } : {}),
        });
      if (parsed.close) return close(parsed.close.code, parsed.close.reason);
      if (parsed.error)
        socket.send(JSON.stringify({ type: SOCKET_MESSAGES.error, code: 'BAD_MESSAGE', message: parsed.error }));
    };

    // Credentials come as the first message (an older client's `token=` in the URL is still taken; the URL is never
    // logged here, but a proxy in front would log it).
    const url = new URL(req.url ?? '/', 'http://local');
    let admitting = false;
    let helloTimer: NodeJS.Timeout | undefined;
    socket.on('message', (data, isBinary) => {
      if (peer) return onMessage(data, isBinary);
      if (!admitting) {
        clearTimeout(helloTimer);
        const creds = isBinary ? null : credentialsOf(data);
        if (!creds) return close(CLOSE_CODES.unauthorised, 'Unauthorised');
        return enter(creds);
      }
      if (early.push({ data, isBinary }) > LIVE_LIMITS.preAuthMessages) close(CLOSE_CODES.rateLimited, 'Rate limited');
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(expiry);
      clearTimeout(helloTimer);
      if (peer) hub.leave(peer);
    });

    const enter = (creds: Credentials) => {
      admitting = true;
      admit(services, req, creds)
        .then((a) => {
          if (closed) return;
          if (!a.ok) return close(a.code, a.reason);
          const tourGlobalId = encodeId('Tour', a.tourId);
          frames = a.frames ?? null;
          const seen = frames;
          peer = {
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
            close,
          };
          const joined = hub.join(peer);
          if (!joined.ok) {
            peer = null;
            return close(joined.code, joined.reason);
          }
          const present = joined.present;
          socket.send(
            JSON.stringify({
              type: SOCKET_MESSAGES.welcome,
              peerId: peer.peerId,
              role: a.role,
              userId: a.userId,
              tourId: tourGlobalId,
              session: a.sessionId,
              expireTime: a.expiresAt.toISOString(),
              iceServers,
              peers: present,
            }),
          );
          expiry = setTimeout(
            () => close(CLOSE_CODES.sessionExpired, 'Session expired'),
            Math.min(a.expiresAt.getTime() - Date.now(), 2 ** 31 - 1),
          );
          expiry.unref();
          for (const m of early.splice(0)) onMessage(m.data, m.isBinary);
        })
        .catch((err: unknown) => {
          services.log.error({ err }, 'live viewing socket: admission failed');
          close(1011, 'Server error');
        });
    };
    if (url.searchParams.has('token'))
      enter({
        token: url.searchParams.get('token'),
        access: url.searchParams.get('access'),
        link: url.searchParams.get('link'),
      });
    else {
      helloTimer = setTimeout(() => close(CLOSE_CODES.unauthorised, 'Unauthorised'), LIVE_LIMITS.helloMs);
      helloTimer.unref();
    }
  });

  const heartbeat = setInterval(() => {
    for (const socket of wss.clients) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }, LIVE_LIMITS.heartbeatMs);
  heartbeat.unref();

  // Swapped in when every plugin is loaded, so Mercurius's listener is among the ones we pass upgrades on to.
  const server = app.server;
  let others: Array<(req: IncomingMessage, socket: Duplex, head: Buffer) => void> = [];
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === TOUR_VIEWER_PATH) {
      socket.on('error', () => socket.destroy());
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      return;
    }
    for (const l of others) l.call(server, req, socket, head);
  };
  app.addHook('onReady', async () => {
    others = (server.listeners('upgrade') as typeof others).filter((l) => l !== onUpgrade);
    server.removeAllListeners('upgrade');
    server.on('upgrade', onUpgrade);
  });

  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    hub.closeAll(CLOSE_CODES.goingAway, 'Server shutting down');
    gateWaiters.close();
    server.off('upgrade', onUpgrade);
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await bus.close();
  });
}
