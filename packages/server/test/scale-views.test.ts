/**
 * A view is a visit: the player's beacon, counted once per visitor per tour per 30 minutes, written
 * in batches (one UPDATE per tour per interval): none lost, none doubled, reads never behind. Answers of the public
 * `tour` query count nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushViews } from '../src/services/view-counter.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { Q, seedProcessedTour } from './fixtures/tours.js';

describe.each(DB_KINDS)('views are visits (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const stored = async (id: string) =>
    t.app.services.db
      .selectFrom('tours')
      .select(['views', 'deactivated_views'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  /** The player's beacon as navigator.sendBeacon sends it: a text/plain JSON body. */
  const beacon = (tourId: string, visitorId: string) =>
    fetch(`${t.url}/tour-visit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ tourId, visitorId, secondsSpent: 0, roomsReached: 0 }),
    });

  it('counts no view for answers of the public tour query (50 anonymous queries, 0 views)', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    for (let i = 0; i < 50; i++) expect((await t.gql(Q.tour, { id: tour.id })).errors).toBeUndefined();
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 0, deactivated_views: 0 });
    expect((await t.gql(Q.tour, { id: tour.id })).data.tour.views).toBe(0);
  });

  it('counts each of 60 concurrent visitors once, answers with the running count, and writes them in one go', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => beacon(tour.id, `visitor-${String(i).padStart(4, '0')}`)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(60).fill(204));
    // Not yet written: this node's reads already include them.
    expect((await t.gql(Q.tour, { id: tour.id })).data.tour.views).toBe(60);
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 60, deactivated_views: 0 });
    expect((await t.gql(Q.tour, { id: tour.id }, owner.token)).data.tour.views).toBe(60);
  });

  it('counts one visitor once per 30 minutes, even for beacons sent at the same moment', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const answers = await Promise.all(Array.from({ length: 10 }, () => beacon(tour.id, 'same-visitor-1')));
    expect(answers.every((a) => a.status === 204)).toBe(true);
    await beacon(tour.id, 'same-visitor-1');
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 1, deactivated_views: 0 });
  });

  it('keeps visits of a deactivated tour apart', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    await beacon(tour.id, 'visitor-before');
    await t.app.services.db
      .updateTable('tours')
      .set({ deactivated_at: new Date() })
      .where('id', '=', tour.row.id)
      .execute();
    await beacon(tour.id, 'visitor-after-1');
    await beacon(tour.id, 'visitor-after-2');
    expect((await t.gql(Q.tour, { id: tour.id })).data.tour).toMatchObject({ views: 1, deactivatedViews: 2 });
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 1, deactivated_views: 2 });
  });
});
