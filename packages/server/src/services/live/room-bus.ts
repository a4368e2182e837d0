/**
 * Fan-out of live rooms between API nodes. A node delivers to its own sockets directly and publishes an envelope that
 * every other node delivers to its sockets in the same room. Engines: PostgreSQL LISTEN/NOTIFY (the default with
 * DATABASE_URL), Redis pub/sub (REDIS_URL), or none (embedded PGlite is one process, so there is nobody to tell).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
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
  /** For join and hello: when `p` joined (ms since the epoch), so every node keeps the newer of one participant's sockets. */
  at?: number;
}

export interface RoomBus {
  readonly kind: 'none' | 'postgres' | 'redis';
  readonly nodeId: string;
  publish(e: Envelope): void;
  close(): Promise<void>;
}

export const LIVE_CHANNEL = 'roomwalk_live';
/** NOTIFY payloads must stay under 8000 bytes; batches and chunks stay under this. */
const NOTIFY_LIMIT = 7800;
const CHUNK_CHARS = 6000;

type OnEnvelope = (e: Envelope) => void;

export async function createRoomBus(services: Services, onEnvelope: OnEnvelope): Promise<RoomBus> {
  const nodeId = randomUUID();
  if (services.config.REDIS_URL) return createRedisBus(services, nodeId, onEnvelope);
  if (services.database.kind === 'postgres') return createPostgresBus(services, nodeId, onEnvelope);
  return { kind: 'none', nodeId, publish: () => undefined, close: async () => undefined };
}

interface Wire {
  n: string;
  e?: Envelope[];
  c?: { id: string; i: number; of: number; d: string };
}

/** Reassembles chunked envelopes; partial ones older than 30 s are dropped. */
function createReceiver(nodeId: string, onEnvelope: OnEnvelope, log: Services['log']) {
  const partial = new Map<string, { parts: string[]; got: number; at: number }>();
  return (raw: string) => {
    let w: Wire;
    try {
      w = JSON.parse(raw) as Wire;
    } catch {
      return;
    }
    if (!w || w.n === nodeId) return;
    try {
      if (Array.isArray(w.e)) for (const e of w.e) onEnvelope(e);
      else if (w.c) {
        const key = `${w.n}:${w.c.id}`;
        const now = Date.now();
        for (const [k, v] of partial) if (now - v.at > 30_000) partial.delete(k);
        const entry = partial.get(key) ?? { parts: new Array<string>(w.c.of).fill(''), got: 0, at: now };
        if (!entry.parts[w.c.i]) entry.got += 1;
        entry.parts[w.c.i] = w.c.d;
        partial.set(key, entry);
        if (entry.got === w.c.of) {
          partial.delete(key);
          onEnvelope(JSON.parse(Buffer.from(entry.parts.join(''), 'base64').toString('utf8')) as Envelope);
        }
      }
    } catch (err) {
      log.warn({ err }, 'live rooms: bad envelope from another node');
    }
  };
}

function createPostgresBus(services: Services, nodeId: string, onEnvelope: OnEnvelope): Promise<RoomBus> {
  const receive = createReceiver(nodeId, onEnvelope, services.log);
  const queue: string[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;
  const head = `{"n":${JSON.stringify(nodeId)},"e":[`;

  // One NOTIFY at a time keeps this node's envelopes in order (the pool would reorder concurrent ones);
  // whatever queues up meanwhile goes out together in the next payload.
  async function flush(): Promise<void> {
    while (queue.length > 0 && !closed) {
      const first = queue.shift()!;
      const payloads: string[] = [];
      if (Buffer.byteLength(first) + head.length + 2 > NOTIFY_LIMIT) {
        const b64 = Buffer.from(first, 'utf8').toString('base64');
        const id = randomUUID();
        const of = Math.ceil(b64.length / CHUNK_CHARS);
        for (let i = 0; i < of; i++) payloads.push(JSON.stringify({ n: nodeId, c: { id, i, of, d: b64.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS) } }));
      } else {
        const batch = [first];
        let size = head.length + 2 + Buffer.byteLength(first);
        while (queue.length > 0) {
          const next = Buffer.byteLength(queue[0]!) + 1;
          if (size + next > NOTIFY_LIMIT) break;
          size += next;
          batch.push(queue.shift()!);
        }
        payloads.push(`${head}${batch.join(',')}]}`);
      }
      for (const p of payloads) {
        await services.database.notify(LIVE_CHANNEL, p).catch((err: unknown) => services.log.error({ err }, 'live rooms: NOTIFY failed'));
      }
    }
  }

  return services.database.listen(LIVE_CHANNEL, receive).then((unlisten) => ({
    kind: 'postgres' as const,
    nodeId,
    publish(e: Envelope) {
      if (closed) return;
      queue.push(JSON.stringify(e));
      flushing ??= flush().finally(() => {
        flushing = null;
      });
    },
    async close() {
      await flushing;
      closed = true;
      await unlisten();
    },
  }));
}

async function createRedisBus(services: Services, nodeId: string, onEnvelope: OnEnvelope): Promise<RoomBus> {
  const url = services.config.REDIS_URL!;
  const channel = 'roomwalk:live';
  const pub = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { lazyConnect: true });
  for (const c of [pub, sub]) c.on('error', (err) => services.log.error({ err }, 'live rooms: Redis error'));
  await Promise.all([pub.connect(), sub.connect()]);
  const receive = createReceiver(nodeId, onEnvelope, services.log);
  sub.on('message', (ch: string, message: string) => {
    if (ch === channel) receive(message);
  });
  await sub.subscribe(channel);
  return {
    kind: 'redis',
    nodeId,
    publish(e) {
      // One connection keeps this node's envelopes in order; Redis has no payload limit worth chunking for.
      pub.publish(channel, JSON.stringify({ n: nodeId, e: [e] })).catch((err: unknown) => services.log.error({ err }, 'live rooms: PUBLISH failed'));
    },
    async close() {
      await sub.quit().catch(() => undefined);
      await pub.quit().catch(() => undefined);
    },
  };
}
