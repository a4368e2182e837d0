/**
 * Fair scheduling across companies: one worker takes processing jobs one at a time; company A submits three
 * videos, then company B one. B's is not left behind all of A's: it is processed right after A's first (A's second
 * and third wait behind every company's first). Without fair priorities the order was arrival order (A, A, A, B).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOUR_STATUS } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { registerProcessing } from '../src/jobs/workers.js';
import { fakeMedia } from './fixtures/fake-media.js';
import { uploadAndSubmit, waitFor } from './fixtures/tours.js';

describe.each(DB_KINDS)('fair processing order across companies on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // API role: nothing runs until the test registers the one worker, after every video is queued.
    t = await startTestApp(kind, { ROLE: 'api' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("runs company B's first video before company A's second and third", async () => {
    const a = await seedUser(t.app, { plan: 'pro' });
    const b = await seedUser(t.app, { plan: 'pro' });
    const submit = async (token: string) =>
      (await uploadAndSubmit(t, token, Buffer.alloc(2048, 7))).tourId.replace(/^tour_/, '');
    const a1 = await submit(a.token);
    const a2 = await submit(a.token);
    const a3 = await submit(a.token);
    const b1 = await submit(b.token);

    await registerProcessing(t.app.services, fakeMedia({ clips: 1 }));
    const { db } = t.app.services;
    const ids = [a1, a2, a3, b1];
    await waitFor(
      async () => {
        const rows = await db.selectFrom('tours').select('status').where('id', 'in', ids).execute();
        return rows.every((r) => r.status === TOUR_STATUS.PROCESSED);
      },
      'all four processed',
      60_000,
    );
    const logs = await db
      .selectFrom('tour_logs')
      .select(['tour_id', 'id', 'created_at'])
      .where('tour_id', 'in', ids)
      .where('status', '=', TOUR_STATUS.PROCESSED)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const order = logs.map((l) => ({ [a1]: 'A1', [a2]: 'A2', [a3]: 'A3', [b1]: 'B1' })[l.tour_id]);
    expect(order).toEqual(['A1', 'B1', 'A2', 'A3']);
    // When each was queued (the processing speed metric reads it): its process-tour job, by the tour in its data.
    const queued = await t.app.services.queue.queuedAt('process-tour', 'tourId', b1);
    expect(queued).toBeInstanceOf(Date);
    expect(await t.app.services.queue.queuedAt('process-tour', 'tourId', 'no-such-tour')).toBeNull();
  });
});
