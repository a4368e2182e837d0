/**
 * Room analytics at scale (not a test): one tour with BENCH_VISITS recorded visits (default 1,000,000) on
 * PostgreSQL, seeded with generate_series (90 days, 350,000 visitors, 1 to 6 rooms each, devices, completions), then:
 *   1. tourAnalytics latency (p50 / p95 of BENCH_QUERIES sequential calls through an API node, 90-day and 30-day
 *      periods) BEFORE the rollup (every visit read: the baseline) and AFTER it (the daily aggregates plus the days
 *      not rolled up yet, with the hourly rollup as it ran an hour ago: the most it leaves to read). Target: ≤ 200 ms
 * (p95) after the rollup.
 *   2. POST /tour-visit (the player's beacon, text/plain JSON with 4 room segments, every request a new visitor, so
 *      each opens a visit: the heavier path) sustained for BENCH_SECONDS with autocannon on loopback, interleaved in
 *      rounds with the public tour query (the player's GET form, from the node's cache, and POST GraphQL), so the
 *      machine's load falls on both alike. Target: ≥ 2,000 beacons/s with 0 errors and 0 non-2xx; the ratio to the
 *      public tour query's rate is printed.
 * The load average of the machine is printed beside the figures (the benchmark machine is shared).
 *
 *   npm run bench:analytics -w packages/server
 *   BENCH_VISITS=1000000 BENCH_QUERIES=100 BENCH_SECONDS=20 BENCH_ROUNDS=2 BENCH_CONNECTIONS=20 (defaults)
 *   DATABASE_URL / TEST_DATABASE_URL: the PostgreSQL server to create the benchmark database on
 *   (default postgres://postgres@127.0.0.1:5432/postgres); the database is dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { planById, uploadLimitFor } from '@roomwalk/shared';
import { errorLines, startApiNode, stopChild, waitReady, type Child } from './bench-processes.js';

const VISITS = Number(process.env.BENCH_VISITS ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TARGET_QUERY_MS = 200;
const TARGET_BEACONS = 2000;

interface AutocannonResult {
  requests: { total: number };
  duration: number;
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
/** CPU seconds (user + system) of each process (Linux /proc; absent when gone). */
function cpuOf(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out.set(pid, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // gone
    }
  }
  return out;
}
/** CPU seconds used between two readings by the processes present in both. */
const cpuDelta = (a: Map<number, number>, b: Map<number, number>) =>
  [...b].reduce((n, [pid, v]) => n + (a.has(pid) ? v - a.get(pid)! : 0), 0);
