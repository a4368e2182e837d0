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
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { parseIceServers } from '../services/live/ice-servers.js';
import { createRoomBus } from '../services/live/room-bus.js';
import { RoomHub } from '../services/live/room-hub.js';
import { createGateWaiters, isGateWaiter } from './lead-gate-socket.js';
import { LiveConnection } from './live-connection.js';
import { LIVE_LIMITS } from './live-limits.js';

export const TOUR_VIEWER_PATH = '/ws/tour-viewer-events';

/** Close codes of the socket (shared contract); the player maps them to the spec's connection texts. */
export const CLOSE_CODES = LIVE_CLOSE_CODES;

/** The socket's limits (http/live-limits.ts), here for the tests and benches that drive the socket. */
export { LIVE_LIMITS };

/** The rooms of this node; tests reach it as `app.liveRooms`. */
declare module 'fastify' {
  interface FastifyInstance {
    liveRooms: RoomHub;
  }
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
    new LiveConnection(services, hub, iceServers, socket, req);
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
