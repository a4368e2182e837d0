/**
 * Over WebSocket against the real app: one socket per participant (a
 * newer socket of the same token replaces the older with 4005), at most LIVE_LIMITS.maxPeersPerRoom sockets in a room
 * (4009 beyond), and the scrolls relayed into a room bounded per second (the excess coalesced, the latest position
 * wins).
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import {
  connect,
  createLead,
  firstN,
  participantToken,
  seedTour,
  wsUrl,
  type LiveClient,
} from './fixtures/live-helpers.js';
import { CLOSE_CODES, LIVE_LIMITS } from '../src/http/tour-viewer-ws.js';

const welcome = (c: LiveClient) => c.next((m) => m.type === 'roomwalk_welcome', 'welcome');
const scrolls = (c: LiveClient) => c.messages.filter((m) => m.type === 'roomwalk_scrolling');

describe('live viewing socket: amplification bounds', () => {
  let t: TestApp;
  let agent: SeededUser;
  let tour: { id: string; globalId: string };
  const open: LiveClient[] = [];
  const client = (q: Record<string, string>) => {
    const c = connect(wsUrl(t.url, q));
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp('pglite', { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    agent = await seedUser(t.app);
    tour = await seedTour(t.app, agent);
  });
  afterAll(async () => {
    for (const c of open) c.close();
    await t?.stop();
  });

  it("keeps one socket per token: 20 sockets of one viewer token leave 1 open, the others closed with 4005; what the room hears is one sender's", async () => {
    const lead = await createLead(t, tour.globalId);
    const host = client({ tourId: tour.globalId, session: lead.session, token: agent.token });
    await welcome(host);
    const n = 20;
    const sockets = Array.from({ length: n }, () => client({ tourId: tour.globalId, token: lead.token }));
    await Promise.all(sockets.map(welcome));
    const replaced = await firstN(
      sockets.map((s) => s.closed),
      n - 1,
      `${n - 1} replaced sockets closed`,
    );
    expect(replaced.map((r) => r.value)).toEqual(
      new Array(n - 1).fill({ code: CLOSE_CODES.replaced, reason: 'Replaced by a newer connection' }),
    );
    const survivors = sockets.filter((_, i) => !replaced.some((r) => r.index === i));
    expect(survivors).toHaveLength(1);
    const survivor = survivors[0]!;
    expect(t.app.app.liveRooms.size).toBe(2); // the host and one viewer socket

    // The attack's second half: every socket of the token scrolls 40 times. Only the open one is heard, once each.
    for (const s of sockets)
      if (s.ws.readyState === s.ws.OPEN)
        for (let i = 0; i < 40; i++)
          s.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: i } });
    await host.next((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex === 39, 'last scroll');
    const deliveries = [host, ...sockets].reduce((sum, c) => sum + scrolls(c).length, 0);
    console.log(
      `[live] ${n} sockets of one token × 40 scrolls: ${n - 1} replaced, ${deliveries} deliveries (all sockets open and relaying: ${n * 40 * n})`,
    );
    expect(deliveries).toBe(40);
    expect(scrolls(host).map((m) => m.data.frameIndex)).toEqual(Array.from({ length: 40 }, (_, i) => i));

    // The host saw each replaced socket leave, and the newest is the one left in its presence.
    const sw = await welcome(survivor);
    const left = new Set(host.messages.filter((m) => m.type === 'roomwalk_peer_left').map((m) => m.peer.peerId));
    expect(left.size).toBe(n - 1);
    expect(left.has(sw.peerId)).toBe(false);
  });

  it('refuses a socket beyond the room\'s cap with 4009 "This viewing session is full"; a participant\'s own reconnect still gets in', async () => {
    const lead = await createLead(t, tour.globalId);
    const host = client({ tourId: tour.globalId, session: lead.session, token: agent.token });
    await welcome(host);
    await welcome(client({ tourId: tour.globalId, token: lead.token }));
    for (let i = 2; i < LIVE_LIMITS.maxPeersPerRoom; i++)
      await welcome(
        client({
          tourId: tour.globalId,
          token: await participantToken(t.app, tour.id, lead.session, `viewer-cap-${i}`),
        }),
      );

    const extra = client({
      tourId: tour.globalId,
      token: await participantToken(t.app, tour.id, lead.session, 'viewer-one-too-many'),
    });
    expect(await extra.closed).toEqual({ code: CLOSE_CODES.roomFull, reason: 'This viewing session is full' });
    expect(extra.messages.filter((m) => m.type === 'roomwalk_welcome')).toEqual([]);
    expect(host.messages.filter((m) => m.type === 'roomwalk_peer_joined').length).toBe(LIVE_LIMITS.maxPeersPerRoom - 1);

    // The visitor reloading the page replaces their own socket: the room stays at its cap, nobody else is refused.
    const again = client({ tourId: tour.globalId, token: lead.token });
    await welcome(again);
    host.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: 5 } });
    expect((await again.next((m) => m.type === 'roomwalk_scrolling', 'scroll after reconnect')).data.frameIndex).toBe(
      5,
    );
  });

  it("bounds the scrolls relayed into a room per second: six people flooding within their own limits are coalesced, each one's latest position arrives", async () => {
    const lead = await createLead(t, tour.globalId);
    const people = [
      client({ tourId: tour.globalId, session: lead.session, token: agent.token }),
      client({ tourId: tour.globalId, token: lead.token }),
    ];
    for (let i = 2; i < LIVE_LIMITS.maxPeersPerRoom; i++)
      people.push(
        client({
          tourId: tour.globalId,
          token: await participantToken(t.app, tour.id, lead.session, `viewer-flood-${i}`),
        }),
      );
    const ids = (await Promise.all(people.map(welcome))).map((w) => w.peerId as string);
    // Everyone has heard of everyone before the flood.
    await Promise.all(
      people.map((p) =>
        p.next(
          () =>
            p.messages.filter((m) => m.type === 'roomwalk_peer_joined').length +
              p.messages.find((m) => m.type === 'roomwalk_welcome')!.peers.length >=
            people.length - 1,
          'full presence',
        ),
      ),
    );

    // Each sends 90 positions at once: under its own socket's burst (100), so none is closed for flooding.
    const perSender = 90;
    const last = (s: number) => s * 1000 + perSender - 1;
    const stats = { ...t.app.app.liveRooms.stats };
    const started = performance.now();
    people.forEach((p, s) => {
      for (let i = 0; i < perSender; i++)
        p.send({ type: 'roomwalk_scrolling', tourId: tour.globalId, data: { frameIndex: s * 1000 + i } });
    });
    await Promise.all(
      people.flatMap((p, r) =>
        people
          .map((_, s) =>
            s === r
              ? null
              : p.next(
                  (m) => m.type === 'roomwalk_scrolling' && m.from === ids[s] && m.data.frameIndex === last(s),
                  `sender ${s}'s latest at ${r}`,
                ),
          )
          .filter(Boolean),
      ),
    );
    const elapsedS = (performance.now() - started) / 1000;

    const deliveries = people.reduce((sum, p) => sum + scrolls(p).length, 0);
    // The room's bucket: its burst plus its rate over the time it took (measured around it, so only ever generous).
    const bound = LIVE_LIMITS.roomScrollBurst + LIVE_LIMITS.roomScrollPerSecond * elapsedS + 1;
    const unbounded = people.length * perSender * (people.length - 1);
    console.log(
      `[live] room fan-out: ${people.length} senders × ${perSender} scrolls in ${elapsedS.toFixed(2)} s → ${deliveries} deliveries (bound ${Math.floor(bound * (people.length - 1))}; unbounded ${unbounded})`,
    );
    expect(deliveries).toBeLessThanOrEqual(bound * (people.length - 1));
    const relayed = t.app.app.liveRooms.stats.scrollsRelayed - stats.scrollsRelayed;
    expect(relayed).toBeLessThanOrEqual(bound);
    expect(t.app.app.liveRooms.stats.scrollsCoalesced).toBeGreaterThan(stats.scrollsCoalesced);
    for (const [r, p] of people.entries()) {
      for (const [s, id] of ids.entries()) {
        if (s === r) continue;
        const got = scrolls(p)
          .filter((m) => m.from === id)
          .map((m) => m.data.frameIndex as number);
        // Some positions were skipped, never reordered; the latest always arrives.
        expect(
          got.every((f, i) => i === 0 || f > got[i - 1]!),
          `order ${s}→${r}`,
        ).toBe(true);
        expect(got.at(-1)).toBe(last(s));
      }
    }
    for (const p of people) expect(p.ws.readyState).toBe(p.ws.OPEN);
  });
});
