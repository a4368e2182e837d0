/**
 * A visitor waiting at a tour's lead gate, on the live viewing socket the player already speaks
 * (GET /ws/tour-viewer-events?tourId=&lead=, http/tour-viewer-ws.ts). The wait credential tourLeadCreate answered
 * (services/lead-gate/approval.ts) comes as the socket's first message, `{"type":"roomwalk_gate_wait","token":…}`, so
 * it is in no URL a log keeps (a `token=` in the URL is still taken, and redacted from the log). The socket is told
 * `roomwalk_gate_waiting`, and `roomwalk_gate_open` with the pass as soon as the agent approves — on any node: the
 * approval is an event of the process's event bus — or at once when the lead was approved before the socket came.
 * Before any pass goes out the lead's pass is asked for as it stands now (services/lead-gate/passes.ts: the tour's
 * access version it was approved at, the gate still there, not revoked): a lead whose pass has ended is told
 * `roomwalk_gate_ended` and the socket closes; the credential mints nothing.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import { GATE_SOCKET_MESSAGES, gateWaitSchema, parseSocketMessage } from '@roomwalk/shared/schemas/socket-messages';
import type { Services } from '../services/services.js';
import { LEAD_GATE_STATES } from '@roomwalk/shared';
import { LEAD_GATE_OPENED, type LeadGateOpened } from '../services/lead-gate/approval.js';
import { passForLead } from '../services/lead-gate/passes.js';
import { verifyGateWait } from '../services/tour-access/grants.js';

const GATE_MESSAGES = GATE_SOCKET_MESSAGES;
/** How long a waiter's socket may stay open without its credential. */
const CREDENTIAL_WAIT_MS = 10_000;
/** A first message larger than this is no credential. */
const CREDENTIAL_MAX_BYTES = 1024;

/** The wait credential in a socket's first message, or null. */
function credentialOf(data: WebSocket.RawData): string | null {
  const text = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
  if (text.length > CREDENTIAL_MAX_BYTES) return null;
  return parseSocketMessage(gateWaitSchema, text.toString('utf8'))?.token ?? null;
}

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

  /** Where the lead stands now: still waiting, or its pass as it stands (null: it has ended). */
  const standing = async (leadId: string): Promise<'waiting' | string | null> => {
    const lead = await services.db.selectFrom('tour_leads').select('gate').where('id', '=', leadId).executeTakeFirst();
    if (lead?.gate === LEAD_GATE_STATES.waiting) return 'waiting';
    return passForLead(services, leadId);
  };

  const admit = async (socket: WebSocket, tourId: string, leadId: string, token: unknown) => {
    if (!verifyGateWait(services, tourId, leadId, token))
      return socket.close(LIVE_CLOSE_CODES.unauthorised, 'Unauthorised');
    const now = await standing(leadId);
    if (socket.readyState !== WebSocket.OPEN) return;
    if (now === null) {
      send(socket, { type: GATE_MESSAGES.ended });
      return socket.close(LIVE_CLOSE_CODES.normal, 'The pass has ended');
    }
    let sockets = waiting.get(leadId);
    if (!sockets) {
      sockets = new Set();
      waiting.set(leadId, sockets);
    }
    const mine = sockets;
    mine.add(socket);
    // A waiter only listens: anything else it sends is ignored.
    socket.on('close', () => {
      mine.delete(socket);
      if (!mine.size && waiting.get(leadId) === mine) waiting.delete(leadId);
    });
    send(socket, { type: GATE_MESSAGES.waiting });
    // Approved before this socket came (or while it connected): the pass at once.
    if (now !== 'waiting') send(socket, { type: GATE_MESSAGES.open, access: now });
    else await open(leadId);
  };

  return {
    serve(socket, req) {
      const url = new URL(req.url ?? '/', 'http://local');
      const tourId = idOf(url.searchParams.get('tourId'), 'tour_');
      const leadId = idOf(url.searchParams.get('lead'), 'lead_');
      if (!tourId || !leadId) return socket.close(LIVE_CLOSE_CODES.badRequest, 'A valid tourId and lead are required');
      const failed = (err: unknown) => {
        services.log.error({ err }, 'lead gate: could not hand out a pass');
        socket.close(LIVE_CLOSE_CODES.goingAway, 'Try again');
      };
      if (url.searchParams.has('token')) {
        admit(socket, tourId, leadId, url.searchParams.get('token')).catch(failed);
        return;
      }
      const timer = setTimeout(() => socket.close(LIVE_CLOSE_CODES.unauthorised, 'Unauthorised'), CREDENTIAL_WAIT_MS);
      socket.once('close', () => clearTimeout(timer));
      socket.once('message', (data) => {
        clearTimeout(timer);
        admit(socket, tourId, leadId, credentialOf(data)).catch(failed);
      });
    },
    close() {
      off();
      for (const sockets of waiting.values())
        for (const s of sockets) s.close(LIVE_CLOSE_CODES.goingAway, 'Server shutting down');
      waiting.clear();
    },
  };
}
