import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createEventBus, MESSAGE_LIMIT } from './event-bus.js';

const engines = [
  { name: 'pglite', url: undefined },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', url: process.env.TEST_DATABASE_URL }] : []),
];

/** The next `n` payloads of `topic` heard on `bus`. */
function hear<T>(bus: Awaited<ReturnType<typeof createEventBus>>, topic: string, n = 1): Promise<T[]> {
  const got: T[] = [];
  return new Promise((resolve) => {
    const off = bus.on<T>(topic, (p) => {
      got.push(p);
      if (got.length === n) {
        off();
        resolve(got);
      }
    });
  });
}

describe.each(engines)('event bus on $name', ({ url }) => {
  it('delivers events published without waiting in the order they were published', async () => {
    const db = await openDatabase({ dataDir: 'memory://', databaseUrl: url });
    const bus = await createEventBus(db);
    try {
      const topic = `order-test-${Math.random()}`;
      const received: number[] = [];
      const it = bus.subscribe<{ n: number }>(topic)[Symbol.asyncIterator]();
      const reading = (async () => {
        while (received.length < 50) received.push((await it.next()).value.n);
      })();
      // Fire-and-forget, as progress callbacks do.
      await Promise.all(Array.from({ length: 50 }, (_, n) => bus.publish(topic, { n })));
      await reading;
      await it.return?.();
      expect(received).toEqual(Array.from({ length: 50 }, (_, n) => n));
    } finally {
      await bus.close();
      await db.close();
    }
  });

  it('carries an event longer than one NOTIFY payload whole (in chunks), and what the database NOTIFYs itself', async () => {
    const db = await openDatabase({ dataDir: 'memory://', databaseUrl: url });
    const bus = await createEventBus(db);
    try {
      const topic = `big-${Math.random()}`;
      const big = { text: 'é'.repeat(MESSAGE_LIMIT * 2) };
      const heard = hear<typeof big>(bus, topic, 2);
      await bus.publish(topic, big);
      await bus.publish(topic, { text: 'small' });
      expect(await heard).toEqual([big, { text: 'small' }]);

      // A trigger's notification (migration 0085) is the same encoding.
      const fromDb = hear<string>(bus, 'publicTourChanged');
      await sql`SELECT pg_notify('roomwalk_events', json_build_object('topic', 'publicTourChanged', 'payload', '42')::text)`.execute(
        db.db,
      );
      expect(await fromDb).toEqual(['42']);
    } finally {
      await bus.close();
      await db.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('event bus between two processes of one PostgreSQL database', () => {
  const redisUrl = process.env.TEST_REDIS_URL;
  it.each([{ via: 'NOTIFY', redisUrl: undefined }, ...(redisUrl ? [{ via: 'Redis', redisUrl }] : [])])(
    "delivers one node's events, chunked ones included, to the other node over $via",
    async ({ redisUrl }) => {
      const [dbA, dbB] = await Promise.all(
        [0, 1].map(() => openDatabase({ dataDir: 'memory://', databaseUrl: process.env.TEST_DATABASE_URL })),
      );
      const [a, b] = await Promise.all([createEventBus(dbA!, { redisUrl }), createEventBus(dbB!, { redisUrl })]);
      try {
        expect(a.kind).toBe(redisUrl ? 'redis' : 'postgres');
        const topic = `nodes-${Math.random()}`;
        const heard = hear<{ i: number; pad: string }>(b, topic, 20);
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            a.publish(topic, { i, pad: i % 5 === 0 ? 'x'.repeat(MESSAGE_LIMIT * 3) : '' }),
          ),
        );
        const got = await heard;
        expect(got.map((p) => p.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
        expect(got[5]!.pad).toHaveLength(MESSAGE_LIMIT * 3);
      } finally {
        await Promise.all([a.close(), b.close()]);
        await Promise.all([dbA!.close(), dbB!.close()]);
      }
    },
  );
});
