/**
 * Scale-out proof on one machine: a fresh PostgreSQL database, s3rver on loopback, two API processes (ROLE=api) and
 * two workers (ROLE=worker), each its own `node --import tsx` process (test/fixtures/scale-node.ts).
 *
 * - Upload through node A (signed URL → PUT to the bucket → fileSubmitPreSignedUpload) while subscribed to
 *   tourProgressUpdated through node B; the worker that takes the job is SIGKILLed mid-job and the other finishes the
 *   tour exactly once: one PROCESSED event, one clip set, nothing else under the tour's prefix in the bucket.
 * - Scroll sync between a host on node A and a viewer on node B; the lead left through B reaches the agent's
 *   subscription on A, and a worker delivers its mail over SMTP (smtp-server on loopback).
 * - SIGTERM: a worker hands its running job back (pg-boss fails it to a retry) and exits 0; an API node closes
 *   its sockets with 1001, finishes the request in flight and exits 0.
 * PostgreSQL only (TEST_DATABASE_URL).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import S3rver from 's3rver';
import WebSocket from 'ws';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenService } from '../src/auth/tokens.js';
import type { App } from '../src/app.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { landscapeVideo, Q, waitFor, type ProgressEvent } from './fixtures/tours.js';
import { createPostgresDatabase } from './helpers/test-app.js';
import { jsonLine, startFixture, stopProcess } from './helpers/processes.js';
import { startSmtpInbox, type SmtpInbox } from './helpers/smtp.js';
import { connect, LEAD_MUTATION, leadInput, sessionOf, wsUrl, type LiveClient } from './fixtures/live-helpers.js';

const base = process.env.TEST_DATABASE_URL;
const BUCKET = 'roomwalk-scale';

interface Node {
  name: string;
  role: 'api' | 'worker';
  url: string;
  proc: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startNode(name: string, role: 'api' | 'worker', env: Record<string, string>): Promise<Node> {
  const child = startFixture('scale-node.ts', { ...env, ROLE: role }, (line) =>
    jsonLine<{ url: string; role: string }>(line, 'url', 'role'),
  );
  const { url } = await child.ready.catch((err: Error) => Promise.reject(new Error(`${name}: ${err.message}`)));
  return { name, role, url, proc: child.proc, output: child.output, exited: child.exited };
}

async function kill(n: Node | undefined, signal: NodeJS.Signals): Promise<void> {
  await stopProcess(n?.proc, signal);
}

async function gql<T = any>(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<{ status: number; data: T; errors?: Array<{ message: string }> }> {
  const res = await fetch(`${url}/query`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data: T; errors?: Array<{ message: string }> };
  return { status: res.status, ...body };
}

/** Upload through `url` the way the console does: signed URL → PUT straight to the bucket → submit. */
async function uploadThrough(url: string, token: string, body: Buffer): Promise<{ tourId: string; key: string }> {
  const p = (await gql(url, Q.getUrl, { ext: 'mp4' }, token)).data.fileGetPreSignedUrl;
  const headers = Object.fromEntries((p.headers as Array<{ key: string; value: string }>).map((h) => [h.key, h.value]));
  const put = await fetch(p.uploadURL, { method: 'PUT', headers, body });
  expect(put.status).toBe(200);
  const s = await gql(url, Q.submit, { key: p.key }, token);
  expect(s.errors).toBeUndefined();
  return { tourId: s.data.fileSubmitPreSignedUpload.tourId, key: p.key };
}

/** A subscription that records every event, so the test can watch for a probe before anything else. */
function watchProgress(client: Client, tourId: string) {
  const events: ProgressEvent[] = [];
  const final = new Promise<ProgressEvent[]>((resolve, reject) => {
    client.subscribe<{ tourProgressUpdated: ProgressEvent }>(
      { query: Q.progress, variables: { id: tourId } },
      {
        next: (v) => {
          if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
          const e = v.data!.tourProgressUpdated;
          events.push(e);
          if (e.status === 'PROCESSED' || e.status === 'FAILED') resolve(events);
        },
        error: (e) => reject(e instanceof Error ? e : new Error(JSON.stringify(e))),
        complete: () => resolve(events),
      },
    );
  });
  return { events, final };
}

