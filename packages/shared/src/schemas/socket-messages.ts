/**
 * The messages of the socket at /ws/tour-viewer-events (docs/live-viewing.md), both of its uses: live viewing (scroll
 * sync and the call's signalling) and a visitor waiting at a lead gate. The wire names are written here only (a test,
 * socket-messages.test.ts, finds none as a string literal elsewhere); the server parses what clients send with the
 * client schemas, the player parses what the server sends with the server schemas, and a message that does not parse
 * is dropped (the server answers a client's with its error message).
 */
import { z } from '../zod.js';
import { MESSAGE_TYPES, WIRE_PREFIX } from '../constants.js';

/** Live viewing: scroll sync, the call's signalling, and the room's own notices. */
export const LIVE_SOCKET_MESSAGES = {
  /** A participant's credentials, its first message (never in the socket's URL, which proxies log). */
  hello: `${WIRE_PREFIX}_live_hello`,
  scrolling: MESSAGE_TYPES.scrolling,
  signal: `${WIRE_PREFIX}_signal`,
  welcome: `${WIRE_PREFIX}_welcome`,
  peerJoined: `${WIRE_PREFIX}_peer_joined`,
  peerLeft: `${WIRE_PREFIX}_peer_left`,
  error: `${WIRE_PREFIX}_error`,
} as const;

/** The lead gate: the waiter's credential (its first message), then the server's answers. */
export const GATE_SOCKET_MESSAGES = {
  wait: `${WIRE_PREFIX}_gate_wait`,
  waiting: `${WIRE_PREFIX}_gate_waiting`,
  open: `${WIRE_PREFIX}_gate_open`,
  ended: `${WIRE_PREFIX}_gate_ended`,
} as const;

/** A scroll position past this is no tour's. */
export const MAX_FRAME_INDEX = 10_000_000;

export const SIGNAL_KINDS = ['ready', 'offer', 'answer', 'ice', 'bye'] as const;

const FRAME_INDEX_TEXT = 'frameIndex must be a finite number';

/** The signal's payload: its kind is checked; the rest is the two peers' own (SDP, ICE) and is relayed as sent. */
const signalDataSchema = z.looseObject({ kind: z.enum(SIGNAL_KINDS, { message: 'Unknown signal' }) });

/** A client's scroll (the server sets `tourId` and `from` on the copy it relays). */
export const clientScrollingSchema = z.object({
  type: z.literal(LIVE_SOCKET_MESSAGES.scrolling),
  data: z.object(
    {
      frameIndex: z
        .number({ message: FRAME_INDEX_TEXT })
        .min(0, FRAME_INDEX_TEXT)
        .max(MAX_FRAME_INDEX, FRAME_INDEX_TEXT),
    },
    { message: FRAME_INDEX_TEXT },
  ),
  tourId: z.string({ message: 'Wrong tourId for this room' }).optional(),
});

/** A client's signal, to one peer (`to`) or to every peer of the other role. */
export const clientSignalSchema = z.object({
  type: z.literal(LIVE_SOCKET_MESSAGES.signal),
  data: signalDataSchema,
  to: z.string().optional().catch(undefined),
});

/**
 * A live participant's first message: its signalling or session token, and for a visitor the tour's access (grant and
 * pass, as the tour query sends them) and an audience link's token.
 */
export const liveHelloSchema = z.object({
  type: z.literal(LIVE_SOCKET_MESSAGES.hello),
  token: z.string().min(1).max(4096),
  access: z.string().max(4096).optional(),
  link: z.string().max(512).optional(),
});

/** The waiter's first message: the wait credential tourLeadCreate answered. */
export const gateWaitSchema = z.object({ type: z.literal(GATE_SOCKET_MESSAGES.wait), token: z.string() });

const roleSchema = z.enum(['host', 'viewer']);
const peerSchema = z.object({ peerId: z.string(), role: roleSchema, userId: z.string() });

const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});

/** Everything the server sends a live viewing participant. */
export const liveServerMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal(LIVE_SOCKET_MESSAGES.welcome),
    peerId: z.string(),
    role: roleSchema,
    userId: z.string(),
    tourId: z.string(),
    session: z.string(),
    expireTime: z.string(),
    iceServers: z.array(iceServerSchema),
    peers: z.array(peerSchema),
  }),
  z.object({
    type: z.literal(LIVE_SOCKET_MESSAGES.scrolling),
    tourId: z.string(),
    data: z.object({ frameIndex: z.number() }),
    from: z.string().optional(),
  }),
  z.object({
    type: z.literal(LIVE_SOCKET_MESSAGES.signal),
    from: z.string(),
    fromRole: roleSchema,
    fromUser: z.string(),
    data: signalDataSchema,
  }),
  z.object({ type: z.literal(LIVE_SOCKET_MESSAGES.peerJoined), peer: peerSchema }),
  z.object({ type: z.literal(LIVE_SOCKET_MESSAGES.peerLeft), peer: peerSchema }),
  z.object({ type: z.literal(LIVE_SOCKET_MESSAGES.error), code: z.string(), message: z.string() }),
]);

/** Everything the server sends a visitor waiting at a lead gate. */
export const gateServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal(GATE_SOCKET_MESSAGES.waiting) }),
  z.object({ type: z.literal(GATE_SOCKET_MESSAGES.open), access: z.string() }),
  z.object({ type: z.literal(GATE_SOCKET_MESSAGES.ended) }),
]);

/** A socket message's text parsed with a schema, or null (not JSON, or not that message). */
export function parseSocketMessage<T>(schema: z.ZodType<T>, text: string): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const r = schema.safeParse(raw);
  return r.success ? r.data : null;
}
