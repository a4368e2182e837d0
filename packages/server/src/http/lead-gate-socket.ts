/**
 * A visitor waiting at a tour's lead gate, on the live viewing socket the player already speaks
 * (GET /ws/tour-viewer-events?tourId=&lead=&token=, http/tour-viewer-ws.ts): the token is the wait credential
 * tourLeadCreate answered (services/lead-gate/approval.ts). The socket is told `roomwalk_gate_waiting`, and
 * `roomwalk_gate_open` with the pass (an access grant naming the lead) as soon as the agent approves — on any node: the
 * approval is an event of the process's event bus — or at once when the lead was approved before the socket came.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { LEAD_GATE_OPENED, passForLead, type LeadGateOpened } from '../services/lead-gate/approval.js';
import { verifyGateWait } from '../services/tour-access/grants.js';

const GATE_MESSAGES = { waiting: 'roomwalk_gate_waiting', open: 'roomwalk_gate_open' } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const idOf = (raw: string | null, prefix: string) => {
  const id = raw?.startsWith(prefix) ? raw.slice(prefix.length) : (raw ?? '');
  return UUID.test(id) ? id.toLowerCase() : null;
};

/** Whether an upgrade is a gate waiter's (it names a lead) rather than a live viewing participant's. */
export const isGateWaiter = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://local').searchParams.has('lead');

export interface GateWaiters {
  serve(socket: WebSocket, req: IncomingMessage): void;
  close(): void;
}

export function createGateWaiters(services: Services): GateWaiters {
  /** This node's waiting sockets by lead id. */
  const waiting = new Map<string, Set<WebSocket>>();
  const send = (socket: WebSocket, m: unknown) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m));
  };
  const open = async (leadId: string) => {
    const sockets = waiting.get(leadId);
    if (!sockets?.size) return;
    const pass = await passForLead(services, leadId);
    if (!pass) return;
    for (const s of sockets) send(s, { type: GATE_MESSAGES.open, access: pass });
  };
  const off = services.events.on<LeadGateOpened>(LEAD_GATE_OPENED, (e) => {
    if (e && typeof e.leadId === 'string')
      open(e.leadId).catch((err: unknown) => services.log.error({ err }, 'lead gate: could not hand out a pass'));
  });

  return {
    serve(socket, req) {
      const url = new URL(req.url ?? '/', 'http://local');
      const tourId = idOf(url.searchParams.get('tourId'), 'tour_');
      const leadId = idOf(url.searchParams.get('lead'), 'lead_');
      if (!tourId || !leadId) return socket.close(LIVE_CLOSE_CODES.badRequest, 'A valid tourId and lead are required');
      if (!verifyGateWait(services, tourId, leadId, url.searchParams.get('token')))
        return socket.close(LIVE_CLOSE_CODES.unauthorised, 'Unauthorised');
      let sockets = waiting.get(leadId);
      if (!sockets) {
        sockets = new Set();
        waiting.set(leadId, sockets);
      }
      sockets.add(socket);
      // A waiter only listens: anything it sends is ignored.
      socket.on('close', () => {
        sockets.delete(socket);
        if (!sockets.size && waiting.get(leadId) === sockets) waiting.delete(leadId);
      });
      send(socket, { type: GATE_MESSAGES.waiting });
      // Approved before this socket came (or while it connected): the pass at once.
      open(leadId).catch((err: unknown) => services.log.error({ err }, 'lead gate: could not hand out a pass'));
    },
    close() {
      off();
      for (const sockets of waiting.values())
        for (const s of sockets) s.close(LIVE_CLOSE_CODES.goingAway, 'Server shutting down');
      waiting.clear();
    },
  };
}
