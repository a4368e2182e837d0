/**
 * Visitors sharing one address: an open day on the venue's Wi-Fi, every buyer's browser with its own
 * visitor id, is counted visitor by visitor; the protections stay: one browser flooding beacons is stopped by its id
 * without stopping its neighbours, and an address inventing visitor ids opens at most RATE_LIMITS.visitOpen visits of
 * a tour in 10 minutes (docs/decisions.md, "New visits per address are limited"). Each case from its own loopback
 * address, so the cases share no counter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../src/auth/rate-limit.js';
import { flushViews } from '../src/services/view-counter.js';
import { insertTours } from './billing-helpers.js';
import { post } from './hostile/harness.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** Buyers at the open day: more than the old allowance of 10 new visits per address and tour. */
const BUYERS = 40;

describe('visits from one address', () => {
  let t: TestApp;
  let agent: SeededUser;
  const beacon = (from: string, body: Record<string, unknown>) =>
    post(`${t.url}/tour-visit`, JSON.stringify(body), { from, headers: { 'content-type': 'text/plain' } });
  const newTour = async () =>
    `tour_${(await insertTours(t.app, { companyId: agent.company.id, userId: agent.user.id }, 1, { views: () => 0 }))[0]!}`;
  const views = async (tourId: string) => {
    await flushViews(t.app.services);
    return (
      await t.app.services.db
        .selectFrom('tours')
        .select('views')
        .where('id', '=', tourId.slice(5))
        .executeTakeFirstOrThrow()
    ).views;
  };

  beforeAll(async () => {
    t = await startTestApp('pglite');
    agent = await seedUser(t.app, { plan: 'basic' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('an open day behind one address: every browser is counted, each with its load and hide beacons', async () => {
    const tourId = await newTour();
    const statuses: number[] = [];
    for (let i = 0; i < BUYERS; i++) {
      const visitorId = `open-day-buyer-${i}`;
      // The visit's first beacon, then the one on hide with the time and rooms.
      statuses.push((await beacon('127.0.0.4', { tourId, visitorId })).status);
      statuses.push((await beacon('127.0.0.4', { tourId, visitorId, secondsSpent: 5, roomsReached: 1 })).status);
    }
    expect(statuses).toEqual(Array(BUYERS * 2).fill(204));
    expect(await views(tourId)).toBe(BUYERS);
  });

  it('one browser flooding beacons is stopped by its visitor id; its neighbours behind the address go on', async () => {
    const tourId = await newTour();
    const flood: number[] = [];
    for (let i = 0; i <= RATE_LIMITS.tourVisitVisitor.points; i++)
      flood.push((await beacon('127.0.0.5', { tourId, visitorId: 'flooding-browser', secondsSpent: 1 })).status);
    expect(flood.slice(0, RATE_LIMITS.tourVisitVisitor.points)).toEqual(
      Array(RATE_LIMITS.tourVisitVisitor.points).fill(204),
    );
    const refused = await beacon('127.0.0.5', { tourId, visitorId: 'flooding-browser', secondsSpent: 1 });
    expect(refused.status).toBe(429);
    expect(refused.json?.code).toBe('RATE_LIMITED');
    expect((await beacon('127.0.0.5', { tourId, visitorId: 'quiet-neighbour' })).status).toBe(204);
    expect(await views(tourId)).toBe(2);
  });

  it('an address inventing visitor ids opens at most RATE_LIMITS.visitOpen visits of a tour; the rest change nothing', async () => {
    const tourId = await newTour();
    const open = RATE_LIMITS.visitOpen.points;
    const statuses: number[] = [];
    for (let i = 0; i < open + 15; i++)
      statuses.push((await beacon('127.0.0.6', { tourId, visitorId: `invented-${i}`, secondsSpent: 1 })).status);
    expect(statuses).toEqual([...Array(open).fill(204), ...Array(15).fill(429)]);
    expect(await views(tourId)).toBe(open);
    // Another tour is counted on its own.
    expect((await beacon('127.0.0.6', { tourId: await newTour(), visitorId: 'invented-0' })).status).toBe(204);
  });
});
