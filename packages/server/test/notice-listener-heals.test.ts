/**
 * An API node whose PostgreSQL LISTEN connection drops (pg_terminate_backend: what a database restart, a failover or a
 * proxy's idle cut does) stops answering from its memory at once, says it is not ready (/readyz, the metric) until it
 * listens again, and heals by itself: two API nodes on one PostgreSQL database, a public tour made company-only on the
 * other node. Node A's LISTEN connection goes through a TCP gate the test can close, so "until it listens again" lasts
 * as long as the test needs (NOTICE_DATABASE_URL; the rest of A's connections go straight to the database).
 * PostgreSQL only (TEST_DATABASE_URL): the embedded database's notices never leave the process.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { NOTICE_APPLICATION_NAME } from '../src/db/notice-listener.js';
import { PUBLIC_TOUR_CHANGED_TOPIC, publicTourCacheOf, publicTourRefusalsOf } from '../src/http/public-tour-cache.js';
import { accessIndexOf } from '../src/services/tour-access/access-index.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { startTcpGate, type TcpGate } from './support/tcp-gate.js';

const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const METRICS_TOKEN = randomBytes(16).toString('hex');

interface Answer {
  title: string | null;
  code: string | null;
  clip: string | null;
}

/** The next time `up` becomes `want` on the node, and when. */
function nextChange(app: App, want: boolean): Promise<number> {
  return new Promise((resolve) => {
    const off = app.services.events.notices.onChange((up) => {
      if (up !== want) return;
      off();
      resolve(performance.now());
    });
  });
}

