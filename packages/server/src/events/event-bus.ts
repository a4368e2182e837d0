/**
 * The one fan-out between processes: GraphQL subscription events and live rooms alike. Every publish travels as one
 * encoding ({ topic, payload } as JSON text, in chunks when longer than a NOTIFY payload may be) over PostgreSQL
 * NOTIFY on one channel (PGlite or PostgreSQL; the database's single LISTEN connection), or over Redis pub/sub when
 * REDIS_URL is set. Each process fans what it hears out to its local subscribers. Notifications the database raises
 * itself (triggers, e.g. publicTourChanged) arrive through LISTEN with either transport; `notices` says whether that
 * connection is up (db/notice-listener.ts brings it back).
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter, on } from 'node:events';
import { Redis } from 'ioredis';
import type { Db } from '../db/database.js';
import type { NoticeChannel } from '../db/notice-listener.js';

const CHANNEL = 'roomwalk_events';
const REDIS_CHANNEL = 'roomwalk:events';
/** NOTIFY payloads must stay under 8000 bytes: a longer message travels in chunks. */
export const MESSAGE_LIMIT = 7800;
const CHUNK_CHARS = 6000;
/** Chunks of a message still incomplete after this long are dropped. */
const PARTIAL_TTL_MS = 30_000;

export interface EventBus {
  /** Who hears a publish: 'pglite' this process only (the embedded database has one), else every node. */
  readonly kind: 'pglite' | 'postgres' | 'redis';
  /**
   * Whether this node hears the database's notices now (the LISTEN connection; the database's own notices, e.g.
   * publicTourChanged, arrive only that way). What is kept because notices invalidate it is dropped on every change and
   * not kept while down.
   */
  readonly notices: NoticeChannel;
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe<T>(topic: string, signal?: AbortSignal): AsyncIterable<T>;
  /** Calls `handler` for every event of `topic` as it arrives, in order; returns the unsubscribe function. */
  on<T>(topic: string, handler: (payload: T) => void): () => void;
  close(): Promise<void>;
}

export const topics = {
  tourProgress: (tourId: string) => `tourProgress:${tourId}`,
  reelProgress: (reelId: string) => `reelProgress:${reelId}`,
  aiMarkers: (tourId: string) => `aiMarkers:${tourId}`,
  leadCreated: (userId: string) => `leadCreated:${userId}`,
  /** Live viewing rooms' envelopes between API nodes (services/live/room-bus.ts). */
  liveRooms: () => 'liveRooms',
} as const;

interface Chunk {
  chunk: { id: string; i: number; of: number; d: string };
}

/** The wire texts of one event: the message itself, or its chunks when it is longer than MESSAGE_LIMIT bytes. */
function encodeEvent(topic: string, payload: unknown): string[] {
  const text = JSON.stringify({ topic, payload });
  if (Buffer.byteLength(text) <= MESSAGE_LIMIT) return [text];
  const b64 = Buffer.from(text, 'utf8').toString('base64');
  const id = randomUUID();
  const of = Math.ceil(b64.length / CHUNK_CHARS);
  return Array.from({ length: of }, (_, i) =>
    JSON.stringify({ chunk: { id, i, of, d: b64.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS) } } satisfies Chunk),
  );
}

/** Turns wire texts back into events (reassembling chunks); what is not ours or malformed is ignored. */
function createDecoder(deliver: (topic: string, payload: unknown) => void): (raw: string) => void {
  const partial = new Map<string, { parts: string[]; got: number; at: number }>();
  const accept = (text: string) => {
    const m = JSON.parse(text) as Partial<{ topic: string; payload: unknown } & Chunk> | null;
    if (!m || typeof m !== 'object') return;
    if (typeof m.topic === 'string') return deliver(m.topic, m.payload);
    const c = m.chunk;
    if (
      !c ||
      typeof c.id !== 'string' ||
      !Number.isInteger(c.i) ||
      !Number.isInteger(c.of) ||
      c.i < 0 ||
      c.i >= c.of ||
      c.of > 1000
    )
      return;
    const now = Date.now();
    for (const [k, v] of partial) if (now - v.at > PARTIAL_TTL_MS) partial.delete(k);
    const entry = partial.get(c.id) ?? { parts: new Array<string>(c.of).fill(''), got: 0, at: now };
    if (!entry.parts[c.i]) entry.got += 1;
    entry.parts[c.i] = String(c.d);
    partial.set(c.id, entry);
    if (entry.got < c.of) return;
    partial.delete(c.id);
    accept(Buffer.from(entry.parts.join(''), 'base64').toString('utf8'));
  };
  return (raw) => {
    try {
      accept(raw);
    } catch {
      // A malformed notification is not ours; ignore it.
    }
  };
}

export interface EventBusOptions {
  /** Redis pub/sub instead of NOTIFY for what this process publishes. */
  redisUrl?: string | undefined;
  /** Where transport failures are reported. */
  onError?: (err: unknown, what: string) => void;
}

export async function createEventBus(database: Db, opts: EventBusOptions = {}): Promise<EventBus> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const report = opts.onError ?? (() => undefined);
  const receive = createDecoder((topic, payload) => {
    try {
      local.emit(topic, payload);
    } catch (err) {
      report(err, `a subscriber of ${topic} failed`);
    }
  });
  const unlisten = await database.listen(CHANNEL, receive);

  let send: (text: string) => Promise<unknown> = (text) => database.notify(CHANNEL, text);
  let closeTransport: () => Promise<unknown> = async () => undefined;
  let kind: EventBus['kind'] = database.kind;
  if (opts.redisUrl) {
    const pub = new Redis(opts.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const sub = new Redis(opts.redisUrl, { lazyConnect: true });
    for (const c of [pub, sub]) c.on('error', (err) => report(err, 'Redis error'));
    await Promise.all([pub.connect(), sub.connect()]);
    sub.on('message', (channel: string, message: string) => {
      if (channel === REDIS_CHANNEL) receive(message);
    });
    await sub.subscribe(REDIS_CHANNEL);
    send = (text) => pub.publish(REDIS_CHANNEL, text);
    closeTransport = async () => {
      await sub.quit().catch(() => undefined);
      await pub.quit().catch(() => undefined);
    };
    kind = 'redis';
  }

  // NOTIFYs from a pool may commit out of order when sent concurrently; one queue per process keeps each
  // producer's events in the order it published them (progress never appears to go backwards).
  let tail: Promise<unknown> = Promise.resolve();
  return {
    kind,
    notices: database.notices,
    publish(topic, payload) {
      const texts = encodeEvent(topic, payload);
      const sent = tail.then(async () => {
        for (const text of texts) await send(text);
      });
      tail = sent.catch(() => undefined);
      return sent;
    },
    subscribe<T>(topic: string, signal?: AbortSignal): AsyncIterable<T> {
      return {
        async *[Symbol.asyncIterator]() {
          const ac = new AbortController();
          const onAbort = () => ac.abort();
          signal?.addEventListener('abort', onAbort, { once: true });
          try {
            for await (const [payload] of on(local, topic, { signal: ac.signal })) yield payload as T;
          } catch (err) {
            if ((err as { name?: string }).name !== 'AbortError') throw err;
          } finally {
            signal?.removeEventListener('abort', onAbort);
            ac.abort();
          }
        },
      };
    },
    on<T>(topic: string, handler: (payload: T) => void) {
      const listener = (payload: unknown) => handler(payload as T);
      local.on(topic, listener);
      return () => void local.off(topic, listener);
    },
    async close() {
      await tail;
      await unlisten();
      await closeTransport();
      local.removeAllListeners();
    },
  };
}
