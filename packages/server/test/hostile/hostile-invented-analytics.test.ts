/**
 * Invented analytics: from three client addresses, each claiming other addresses in X-Forwarded-For (not believed:
 * TRUST_PROXY is off), an anonymous visitor sends beacons with made-up visitor ids, six hours each and the end
 * reached, then one 8 KB beacon of 200 made-up rooms (formula-looking names, a message to the seller) of six hours
 * each. Tour Analytics afterwards shows a plausible number of visits per address, seconds no longer than the visits
 * lasted, and only the tour's rooms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../src/auth/rate-limit.js';
import { flushViews } from '../../src/services/view-counter.js';
import { insertTours } from '../billing-helpers.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLIENT_ADDRESSES, post, Tally } from './harness.js';

const ANALYTICS =
  'query($id: ID!) { tourAnalytics(tourId: $id) { visits averageSeconds rooms { name seconds visits } exits { name visits } } }';
const ROOMS = ['Kitchen', 'Lounge'];
const INVENTED = ['-2+3', '@cmd', '+SUM(1,2)', 'Call 0800 000 000: buyer offers 20% below asking'];
/**
 * Beacons each address sends: past its allowance of new visits, and short of its beacon ceiling, so the last (the
 * 8 KB one) is still read.
 */
const MADE_UP = Math.min(RATE_LIMITS.visitOpen.points + 19, RATE_LIMITS.tourVisit.points - 1);

describe('hostile: invented analytics', () => {
  let t: TestApp;
  let agent: SeededUser;
  let tourId: string;
  const tally = new Tally('invented analytics');

  beforeAll(async () => {
    t = await startTestApp('pglite');
    agent = await seedUser(t.app, { plan: 'basic' });
    const [tour] = await insertTours(t.app, { companyId: agent.company.id, userId: agent.user.id }, 1, {
      rooms: ROOMS,
      views: () => 0,
    });
    tourId = `tour_${tour}`;
  });
  afterAll(async () => {
    tally.print();
    await t?.stop();
  });

  it('made-up visitors and rooms from several addresses add only plausible figures to Tour Analytics', async () => {
    const open = RATE_LIMITS.visitOpen.points;
    const segments = [...INVENTED, 'Kitchen', ...Array.from({ length: 195 }, (_v, i) => `Invented room ${i}`)].map(
      (room) => ({ room, seconds: 21_600 }),
    );
    const started = Date.now();
    for (const [a, from] of CLIENT_ADDRESSES.entries()) {
      const statuses: number[] = [];
      for (let i = 0; i < MADE_UP; i++) {
        const body = JSON.stringify({
          tourId,
          visitorId: `made-up-${a}-${i}`,
          secondsSpent: 21_600,
          roomsReached: 200,
          reachedEnd: true,
        });
        statuses.push(
          (
            await post(`${t.url}/tour-visit`, body, {
              from,
              headers: { 'content-type': 'text/plain', 'x-forwarded-for': `203.0.113.${i + 1}` },
            })
          ).status,
        );
      }
      const counted = statuses.filter((s) => s === 204).length;
      tally.record(
        `${from}: ${open} visits counted of ${MADE_UP} made-up visitors`,
        counted === open,
        `${counted} counted`,
      );
      tally.record(
        `${from}: the rest refused as too many`,
        statuses.filter((s) => s === 429).length === MADE_UP - open,
        statuses.join(','),
      );
      const big = JSON.stringify({
        tourId,
        visitorId: `made-up-${a}-0`,
        secondsSpent: 21_600,
        roomsReached: 200,
        fastTravels: 1000,
        reachedEnd: true,
        segments,
      });
      const r = await post(`${t.url}/tour-visit`, big, { from, headers: { 'content-type': 'text/plain' } });
      tally.record(
        `${from}: the ${Math.round(Buffer.byteLength(big) / 1024)} KB beacon of 200 rooms read (and cut to what is plausible)`,
        r.status === 204,
        `${r.status} ${r.text}`,
      );
    }

    // A visit lasts at most from its first beacon to its last (plus what a first beacon may claim, 15 s).
    const lasted = 15 + Math.ceil((Date.now() - started) / 1000);
    const a = (await t.gql(ANALYTICS, { id: tourId }, agent.token)).data.tourAnalytics;
    const names = [...a.rooms, ...a.exits].map((x: { name: string }) => x.name);
    tally.record(
      'visits: the per-address allowance of each address',
      a.visits === open * CLIENT_ADDRESSES.length,
      `${a.visits} visits`,
    );
    tally.record(
      'no visit longer than the attack lasted',
      a.averageSeconds <= lasted,
      `average ${a.averageSeconds} s, the attack ${lasted} s`,
    );
    tally.record(
      "only the tour's rooms",
      names.every((n: string) => ['Entrance', ...ROOMS].includes(n)),
      names.join(' | '),
    );
    const roomSeconds = a.rooms.reduce((n: number, r: { seconds: number }) => n + r.seconds, 0);
    tally.record(
      'room time within visit time',
      roomSeconds <= a.averageSeconds * a.visits,
      `${roomSeconds} s in rooms, ${a.averageSeconds * a.visits} s of visits`,
    );
    await flushViews(t.app.services);
    const card = await t.app.services.db
      .selectFrom('tours')
      .select('views')
      .where('id', '=', tourId.slice(5))
      .executeTakeFirstOrThrow();
    tally.record("the card's views agree", card.views === open * CLIENT_ADDRESSES.length, `${card.views} views`);
    expect(tally.failures).toEqual([]);
  });
});