describe.skipIf(!base)('scale-out on one machine: 2 API nodes, 2 workers, PostgreSQL, S3 (s3rver)', () => {
  let scratch: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  const jwtSecret = randomBytes(24).toString('hex');
  let databaseUrl = '';
  let db: Db;
  let s3dir = '';
  let s3: S3rver;
  let s3client: S3Client;
  let smtp: SmtpInbox;
  let env: Record<string, string> = {};
  let hangEnv: Record<string, string> = {};
  let a: Node;
  let b: Node;
  const workers: Node[] = [];
  const clients: Client[] = [];
  const sockets: LiveClient[] = [];
  let owner: SeededUser;
  let firstTour = '';

  beforeAll(async () => {
    scratch = await createPostgresDatabase('rw_scale');
    databaseUrl = scratch.url;
    db = await openDatabase({ databaseUrl, dataDir: 'unused' }); // migrates before the nodes start

    s3dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-scale-s3-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3client = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });

    // Mail over SMTP: a real SMTP server on loopback; workers deliver what API nodes queue.
    smtp = await startSmtpInbox();

    // The account, written straight to the database (no node of ours is needed for that).
    const seeder = { services: { db: db.db, tokens: createTokenService(jwtSecret, 3600, Date.now) } } as unknown as App;
    owner = await seedUser(seeder, { plan: 'pro' });

    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      DATA_DIR: s3dir, // nothing is written there: files go to the bucket
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Roomwalk <no-reply@roomwalk.test>',
      RATE_LIMIT_DISABLED: 'true',
      ICE_SERVERS: '[]',
      // A job whose worker died is presumed dead when its lease runs out: 8 s after its last heartbeat (every second
      // here); a live attempt's heartbeat keeps it however long the machine makes it. The expiry is the whole
      // allowance of an attempt (a 12 s video processes in a few seconds here, over 30 s when the machine is loaded).
      PROCESSING_EXPIRE_SECONDS: '120',
      PROCESSING_LEASE_SECONDS: '8',
      PROCESSING_HEARTBEAT_SECONDS: '1',
      PROCESSING_RETRY_DELAY_SECONDS: '0',
      PROCESSING_RETRY_LIMIT: '5',
      SHUTDOWN_TIMEOUT_SECONDS: '3',
      // The queue expires jobs whose lease ran out in its maintenance: every second here, not every ten.
      JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
    };
    const hang = { ...env, SCALE_HANG_DIR: await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-scale-hang-')) };
    hangEnv = hang;
    const started = await Promise.all([
      startNode('api-a', 'api', env),
      startNode('api-b', 'api', env),
      startNode('worker-1', 'worker', hang),
      startNode('worker-2', 'worker', hang),
    ]);
    [a, b] = [started[0]!, started[1]!];
    workers.push(started[2]!, started[3]!);
  });

  afterAll(async () => {
    for (const c of clients) await c.dispose();
    for (const s of sockets) s.close();
    await Promise.all([a, b, ...workers].map((n) => kill(n, 'SIGKILL')));
    await db?.close();
    await s3?.close();
    await smtp?.close();
    await scratch?.drop();
    if (s3dir) await fs.rm(s3dir, { recursive: true, force: true });
    if (hangEnv.SCALE_HANG_DIR) await fs.rm(hangEnv.SCALE_HANG_DIR, { recursive: true, force: true });
  });

  const bucketKeys = async (prefix: string) => {
    const out = await s3client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  };

  it('uploads through node A, reports progress through node B, survives a worker SIGKILLed mid-job, finishes exactly once', async () => {
    const { tourId, key } = await uploadThrough(a.url, owner.token, await fs.readFile(await landscapeVideo(12)));
    const id = tourId.replace(/^tour_/, '');
    firstTour = tourId;

    const client = createClient({
      url: `${b.url.replace('http', 'ws')}/query`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${owner.token}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const watch = watchProgress(client, tourId);
    // Prove the subscription on node B is live before the work that must reach it: a NOTIFY from this third process.
    const probe = JSON.stringify({
      topic: `tourProgress:${id}`,
      payload: { progress: 0, status: 'PROCESSING', text: 'probe', thumbnailURL: null },
    });
    await waitFor(
      async () => {
        await sql`SELECT pg_notify('roomwalk_events', ${probe})`.execute(db.db);
        return watch.events.some((e) => e.text === 'probe');
      },
      'subscription on node B live',
      30_000,
      200,
    );

    const hung = await waitFor(
      async () => workers.find((w) => w.output.some((l) => l.startsWith('HANGING'))),
      'a worker mid-job',
      120_000,
    ).catch(async (err: Error) => {
      const row = await db.db
        .selectFrom('tours')
        .select(['status', 'processing_attempt', 'progress_text'])
        .where('id', '=', id)
        .executeTakeFirst();
      const jobs = await sql`SELECT state, retry_count, output FROM pgboss.job WHERE name = 'process-tour'`.execute(
        db.db,
      );
      throw new Error(
        `${err.message}; tour ${JSON.stringify(row)}; jobs ${JSON.stringify(jobs.rows).slice(0, 1500)}; workers:\n${workers.map((w) => `${w.name}: ${w.output.join('\n').slice(-1500)}`).join('\n')}`,
      );
    });
    const survivor = workers.find((w) => w !== hung)!;
    console.info(`scale proof: ${hung.name} is SIGKILLed mid-job; ${survivor.name} is left`);
    await kill(hung, 'SIGKILL');
    expect(hung.proc.signalCode).toBe('SIGKILL');

    const events = await watch.final;
    const real = events.filter((e) => e.text !== 'probe');
    expect(real.at(-1)!.status).toBe('PROCESSED');
    expect(real.filter((e) => e.status === 'PROCESSED')).toHaveLength(1);
    expect(real.some((e) => e.status === 'PROCESSING')).toBe(true); // progress from a worker reached node B
    const progress = real.map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((x, y) => x - y)); // never backwards across the retry

    const tour = await db.db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(tour.status).toBe('PROCESSED');
    // The killed attempt was not the last (attempt 1 on a quiet machine; a loaded one may also see attempts cut by the
    // expiry).
    const killedAttempt = Number(/\/v(\d+)\//.exec(hung.output.find((l) => l.startsWith('HANGING'))!)![1]);
    expect(tour.processing_attempt).toBeGreaterThan(killedAttempt);
    expect(tour.clips_version).toBe(tour.processing_attempt);
    expect(
      (await db.db.selectFrom('tour_logs').select('status').where('tour_id', '=', id).execute()).map((l) => l.status),
    ).toEqual(['PROCESSED']);
    // pg-boss records completion once the handler has returned (just after the PROCESSED event).
    const jobs = await waitFor(
      async () => {
        const r = await sql<{
          state: string;
        }>`SELECT state FROM pgboss.job WHERE name = 'process-tour' AND data->>'tourId' = ${id}`.execute(db.db);
        return r.rows.every((j) => j.state !== 'active') ? r.rows : null;
      },
      'job settled',
      15_000,
    );
    expect(jobs.map((j) => j.state)).toEqual(['completed']);

    // One clip set in the bucket, and nothing else under the tour: the dead attempt's half-written folder is gone.
    const clips = await db.db.selectFrom('clips').select(['high_key', 'low_key']).where('tour_id', '=', id).execute();
    expect(clips.length).toBeGreaterThan(1);
    const expected = [...clips.flatMap((c) => [c.high_key, c.low_key]), tour.thumbnail_key!].sort();
    await waitFor(
      async () => (await bucketKeys(`tours/${id}/`)).every((k) => k.startsWith(`tours/${id}/v${tour.clips_version}/`)),
      'old attempts removed',
      15_000,
    );
    expect(await bucketKeys(`tours/${id}/`)).toEqual(expected);
    expect(await bucketKeys('uploads/')).toEqual([key]); // the source video, kept by the tour
    expect(tour.video_key).toBe(key);

    // The public tour query on node B answers with bucket URLs that serve byte ranges.
    const pub = await gql(b.url, Q.tour, { id: tourId });
    expect(pub.errors).toBeUndefined();
    expect(pub.data.tour.clips).toHaveLength(clips.length);
    const clip = await fetch(pub.data.tour.clips[0].highURI, { headers: { Range: 'bytes=0-99' } });
    expect(clip.status).toBe(206);
    expect((await clip.arrayBuffer()).byteLength).toBe(100);
    workers.splice(workers.indexOf(hung), 1);
  }, 300_000);

  it('syncs scrolling between a host on node A and a viewer on node B; the lead left on B reaches the agent on A and by SMTP', async () => {
    // The console's lead notices, subscribed on node A (live once a probe NOTIFY from this process arrives).
    const client = createClient({
      url: `${a.url.replace('http', 'ws')}/query`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${owner.token}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const notices: Array<{ id: string; name: string }> = [];
    client.subscribe<{ tourLeadCreated: { id: string; name: string } }>(
      { query: 'subscription { tourLeadCreated { id name } }' },
      {
        next: (v) => void (v.data && notices.push(v.data.tourLeadCreated)),
        error: () => undefined,
        complete: () => undefined,
      },
    );
    const probe = JSON.stringify({ topic: `leadCreated:${owner.user.id}`, payload: { id: 'probe', name: 'probe' } });
    await waitFor(
      async () => {
        await sql`SELECT pg_notify('roomwalk_events', ${probe})`.execute(db.db);
        return notices.some((n) => n.name === 'probe');
      },
      'lead notices on node A live',
      30_000,
      200,
    );

    const lead = await gql(b.url, LEAD_MUTATION, { input: leadInput(firstTour) });
    expect(lead.errors).toBeUndefined();
    const token = lead.data.tourLeadCreate.viewingSessionRequest.signalingToken as string;
    const viewer = connect(wsUrl(b.url, { tourId: firstTour, token }));
    sockets.push(viewer);
    const vw = await viewer.next((m) => m.type === 'roomwalk_welcome', 'viewer welcome');
    const host = connect(wsUrl(a.url, { tourId: firstTour, session: sessionOf(token), token: owner.token }));
    sockets.push(host);
    const hw = await host.next((m) => m.type === 'roomwalk_welcome', 'host welcome');
    await host.next(
      (m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === vw.peerId,
      'viewer introduced to the host',
    );
    await viewer.next(
      (m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === hw.peerId,
      'host announced to the viewer',
    );

    const frames = Array.from({ length: 40 }, (_, i) => i * 2);
    for (const frameIndex of frames) host.send({ type: 'roomwalk_scrolling', tourId: firstTour, data: { frameIndex } });
    await viewer.next(
      (m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex === frames.at(-1),
      'last frame on node B',
    );
    expect(viewer.messages.filter((m) => m.type === 'roomwalk_scrolling').map((m) => m.data.frameIndex)).toEqual(
      frames,
    );
    viewer.send({ type: 'roomwalk_scrolling', tourId: firstTour, data: { frameIndex: 7 } });
    expect((await host.next((m) => m.type === 'roomwalk_scrolling', 'viewer scroll on node A')).data.frameIndex).toBe(
      7,
    );

    const leadId = lead.data.tourLeadCreate.tourLead.id as string;
    expect(
      (await waitFor(async () => notices.find((n) => n.id === leadId), 'lead notice on node A', 15_000)).name,
    ).toBe('Vera');
    const mail = await waitFor(
      async () => smtp.inbox.find((m) => m.to.includes(owner.user.username)),
      'lead mail delivered over SMTP by a worker',
      30_000,
    );
    expect(mail.raw).toContain('Vera');
  }, 300_000);

  it('SIGTERM: a worker mid-job hands the job back and exits 0; another worker finishes the tour', async () => {
    workers.push(await startNode('worker-3', 'worker', hangEnv));
    const { tourId } = await uploadThrough(b.url, owner.token, await fs.readFile(await landscapeVideo(12)));
    const id = tourId.replace(/^tour_/, '');
    const hung = await waitFor(
      async () => workers.find((w) => w.output.some((l) => l.startsWith(`HANGING tours/${id}/`))),
      'a worker mid-job',
      120_000,
    );
    hung.proc.kill('SIGTERM');
    expect((await hung.exited).code).toBe(0);
    workers.splice(workers.indexOf(hung), 1);

    const tour = await waitFor(
      async () => {
        const row = await db.db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return row.status !== 'PROCESSING' ? row : null;
      },
      'the tour finished by the other worker',
      120_000,
      250,
    );
    expect(tour.status).toBe('PROCESSED');
    expect(tour.clips_version).toBe(tour.processing_attempt);
    const jobs = await waitFor(
      async () => {
        const r = await sql<{
          state: string;
          retry_count: number;
        }>`SELECT state, retry_count FROM pgboss.job WHERE name = 'process-tour' AND data->>'tourId' = ${id}`.execute(
          db.db,
        );
        return r.rows.every((j) => j.state !== 'active') ? r.rows : null;
      },
      'job settled',
      15_000,
    );
    // One job, retried: by the stop's hand-back (SHUTDOWN_TIMEOUT_SECONDS=3, well before the 120 s expiry).
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.state).toBe('completed');
    expect(jobs[0]!.retry_count).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => (await bucketKeys(`tours/${id}/`)).every((k) => k.startsWith(`tours/${id}/v${tour.clips_version}/`)),
      'handed-back attempt removed',
      15_000,
    );
  }, 300_000);

  it('SIGTERM: an API node closes its sockets with 1001, finishes the request in flight, and exits 0', async () => {
    // A graphql-ws subscription and a live viewing socket on node A.
    const sub = new WebSocket(`${a.url.replace('http', 'ws')}/query`, 'graphql-transport-ws');
    const subClosed = new Promise<number>((resolve) => sub.once('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => sub.once('open', () => resolve()));
    sub.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${owner.token}` } }));
    await new Promise<void>((resolve) => sub.once('message', () => resolve())); // connection_ack
    const lead = await gql(a.url, LEAD_MUTATION, { input: leadInput(firstTour) });
    const viewer = connect(
      wsUrl(a.url, { tourId: firstTour, token: lead.data.tourLeadCreate.viewingSessionRequest.signalingToken }),
    );
    await viewer.next((m) => m.type === 'roomwalk_welcome', 'viewer welcome');

    // A request in flight: half its body sent before the signal, the rest after.
    const body = JSON.stringify({ query: Q.tour, variables: { id: firstTour } });
    const port = Number(new URL(a.url).port);
    let inFlight: http.ClientRequest | undefined;
    let connected = false;
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/query',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        },
      );
      req.on('error', reject);
      req.on('socket', (s) => s.once('connect', () => (connected = true)));
      req.write(body.slice(0, 20));
      inFlight = req;
    });
    await waitFor(async () => connected, 'request connected', 5_000, 10);
    // Connections are accepted in order: once a later one is answered, the half request's connection is the server's.
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);

    a.proc.kill('SIGTERM');
    expect(await subClosed).toBe(1001);
    expect((await viewer.closed).code).toBe(1001);
    inFlight!.end(body.slice(20));
    const res = await answered;
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { data: { tour: { id: string } } }).data.tour.id).toBe(firstTour);
    expect(await a.exited).toEqual({ code: 0, signal: null });
    await expect(fetch(`${a.url}/healthz`)).rejects.toThrow();
    // Node B still serves.
    expect((await gql(b.url, Q.tour, { id: firstTour })).data.tour.id).toBe(firstTour);
  });
});
