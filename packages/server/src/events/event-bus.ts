/**
 * Events for GraphQL subscriptions. Every publish goes through PostgreSQL NOTIFY (PGlite or PostgreSQL), so a
 * subscriber on any API node receives it; each node fans the payload out to its local subscribers.
 */
import { EventEmitter, on } from 'node:events';
import type { Db } from '../db/database.js';

const CHANNEL = 'roomwalk_events';
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7900;

export interface EventBus {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe<T>(topic: string, signal?: AbortSignal): AsyncIterable<T>;
  close(): Promise<void>;
}

export const topics = {
  tourProgress: (tourId: string) => `tourProgress:${tourId}`,
  reelProgress: (reelId: string) => `reelProgress:${reelId}`,
  aiMarkers: (tourId: string) => `aiMarkers:${tourId}`,
  leadCreated: (userId: string) => `leadCreated:${userId}`,
} as const;

export async function createEventBus(database: Db): Promise<EventBus> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const unlisten = await database.listen(CHANNEL, (raw) => {
    try {
      const { topic, payload } = JSON.parse(raw) as { topic: string; payload: unknown };
      local.emit(topic, payload);
    } catch {
      // A malformed notification is not ours; ignore it.
    }
  });
  // NOTIFYs from a pool may commit out of order when sent concurrently; one queue per process keeps each
  // producer's events in the order it published them (progress never appears to go backwards).
  let tail: Promise<unknown> = Promise.resolve();
  return {
    publish(topic, payload) {
      const text = JSON.stringify({ topic, payload });
      if (Buffer.byteLength(text) > MAX_PAYLOAD) return Promise.reject(new Error(`Event too large for ${topic}`));
      const sent = tail.then(() => database.notify(CHANNEL, text));
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
    async close() {
      await unlisten();
      local.removeAllListeners();
    },
  };
}
