/**
 * Live viewing benchmark (not a test): host-to-viewer scroll sync latency on loopback, and 50 viewers without a lost
 * message: 10 rooms of one host and 5 viewers at once (a room holds at most 6 sockets and one per participant; the
 * bare relay baseline keeps all 50 in one room, which is the same number of deliveries). Baseline in the
 * same run: a bare `ws` relay (no auth, no validation, no rooms). With TEST_DATABASE_URL (or DATABASE_URL) set, also
 * two API nodes sharing PostgreSQL (host on one, viewers on the other, every message through NOTIFY).
 *
 *   npm run bench:live -w packages/server
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket, { WebSocketServer } from 'ws';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { signalingTokens } from '../src/services/live/sessions.js';
import { LIVE_LIMITS } from '../src/http/tour-viewer-ws.js';
import { LIVE_SOCKET_MESSAGES } from '@roomwalk/shared/schemas/socket-messages';

const TARGET_P95_MS = 50;
const LATENCY_MESSAGES = 300;
const FANOUT_VIEWERS = 50;
const FANOUT_MESSAGES = 200;
/** 33 ms is the player's throttle; the fan-out run sends faster (25 ms), inside the 50/s per-socket limit. */
const LATENCY_INTERVAL_MS = 33;
const FANOUT_INTERVAL_MS = 25;

interface Room {
  hostUrl: string;
  /** The i-th viewer's URL (its own participant's token). */
  viewerUrl: (i: number) => string;
  tourId: string;
}

/** Viewers per room in the fan-out run: a room's cap less its host. */
const VIEWERS_PER_ROOM = LIVE_LIMITS.maxPeersPerRoom - 1;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

