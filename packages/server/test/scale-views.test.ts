/** Public tour views are counted in batches (one UPDATE per tour per interval): none lost, none doubled, reads never behind. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushViews } from '../src/services/view-counter.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { Q, seedProcessedTour } from './fixtures/tours.js';

describe.each(DB_KINDS)('batched view counts (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const stored = async (id: string) => t.app.services.db.selectFrom('tours').select(['views', 'deactivated_views']).where('id', '=', id).executeTakeFirstOrThrow();

  it('counts every concurrent public view once, answers with the running count, and writes them in one go', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const answers = await Promise.all(Array.from({ length: 60 }, () => t.gql(Q.tour, { id: tour.id })));
    expect(answers.every((a) => !a.errors)).toBe(true);
    expect(Math.max(...answers.map((a) => a.data.tour.views as number))).toBe(60);
    // The owner's own reads do not count, and see the views not yet written.
    expect((await t.gql(Q.tour, { id: tour.id }, owner.token)).data.tour.views).toBe(60);
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 60, deactivated_views: 0 });
    expect((await t.gql(Q.tour, { id: tour.id }, owner.token)).data.tour.views).toBe(60);
  });

  it('keeps views of a deactivated tour apart', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    await t.gql(Q.tour, { id: tour.id });
    await t.app.services.db.updateTable('tours').set({ deactivated_at: new Date() }).where('id', '=', tour.row.id).execute();
    await t.gql(Q.tour, { id: tour.id });
    expect((await t.gql(Q.tour, { id: tour.id })).data.tour).toMatchObject({ views: 1, deactivatedViews: 2 });
    await flushViews(t.app.services);
    expect(await stored(tour.row.id)).toEqual({ views: 1, deactivated_views: 2 });
  });
});
