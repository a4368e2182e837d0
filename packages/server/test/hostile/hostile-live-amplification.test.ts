/**
 * One visitor's signalling token opens 60 sockets in its viewing
 * session and each scrolls 40 times (before: 60 × 40 × 59 = 141,600 deliveries). Now a newer socket of a token
 * replaces the older (4005), so one socket is left and the room hears 40 scrolls; the server stays healthy meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { connect, createLead, firstN, seedTour, wsUrl, type LiveClient } from '../fixtures/live-helpers.js';
import { describeHealth, healthy, Tally, whileHealthy } from './harness.js';

const SOCKETS = 60;
const SCROLLS = 40;

describe('hostile: live socket amplification', () => {
  let t: TestApp;
  let agent: SeededUser;
  let tour: { id: string; globalId: string };
  const open: LiveClient[] = [];
  const tally = new Tally('live socket amplification');

  beforeAll(async () => {
    t = await startTestApp('pglite', { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    agent = await seedUser(t.app);
    tour = await seedTour(t.app, agent);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    tally.print();
    await t?.stop();
  });

  it(`${SOCKETS} sockets of one viewer token × ${SCROLLS} scrolls: one socket stays, the room hears ${SCROLLS} scrolls`, async () => {
    const lead = await createLead(t, tour.globalId);
    const host = connect(wsUrl(t.url, { tourId: tour.globalId, session: lead.session, token: agent.token }));
    open.push(host);
    await host.next((m) => m.type === 'roomwalk_welcome', 'host welcome');

    const { result, health } = await whileHealthy(t.url, async () => {
      const sockets = Array.from({ length: SOCKETS }, () =>
        connect(wsUrl(t.url, { tourId: tour.globalId, token: lead.token })),
      );
      open.push(...sockets);
      await Promise.all(sockets.map((s) => s.next((m) => m.type === 'roomwalk_welcome', 'welcome')));
      const closed = await firstN(
        sockets.map((s) => s.closed),
        SOCKETS - 1,
        'replaced sockets',
      );
      const left = sockets.filter((s) => s.ws.readyState === s.ws.OPEN);
      for (const s of left)
        for (let i = 0; i < SCROLLS; i++)
          s.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: i } });
      await host.next((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex === SCROLLS - 1, 'last scroll');
      const deliveries = [host, ...sockets].reduce(
        (n, c) => n + c.messages.filter((m) => m.type === 'roomwalk_scrolling').length,
        0,
      );
      return { closed, open: left.length, deliveries };
    });

    const allReplaced = result.closed.every(
      (c) => c.value.code === LIVE_CLOSE_CODES.replaced && c.value.reason === 'Replaced by a newer connection',
    );
    tally.record('older sockets of the token closed with 4005', allReplaced, JSON.stringify(result.closed.slice(0, 3)));
    tally.record('one socket of the token left open', result.open === 1, `${result.open} open`);
    tally.record(`deliveries bounded (${SCROLLS})`, result.deliveries === SCROLLS, `${result.deliveries} deliveries`);
    tally.record('healthy while it ran', healthy(health), describeHealth(health));
    console.log(
      `[hostile] amplification: ${SOCKETS} sockets → ${result.open} open, ${result.deliveries} deliveries (was ${SOCKETS * SCROLLS * (SOCKETS - 1)}); ${describeHealth(health)}`,
    );
    expect(tally.failures).toEqual([]);
  });
});