function open(url: string): Promise<{ ws: WebSocket; messages: Array<{ at: number; m: any }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: Array<{ at: number; m: any }> = [];
    let welcomed = false;
    ws.on('message', (d) => {
      const at = performance.now();
      const m = JSON.parse(d.toString());
      if (m.type === LIVE_SOCKET_MESSAGES.welcome || m.type === 'bare_welcome') {
        welcomed = true;
        return resolve({ ws, messages });
      }
      if (welcomed && m.type === LIVE_SOCKET_MESSAGES.scrolling) messages.push({ at, m });
    });
    ws.once('error', reject);
    ws.once('close', (code) => !welcomed && reject(new Error(`closed ${code}`)));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The host sends `count` frames `interval` ms apart; each viewer must get all of them, in order. */
async function run(
  room: Room,
  viewers: number,
  count: number,
  interval: number,
): Promise<{ latencies: number[]; lost: number; outOfOrder: number }> {
  const vs = await Promise.all(Array.from({ length: viewers }, (_, i) => open(room.viewerUrl(i))));
  const host = await open(room.hostUrl);
  // Let presence settle across nodes before timing.
  await sleep(200);
  const sentAt: number[] = [];
  for (let i = 0; i < count; i++) {
    sentAt[i] = performance.now();
    host.ws.send(
      JSON.stringify({ type: LIVE_SOCKET_MESSAGES.scrolling, tourId: room.tourId, data: { frameIndex: i } }),
    );
    await sleep(interval);
  }
  const deadline = performance.now() + 5000;
  while (performance.now() < deadline && vs.some((v) => v.messages.length < count)) await sleep(20);
  const latencies: number[] = [];
  let lost = 0;
  let outOfOrder = 0;
  for (const v of vs) {
    const got = v.messages.map((x) => x.m.data.frameIndex as number);
    lost += count - new Set(got).size;
    outOfOrder += got.filter((f, i) => i > 0 && f < got[i - 1]!).length;
    for (const x of v.messages) latencies.push(x.at - sentAt[x.m.data.frameIndex]!);
  }
  host.ws.close();
  for (const v of vs) v.ws.close();
  return { latencies, lost, outOfOrder };
}

/** A bare relay: what the same traffic costs with nothing but `ws` forwarding text. */
async function bareRelay(): Promise<{ room: Room; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  wss.on('connection', (ws) => {
    ws.send(JSON.stringify({ type: 'bare_welcome' }));
    ws.on('message', (d) => {
      for (const c of wss.clients) if (c !== ws && c.readyState === WebSocket.OPEN) c.send(d.toString());
    });
  });
  const url = `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
  return {
    room: { hostUrl: url, viewerUrl: () => url, tourId: 'bare' },
    close: () => new Promise((r) => wss.close(() => r())),
  };
}

async function startNode(dataDir: string, databaseUrl: string | undefined, jwtSecret: string): Promise<App> {
  const config = loadConfig(
    { NODE_ENV: 'production' },
    {
      PORT: 0,
      HOST: '127.0.0.1',
      DATA_DIR: databaseUrl ? dataDir : 'memory://',
      LOG_LEVEL: 'error',
      JWT_SECRET: jwtSecret,
      ROLE: 'api',
      ICE_SERVERS: '[]',
      SMTP_URL: 'smtp://127.0.0.1:1', // production needs one; the bench sends no mail
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  );
  if (!databaseUrl) config.DATA_DIR = 'memory://';
  const app = await buildApp({ config });
  const url = await app.start();
  app.config.publicUrl = url.replace('localhost', '127.0.0.1');
  return app;
}

async function seedRoom(app: App, hostBase: string, viewerBase: string): Promise<Room> {
  const db = app.services.db;
  const company = await db.insertInto('companies').values({ name: 'Bench' }).returningAll().executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      username: `bench-${randomBytes(4).toString('hex')}@example.com`,
      password_hash: null,
      company_id: company.id,
      activated_at: new Date(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const tour = await db
    .insertInto('tours')
    .values({ company_id: company.id, owner_id: user.id, title: 'Bench', status: 'PROCESSED' })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  const expires = new Date(Date.now() + 3600_000);
  const session = await db
    .insertInto('viewing_sessions')
    .values({ tour_id: tour.id, lead_id: null, created_by: user.id, expires_at: expires })
    .returning(['id'])
    .executeTakeFirstOrThrow();
  const sign = (role: 'host' | 'viewer', userId: string) =>
    signalingTokens(app.services).sign({
      tourId: tour.id,
      sessionId: session.id,
      role,
      userId,
      exp: Math.floor(expires.getTime() / 1000),
    });
  const q = (base: string, token: string) =>
    `${base.replace('http', 'ws')}/ws/tour-viewer-events?${new URLSearchParams({ tourId: `tour_${tour.id}`, token })}`;
  const viewers = await Promise.all(
    Array.from({ length: VIEWERS_PER_ROOM }, (_, i) => sign('viewer', `viewer-bench-${i}`)),
  );
  return {
    hostUrl: q(hostBase, await sign('host', `host-${user.id}`)),
    viewerUrl: (i) => q(viewerBase, viewers[i]!),
    tourId: `tour_${tour.id}`,
  };
}

/** `viewers` spread over rooms of VIEWERS_PER_ROOM, all running at once; results pooled. */
async function runRooms(
  seed: () => Promise<Room>,
  viewers: number,
  count: number,
  interval: number,
): Promise<{ latencies: number[]; lost: number; outOfOrder: number }> {
  const rooms = await Promise.all(Array.from({ length: Math.ceil(viewers / VIEWERS_PER_ROOM) }, seed));
  const results = await Promise.all(
    rooms.map((room, i) => run(room, Math.min(VIEWERS_PER_ROOM, viewers - i * VIEWERS_PER_ROOM), count, interval)),
  );
  return {
    latencies: results.flatMap((r) => r.latencies),
    lost: results.reduce((n, r) => n + r.lost, 0),
    outOfOrder: results.reduce((n, r) => n + r.outOfOrder, 0),
  };
}

function report(
  name: string,
  r: { latencies: number[]; lost: number; outOfOrder: number },
  viewers: number,
  count: number,
  baselineP95?: number,
) {
  const p50 = pct(r.latencies, 50);
  const p95 = pct(r.latencies, 95);
  const ratio = baselineP95 ? `  (${(p95 / baselineP95).toFixed(1)}x baseline p95)` : '';
  console.log(
    `${name.padEnd(44)} deliveries ${String(r.latencies.length).padStart(6)}/${viewers * count}  lost ${r.lost}  out of order ${r.outOfOrder}  p50 ${p50.toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  max ${Math.max(...r.latencies).toFixed(2)} ms${ratio}`,
  );
  return p95;
}

async function main() {
  const jwtSecret = randomBytes(24).toString('hex');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-bench-live-'));
  const results: Array<{ what: string; ok: boolean; detail: string }> = [];
  console.log(
    `Live viewing benchmark on ${os.cpus().length} cores, loopback. Target: host-to-viewer p95 <= ${TARGET_P95_MS} ms; ${FANOUT_VIEWERS} viewers, no lost message.\n`,
  );

  const bare = await bareRelay();
  const bareLat = report(
    'baseline: bare ws relay, 1 viewer',
    await run(bare.room, 1, LATENCY_MESSAGES, LATENCY_INTERVAL_MS),
    1,
    LATENCY_MESSAGES,
  );
  const bareFan = report(
    `baseline: bare ws relay, ${FANOUT_VIEWERS} viewers`,
    await run(bare.room, FANOUT_VIEWERS, FANOUT_MESSAGES, FANOUT_INTERVAL_MS),
    FANOUT_VIEWERS,
    FANOUT_MESSAGES,
  );
  await bare.close();

  const single = await startNode(dataDir, undefined, jwtSecret);
  const base = single.config.publicUrl;
  const room = await seedRoom(single, base, base);
  const one = await run(room, 1, LATENCY_MESSAGES, LATENCY_INTERVAL_MS);
  const p95 = report('Roomwalk, one node: 1 viewer', one, 1, LATENCY_MESSAGES, bareLat);
  results.push({ what: 'sync latency p95, one node', ok: p95 <= TARGET_P95_MS, detail: `${p95.toFixed(2)} ms` });
  const fan = await runRooms(() => seedRoom(single, base, base), FANOUT_VIEWERS, FANOUT_MESSAGES, FANOUT_INTERVAL_MS);
  const fanP95 = report(
    `Roomwalk, one node: ${FANOUT_VIEWERS} viewers in 6-socket rooms`,
    fan,
    FANOUT_VIEWERS,
    FANOUT_MESSAGES,
    bareFan,
  );
  results.push({
    what: `${FANOUT_VIEWERS} viewers, one node: lost / out of order`,
    ok: fan.lost === 0 && fan.outOfOrder === 0,
    detail: `${fan.lost} / ${fan.outOfOrder} of ${FANOUT_VIEWERS * FANOUT_MESSAGES}, p95 ${fanP95.toFixed(2)} ms`,
  });
  await single.stop();

  const pgBase = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (pgBase) {
    const name = `rw_bench_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(pgBase);
    u.pathname = `/${name}`;
    try {
      const a = await startNode(dataDir, u.toString(), jwtSecret);
      const b = await startNode(dataDir, u.toString(), jwtSecret);
      const r1 = await run(
        await seedRoom(a, a.config.publicUrl, b.config.publicUrl),
        1,
        LATENCY_MESSAGES,
        LATENCY_INTERVAL_MS,
      );
      const p = report('Roomwalk, two nodes via NOTIFY: 1 viewer', r1, 1, LATENCY_MESSAGES, bareLat);
      results.push({
        what: 'sync latency p95, two nodes (PostgreSQL NOTIFY)',
        ok: p <= TARGET_P95_MS,
        detail: `${p.toFixed(2)} ms`,
      });
      const r50 = await runRooms(
        () => seedRoom(a, a.config.publicUrl, b.config.publicUrl),
        FANOUT_VIEWERS,
        FANOUT_MESSAGES,
        FANOUT_INTERVAL_MS,
      );
      const p50v = report(
        `Roomwalk, two nodes via NOTIFY: ${FANOUT_VIEWERS} viewers, rooms`,
        r50,
        FANOUT_VIEWERS,
        FANOUT_MESSAGES,
        bareFan,
      );
      results.push({
        what: `${FANOUT_VIEWERS} viewers, two nodes: lost / out of order`,
        ok: r50.lost === 0 && r50.outOfOrder === 0,
        detail: `${r50.lost} / ${r50.outOfOrder}, p95 ${p50v.toFixed(2)} ms`,
      });
      await a.stop();
      await b.stop();
    } finally {
      // The job queue closes its pool a moment after stop(); dropping under it would kill its idle connections.
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if (rows[0].n === 0) break;
        await sleep(100);
      }
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  } else {
    console.log('(two-node run skipped: set TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL server)');
  }
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log('\nAgainst targets:');
  for (const r of results) console.log(`  ${r.ok ? 'PASS' : 'MISS'}  ${r.what}: ${r.detail}`);
  process.exitCode = results.every((r) => r.ok) ? 0 : 1;
}

await main();