const postgresPids = () =>
  fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function main(): Promise<void> {
  const base =
    process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `rw_bench_rooms_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-bench-rooms-'));
  const secret = randomBytes(24).toString('hex');
  let api: Child | undefined;
  let failed = false;
  try {
    const { openDatabase } = await import('../src/db/database.js');
    const { createTokenService } = await import('../src/auth/tokens.js');
    const { getLicense, rolesFor } = await import('../src/services/licenses.js');
    const { rollupRoomAnalytics } = await import('../src/services/reports/room-rollup.js');
    const { PLAYER_TOUR_QUERY: PLAYER_TOUR_DOCUMENT } = await import('@roomwalk/shared/player-documents');
    const db = await openDatabase({ databaseUrl, dataDir: 'unused' });
    const company = await db.db
      .insertInto('companies')
      .values({ name: 'Bench Realty' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = await db.db
      .insertInto('users')
      .values({
        username: 'agent@bench.example',
        password_hash: null,
        company_id: company.id,
        role: 'ADMIN',
        activated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('user_profiles')
      .values({ user_id: user.id, name: 'Ada', surname: 'Agent', contact_number: '+27 821234567' })
      .execute();
    const plan = planById('basic')!;
    await db.db
      .insertInto('licenses')
      .values({
        company_id: company.id,
        plan_id: plan.id,
        plan_name: plan.planName,
        quantity: plan.upTo,
        upload_limit: uploadLimitFor(plan.upTo),
        start_date: new Date(),
        period_start: new Date(),
        end_date: null,
        subscription_id: null,
      })
      .execute();
    const tour = await db.db
      .insertInto('tours')
      .values({
        company_id: company.id,
        owner_id: user.id,
        title: 'Sea Point flat',
        status: 'PROCESSED',
        progress: 100,
        fps: 15,
        clips_version: 1,
        processing_attempt: 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await db.db
      .insertInto('clips')
      .values(
        Array.from({ length: 10 }, (_, i) => ({
          tour_id: tour.id,
          index: i,
          frame_count: 36,
          duration: 2.4,
          high_key: `t/${i}-high.mp4`,
          low_key: `t/${i}-low.mp4`,
        })),
      )
      .execute();
    const rooms = ['', 'Kitchen', 'Lounge', 'Master Bedroom', 'Bathroom', 'Garden'];
    await db.db
      .insertInto('markers')
      .values(
        rooms.slice(1).map((n, i) => ({
          tour_id: tour.id,
          name: n,
          description: '',
          frame_index: 40 + i * 60,
          created_at: new Date(),
        })),
      )
      .execute();
    const token = await createTokenService(secret, 3600, Date.now).sign({
      userId: user.id,
      companyId: company.id,
      roles: rolesFor(user, await getLicense(db.db, company.id), new Date()),
    });

    // Seed: visit g started at a pseudo-random moment of the last 90 days, by visitor g % 350000, through the first
    // 1 + g % 6 rooms with 5 to 119 seconds each; devices and completions spread.
    console.log(
      `Room analytics benchmark: ${VISITS.toLocaleString('en')} visits of one tour on PostgreSQL, ${os.cpus().length} cores, load ${load()}`,
    );
    const t0 = Date.now();
    const BATCH = 100_000;
    for (let from = 1; from <= VISITS; from += BATCH) {
      const to = Math.min(VISITS, from + BATCH - 1);
      await sql`
        INSERT INTO view_events (tour_id, company_id, visitor_id, started_at, last_seen_at, seconds_spent, rooms_reached, rooms, exit_room, reached_end, fast_travels, device)
        SELECT ${tour.id}::uuid, ${company.id}::uuid, 'bench-' || (g % 350000), s.at, s.at + make_interval(secs => r.total), r.total, s.k, r.rooms,
               ${sql.raw(`(ARRAY[${rooms.map((n) => `'${n}'`).join(',')}])`)}[s.k], s.k = 6, g % 3,
               (ARRAY['phone', 'phone', 'desktop', 'tablet'])[1 + g % 4]
        FROM generate_series(${from}::int, ${to}::int) g
        CROSS JOIN LATERAL (SELECT now() - make_interval(secs => ((g::bigint * 2654435761) % 7776000)::float8) AS at, 1 + g % 6 AS k) s
        CROSS JOIN LATERAL (
          SELECT jsonb_agg(jsonb_build_object('name', n.name, 'seconds', 5 + (g * 7 + n.i * 13) % 115) ORDER BY n.i) AS rooms,
                 sum(5 + (g * 7 + n.i * 13) % 115)::int AS total
          FROM unnest(${sql.raw(`ARRAY[${rooms.map((n) => `'${n}'`).join(',')}]`)}::text[]) WITH ORDINALITY n(name, i) WHERE n.i <= s.k
        ) r`.execute(db.db);
      process.stdout.write(`\rseeded ${to.toLocaleString('en')} visits (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    await sql`ANALYZE`.execute(db.db);
    console.log(`\nseeding took ${((Date.now() - t0) / 1000).toFixed(0)} s (load ${load()})`);

    const node = await startApiNode({ databaseUrl, dataDir, jwtSecret: secret });
    api = node.child;
    const apiUrl = node.url;
    await waitReady(`${apiUrl}/readyz`, api);

    const query = `query($id: ID!, $from: DateTime) { tourAnalytics(tourId: $id, from: $from) { visits uniqueVisitors averageSeconds completionRate rooms { name seconds visits } exits { name visits } daily { date visits } devices { name visits } } }`;
    const ask = async (days: number) => {
      const from = new Date(Date.now() - (days - 1) * 86_400_000).toISOString();
      const started = performance.now();
      const res = await fetch(`${apiUrl}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables: { id: `tour_${tour.id}`, from } }),
      });
      const body = (await res.json()) as {
        data?: { tourAnalytics: { visits: number; rooms: unknown[] } };
        errors?: unknown;
      };
      if (!body.data?.tourAnalytics) throw new Error(`tourAnalytics failed: ${JSON.stringify(body.errors)}`);
      return { ms: performance.now() - started, a: body.data.tourAnalytics };
    };
    const latency = async (days: number, n: number) => {
      const times: number[] = [];
      let visits = 0;
      for (let i = 0; i < n; i++) {
        const r = await ask(days);
        times.push(r.ms);
        visits = r.a.visits;
      }
      return { p50: pct(times, 50), p95: pct(times, 95), visits, n };
    };
    const row = (label: string, r: { p50: number; p95: number; visits: number; n: number }) =>
      console.log(
        `${label.padEnd(44)} p50 ${r.p50.toFixed(0).padStart(5)} ms   p95 ${r.p95.toFixed(0).padStart(5)} ms   (${r.visits.toLocaleString('en')} visits, ${r.n} calls, load ${load()})`,
      );
    await ask(90);
    row('tourAnalytics 90 days, before the rollup', await latency(90, Math.min(10, QUERIES)));

    // The hourly rollup as it ran an hour ago (the most the page reads from the visits themselves: today's visits, and
    // the visitors of the last hour, checked one by one).
    const r0 = Date.now();
    const rolled = await rollupRoomAnalytics(db.db, new Date(Date.now() - 60 * 60_000));
    console.log(
      `rollup of ${rolled?.days?.visits.toLocaleString('en')} visits (${rolled?.days?.from} to ${rolled?.days?.through}; visitors to ${rolled?.visitorsThrough.toISOString()}) took ${((Date.now() - r0) / 1000).toFixed(1)} s (load ${load()})`,
    );
    await sql`ANALYZE`.execute(db.db);
    const unrolled = await sql<{
      visits: number;
      fresh: number;
    }>`SELECT count(*)::int AS visits, count(*) FILTER (WHERE started_at >= ${rolled?.visitorsThrough})::int AS fresh
      FROM view_events WHERE tour_id = ${tour.id} AND started_at >= ${`${rolled?.days?.through}T00:00:00Z`}::timestamptz + interval '1 day'`.execute(
      db.db,
    );
    console.log(
      `not rolled up yet: ${unrolled.rows[0]?.visits.toLocaleString('en')} visits, of which ${unrolled.rows[0]?.fresh.toLocaleString('en')} since the visitors were rolled up`,
    );
    await ask(90);
    const after90 = await latency(90, QUERIES);
    row('tourAnalytics 90 days, after the rollup', after90);
    const after30 = await latency(30, QUERIES);
    row('tourAnalytics 30 days, after the rollup', after30);
    const queryOk = after90.p95 <= TARGET_QUERY_MS && after30.p95 <= TARGET_QUERY_MS;
    console.log(
      `target tourAnalytics p95 ≤ ${TARGET_QUERY_MS} ms with ${VISITS.toLocaleString('en')} visits: ${queryOk ? 'met' : 'MISSED'}`,
    );
    failed ||= !queryOk;

    // Beacons against the public tour query, interleaved.
    let n = 0;
    const segments = [
      { room: '', seconds: 4 },
      { room: 'Kitchen', seconds: 90 },
      { room: 'Lounge', seconds: 30 },
      { room: 'Master Bedroom', seconds: 40 },
    ];
    const beacon = {
      method: 'POST',
      path: '/tour-visit',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      setupRequest: (r: Record<string, unknown>) => ({
        ...r,
        body: JSON.stringify({
          tourId: `tour_${tour.id}`,
          visitorId: `load-${process.pid}-${++n}`,
          secondsSpent: 164,
          roomsReached: 3,
          segments,
          fastTravels: 1,
          reachedEnd: false,
          device: 'phone',
        }),
      }),
    };
    const getPath = `/query?${new URLSearchParams({ query: PLAYER_TOUR_DOCUMENT, variables: JSON.stringify({ tourID: `tour_${tour.id}` }) })}`;
    const specs: Record<string, Record<string, unknown>> = {
      beacon: { url: apiUrl, requests: [beacon] },
      tourGet: { url: apiUrl, requests: [{ method: 'GET', path: getPath }] },
      tourPost: {
        url: apiUrl,
        requests: [
          {
            method: 'POST',
            path: '/query',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: PLAYER_TOUR_DOCUMENT, variables: { tourID: `tour_${tour.id}` } }),
          },
        ],
      },
    };
    const run = (o: Record<string, unknown>) => autocannon({ connections: CONNECTIONS, pipelining: 1, ...o });
    for (const k of Object.keys(specs))
      if (!process.env.BENCH_ONLY || k === process.env.BENCH_ONLY) await run({ ...specs[k], duration: 2 }); // warm up
    const parts = new Map<string, AutocannonResult[]>(
      Object.keys(specs).map((k) => [
        k,
        [{ requests: { total: 0 }, duration: 1e-9, latency: { p50: 0, p99: 0 }, non2xx: 0, errors: 0, timeouts: 0 }],
      ]),
    );
    const cpuNode = new Map<string, number>(Object.keys(specs).map((k) => [k, 0]));
    const cpuPg = new Map<string, number>(Object.keys(specs).map((k) => [k, 0]));
    const loadBefore = load();
    // BENCH_ONLY=beacon (with BENCH_CPU_PROF): only the beacon row, to profile it.
    const names = Object.keys(specs).filter((k) => !process.env.BENCH_ONLY || k === process.env.BENCH_ONLY);
    for (let i = 0; i < ROUNDS; i++)
      for (let j = 0; j < names.length; j++) {
        const k = names[(i + j) % names.length]!;
        const pg0 = postgresPids();
        const [n0, p0] = [cpuOf([api.proc.pid!]), cpuOf(pg0)];
        // PostgreSQL backends of the API node's pool live as long as the pool; ones that end mid-run are not counted.
        parts.get(k)!.push(await run({ ...specs[k], duration: SECONDS / ROUNDS }));
        cpuNode.set(k, cpuNode.get(k)! + cpuDelta(n0, cpuOf([api.proc.pid!])));
        cpuPg.set(k, cpuPg.get(k)! + cpuDelta(p0, cpuOf(pg0)));
      }
    const sum = (k: string) => {
      const ps = parts.get(k)!;
      const total = ps.reduce((x, p) => x + p.requests.total, 0);
      return {
        nodeUs: (cpuNode.get(k)! / total) * 1e6,
        pgUs: (cpuPg.get(k)! / total) * 1e6,
        rps: total / ps.reduce((x, p) => x + p.duration, 0),
        p99: Math.max(...ps.map((p) => p.latency.p99)),
        non2xx: ps.reduce((x, p) => x + p.non2xx, 0),
        errors: ps.reduce((x, p) => x + p.errors + p.timeouts, 0),
      };
    };
    const b = sum('beacon'),
      g = sum('tourGet'),
      q = sum('tourPost');
    const line = (label: string, m: ReturnType<typeof sum>) =>
      console.log(
        `${label.padEnd(44)} ${m.rps.toFixed(0).padStart(6)} req/s   p99 ${String(m.p99).padStart(4)} ms   non-2xx ${m.non2xx}   errors ${m.errors}   CPU/req: API node ${m.nodeUs.toFixed(0)} µs, PostgreSQL ${m.pgUs.toFixed(0)} µs`,
      );
    line('POST /tour-visit (beacon, a new visit each)', b);
    line('GET /query public tour (player, cached)', g);
    line('POST /query public tour (GraphQL, uncached)', q);
    console.log(`load average before ${loadBefore}, after ${load()} (${os.cpus().length} cores)`);
    console.log(
      `beacons / public tour query: ${(b.rps / g.rps).toFixed(2)} × the cached GET, ${(b.rps / q.rps).toFixed(2)} × POST GraphQL`,
    );
    const stored = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM view_events WHERE visitor_id LIKE ${`load-${process.pid}-%`}`.execute(db.db);
    const beaconOk = b.rps >= TARGET_BEACONS && b.non2xx === 0 && b.errors === 0;
    console.log(
      `beacons stored: ${stored.rows[0]?.n.toLocaleString('en')} visits; target ≥ ${TARGET_BEACONS} beacons/s with no error: ${beaconOk ? 'met' : 'MISSED'}`,
    );
    failed ||= !beaconOk;
    const errs = errorLines(api.lines);
    if (errs.length) {
      console.log(`server error lines:\n${errs.slice(0, 10).join('\n')}`);
      failed = true;
    }
    await db.close();
  } finally {
    await stopChild(api);
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
