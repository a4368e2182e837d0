/**
 * Fan-out of live rooms between API nodes, over the process's one event bus (events/event-bus.ts: PostgreSQL NOTIFY,
 * or Redis pub/sub with REDIS_URL). A node delivers to its own sockets directly and publishes an envelope that every
 * other node delivers to its sockets in the same room. With embedded PGlite there is one process, so nobody to tell.
 */
import { randomUUID } from 'node:crypto';
import { MESSAGE_LIMIT, topics } from '../../events/event-bus.js';
import type { Services } from '../services.js';
import type { LiveRole } from './signaling-token.js';

export interface PeerInfo {
  peerId: string;
  role: LiveRole;
  userId: string;
}

/** One event of a room. `t` is the text to hand to sockets as is; `only` limits delivery to one role. */
export interface Envelope {
  /** Room key. */
  r: string;
  k: 'join' | 'leave' | 'hello' | 'msg';
  p?: PeerInfo;
  /** A directed envelope goes to this peer only. */
  to?: string;
  /** Sender's peer id (never delivered back to it). */
  f?: string;
  only?: LiveRole;
  t?: string;
  /**
   * For join and hello: when `p` joined (ms since the epoch), so every node keeps the newer of one participant's
   * sockets.
   */
  at?: number;
}

export interface RoomBus {
  readonly kind: 'none' | 'postgres' | 'redis';
  readonly nodeId: string;
  publish(e: Envelope): void;
  close(): Promise<void>;
}

/** What one event carries: the sending node and envelopes queued while its previous event was on the way. */
interface Batch {
  n: string;
  e: Envelope[];
}

type OnEnvelope = (e: Envelope) => void;

export async function createRoomBus(services: Services, onEnvelope: OnEnvelope): Promise<RoomBus> {
  const nodeId = randomUUID();
  const { events, log } = services;
  if (events.kind === 'pglite') return { kind: 'none', nodeId, publish: () => undefined, close: async () => undefined };
  const topic = topics.liveRooms();
  const off = events.on<Batch>(topic, (w) => {
    if (!w || w.n === nodeId || !Array.isArray(w.e)) return;
    try {
      for (const e of w.e) onEnvelope(e);
    } catch (err) {
      log.warn({ err }, 'live rooms: bad envelope from another node');
    }
  });

  const queue: Array<{ e: Envelope; bytes: number }> = [];
  let flushing: Promise<void> | null = null;
  let closed = false;
  // The bus's own wrapping ({"topic":…,"payload":…}) and this batch's head, so a batch fits one NOTIFY.
  const overhead = JSON.stringify({ topic, payload: { n: nodeId, e: [] } }).length;

  // One event at a time keeps this node's envelopes in order; whatever queues up meanwhile goes out together in the
  // next event, as many as fit one NOTIFY (a single larger envelope travels in the bus's chunks).
  async function flush(): Promise<void> {
    while (queue.length > 0 && !closed) {
      const first = queue.shift()!;
      const e = [first.e];
      let size = overhead + first.bytes;
      while (queue.length > 0 && size + queue[0]!.bytes + 1 <= MESSAGE_LIMIT) {
        size += queue[0]!.bytes + 1;
        e.push(queue.shift()!.e);
      }
      await events
        .publish(topic, { n: nodeId, e } satisfies Batch)
        .catch((err: unknown) => log.error({ err }, 'live rooms: publish failed'));
    }
  }

  return {
    kind: events.kind,
    nodeId,
    publish(e: Envelope) {
      if (closed) return;
      queue.push({ e, bytes: Buffer.byteLength(JSON.stringify(e)) });
      flushing ??= flush().finally(() => {
        flushing = null;
      });
    },
    async close() {
      await flushing;
      closed = true;
      off();
    },
  };
}