/** Resolves once the node has heard the database's change notice for the tour. */
function changeNoticed(app: App, tourId: string): Promise<void> {
  const stop = new AbortController();
  const it = app.services.events.subscribe<unknown>(PUBLIC_TOUR_CHANGED_TOPIC, stop.signal)[Symbol.asyncIterator]();
  return (async () => {
    for (;;) {
      const r = await it.next();
      if (r.done || (typeof r.value === 'string' && tourId.endsWith(r.value))) break;
    }
    stop.abort();
  })();
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('an API node that loses its database notices', () => {
  let b: TestApp;
  let a: App;
  let aUrl = '';
  let gate: TcpGate;
  let owner: SeededUser;
  let tourId = '';
  let databaseName = '';
  const figures: string[] = [];

  const ask = async (base: string): Promise<Answer> => {
    const r = await fetch(
      `${base}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
    );
    const j = (await r.json()) as {
      data?: { tour?: { title: string; clips: Array<{ highURI: string }> } | null };
      errors?: Array<{ extensions?: { code?: string } }>;
    };
    return {
      title: j.data?.tour?.title ?? null,
      code: j.errors?.[0]?.extensions?.code ?? null,
      clip: j.data?.tour?.clips[0] ? `${base}${new URL(j.data.tour.clips[0].highURI).pathname}` : null,
    };
  };
  const setAccess = async (access: 'PUBLIC' | 'COMPANY') =>
    expect((await b.gql(SET_ACCESS, { input: { id: tourId, access } }, owner.token)).errors).toBeUndefined();
  const ready = async () => {
    const r = await fetch(`${aUrl}/readyz`);
    return { status: r.status, body: (await r.json()) as { ok?: boolean; message?: string } };
  };
  const metric = async (name: string) => {
    const text = await (
      await fetch(`${aUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    return line ? Number(line.split(' ')[1]) : null;
  };
  /** Ends node A's LISTEN backend (found by the gate's upstream port) the way an operator or a failover would. */
  const killListener = async () => {
    const ports = gate.upstreamPorts();
    const killed = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity
       WHERE datname = ${databaseName} AND application_name = ${NOTICE_APPLICATION_NAME}
         AND client_port = ANY(${ports}::int[]) AND pg_terminate_backend(pid)`.execute(b.app.services.db);
    expect(killed.rows).toHaveLength(1);
    return performance.now();
  };

  /** An API node on B's database whose LISTEN connection goes through `through`. */
  const startNode = async (through: TcpGate, settings: Record<string, unknown>) => {
    const noticeUrl = new URL(b.app.config.DATABASE_URL!);
    noticeUrl.host = through.hostPort;
    const config = loadConfig({ NODE_ENV: 'test' }, {
      PORT: 0,
      HOST: '127.0.0.1',
      DATA_DIR: b.dataDir,
      LOG_LEVEL: 'silent',
      JWT_SECRET: b.app.config.jwtSecret,
      DATABASE_URL: b.app.config.DATABASE_URL!,
      NOTICE_DATABASE_URL: noticeUrl.toString(),
      NOTICE_RECONNECT_MAX_SECONDS: 0.5,
      METRICS_TOKEN,
      ROLE: 'api',
      ...settings,
    } as never);
    config.jwtSecret = b.app.config.jwtSecret;
    const app = await buildApp({ config });
    nodes.push(app);
    return { app, url: (await app.start()).replace('localhost', '127.0.0.1') };
  };
  const nodes: App[] = [];
  const gates: TcpGate[] = [];

  beforeAll(async () => {
    b = await startTestApp('postgres');
    const url = new URL(b.app.config.DATABASE_URL!);
    databaseName = url.pathname.slice(1);
    gate = await startTcpGate(url.hostname, Number(url.port || 5432));
    ({ app: a, url: aUrl } = await startNode(gate, {}));
    owner = await seedUser(b.app, { plan: 'pro' });
    tourId = (await seedProcessedTour(b, owner)).id;
  });
  afterAll(async () => {
    console.log(`notice loss: ${figures.join('; ')}`);
    for (const n of nodes) await n.stop();
    await b?.stop();
    for (const g of [gate, ...gates]) await g?.close();
  });

  it('stops answering a tour made company-only elsewhere, is not ready until it listens again, then heals', async () => {
    const before = await ask(aUrl);
    expect(before.title).toBe('Seeded');
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect(publicTourCacheOf(a.services)!.size).toBeGreaterThan(0);
    expect((await fetch(before.clip!)).status).toBe(200);
    expect((await ready()).status).toBe(200);
    expect(await metric('roomwalk_notice_listener_up')).toBe(1);

    // The database restarts (as far as A can tell): its LISTEN backend ends, and reconnecting fails for now.
    gate.closed = true;
    const lost = nextChange(a, false);
    const killedAt = await killListener();
    const lostAt = await lost;
    await setAccess('COMPANY');
    const refused = await ask(aUrl);
    const stoppedAt = performance.now();
    expect(refused.code).toBe('TOUR_MEMBERS_ONLY');
    expect(refused.title).toBeNull();
    expect((await fetch(before.clip!)).status).toBe(404);
    figures.push(
      `kill → node knows ${(lostAt - killedAt).toFixed(0)} ms; kill → company-only answered (change made after the kill) ${(stoppedAt - killedAt).toFixed(0)} ms`,
    );

    // Not ready while it cannot hear notices, and it keeps nothing meanwhile: every answer is the database's.
    const notReady = await ready();
    expect(notReady.status).toBe(503);
    expect(notReady.body.message).toMatch(/notices cannot be received/i);
    expect(await metric('roomwalk_notice_listener_up')).toBe(0);
    expect((await ask(aUrl)).code).toBe('TOUR_MEMBERS_ONLY');
    expect(publicTourRefusalsOf(a.services)!.size).toBe(0);
    await setAccess('PUBLIC');
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect(publicTourCacheOf(a.services)!.size).toBe(0);
    expect(accessIndexOf(a.services).known(tourId.replace(/^tour_/, ''))).toBeUndefined();

    // The database is back: A listens again by itself, is ready, keeps answers again and hears changes.
    const reconnectsBefore = (await metric('roomwalk_notice_listener_reconnects_total')) ?? 0;
    const back = nextChange(a, true);
    gate.closed = false;
    await back;
    expect((await ready()).status).toBe(200);
    expect(await metric('roomwalk_notice_listener_up')).toBe(1);
    expect(await metric('roomwalk_notice_listener_reconnects_total')).toBe(reconnectsBefore + 1);
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect(publicTourCacheOf(a.services)!.size).toBeGreaterThan(0);
    const noticed = changeNoticed(a, tourId);
    await setAccess('COMPANY');
    await noticed;
    expect((await ask(aUrl)).code).toBe('TOUR_MEMBERS_ONLY');
  });

  it('heals again from a second loss at another moment (just after healing, reconnecting at once)', async () => {
    const opened = changeNoticed(a, tourId);
    await setAccess('PUBLIC');
    await opened;
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect((await ask(aUrl)).title).toBe('Seeded');
    expect(publicTourCacheOf(a.services)!.size).toBeGreaterThan(0);
    const lost = nextChange(a, false);
    const back = nextChange(a, true);
    const killedAt = await killListener();
    await lost;
    // Dropped at once: what this node kept may be stale from now on.
    expect(publicTourCacheOf(a.services)!.size).toBe(0);
    const backAt = await back;
    figures.push(`second kill → listening again ${(backAt - killedAt).toFixed(0)} ms`);
    expect((await ready()).status).toBe(200);
    // Changes made on the other node reach A through its new LISTEN connection.
    expect((await ask(aUrl)).title).toBe('Seeded');
    const noticed = changeNoticed(a, tourId);
    await b.app.services.db
      .updateTable('tours')
      .set({ title: 'Renamed on B' })
      .where('id', '=', tourId.replace(/^tour_/, ''))
      .execute();
    await noticed;
    expect((await ask(aUrl)).title).toBe('Renamed on B');
    const noticedAgain = changeNoticed(a, tourId);
    await setAccess('COMPANY');
    await noticedAgain;
    expect((await ask(aUrl)).code).toBe('TOUR_MEMBERS_ONLY');
  });

  it("finds a proxy's cut and a silent network cut (no answer to SELECT 1) too, and heals from both", async () => {
    // Its own node, asking its idle LISTEN connection to answer every second.
    const g = await startTcpGate(
      new URL(b.app.config.DATABASE_URL!).hostname,
      Number(new URL(b.app.config.DATABASE_URL!).port || 5432),
    );
    gates.push(g);
    const c = await startNode(g, { NOTICE_CHECK_SECONDS: 1 });
    await setAccess('PUBLIC');
    expect((await ask(c.url)).title).not.toBeNull();

    // The proxy in front ends the connection (no FATAL from the database, only the socket closing).
    let lost = nextChange(c.app, false);
    let back = nextChange(c.app, true);
    g.cut();
    await lost;
    await back;

    // Nothing passes any more and nothing closes: only the check finds it.
    lost = nextChange(c.app, false);
    back = nextChange(c.app, true);
    const frozenAt = performance.now();
    g.freeze();
    const lostAt = await lost;
    figures.push(`silent cut → node knows ${(lostAt - frozenAt).toFixed(0)} ms (NOTICE_CHECK_SECONDS=1)`);
    expect(c.app.services.events.notices.reason).toMatch(/stopped answering/);
    await back;
    expect((await fetch(`${c.url}/readyz`)).status).toBe(200);
    const noticed = changeNoticed(c.app, tourId);
    await setAccess('COMPANY');
    await noticed;
    expect((await ask(c.url)).code).toBe('TOUR_MEMBERS_ONLY');
  });
});
