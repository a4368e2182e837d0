import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database.js';
import { createEventBus } from './event-bus.js';

const engines = [{ name: 'pglite', url: undefined }, ...(process.env.TEST_DATABASE_URL ? [{ name: 'postgres', url: process.env.TEST_DATABASE_URL }] : [])];

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
});
