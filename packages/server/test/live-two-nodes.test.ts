/**
 * Rooms across API nodes: two server processes on loopback sharing one PostgreSQL database (LISTEN/NOTIFY), and the
 * same over Redis when redis-server is installed. A viewer on one node and the host on the other hear each other.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/database.js';
import { createTokenService } from '../src/auth/tokens.js';
import { createPostgresDatabase } from './helpers/test-app.js';
import { freePort, jsonLine, startFixture, startProcess, stopProcess } from './helpers/processes.js';
import {
  connect,
  firstN,
  LEAD_MUTATION,
  leadInput,
  sessionOf,
  wsUrl,
  type LiveClient,
} from './fixtures/live-helpers.js';
import { LIVE_CLOSE_CODES } from '@roomwalk/shared';

const base = process.env.TEST_DATABASE_URL;
const redisServer = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => fs.existsSync(p));

interface Node {
  url: string;
  proc: ChildProcess;
}

async function startNode(env: Record<string, string>): Promise<Node> {
  const child = startFixture(
    'live-node.ts',
    { NODE_ENV: 'test', LOG_LEVEL: 'error', ROLE: 'api', ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: 'true', ...env },
    (line) => jsonLine<{ url: string }>(line, 'url'),
  );
  return { url: (await child.ready).url, proc: child.proc };
}

async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const child = startProcess(
    redisServer!,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    process.env,
    (line) => (line.includes('Ready to accept connections') ? true : undefined),
  );
  await child.ready;
  return { url: `redis://127.0.0.1:${port}`, proc: child.proc };
}

const buses = [
  { bus: 'PostgreSQL NOTIFY', redis: false },
  ...(redisServer ? [{ bus: 'Redis pub/sub', redis: true }] : []),
];

describe.skipIf(!base).each(buses)('live rooms across two server processes over $bus', ({ redis }) => {
  const jwtSecret = randomBytes(24).toString('hex');
  let scratch: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-live-'));
  let databaseUrl = '';
  let db: Db;
  let a: Node | undefined;
  let b: Node | undefined;
  let redisProc: ChildProcess | undefined;
  const clients: LiveClient[] = [];
  let tourGlobalId = '';
  let hostToken = '';

  beforeAll(async () => {
    scratch = await createPostgresDatabase('rw_live');
    databaseUrl = scratch.url;
    // Migrate once here, so the nodes start on a ready schema; then seed the agent and a processed tour.
    db = await openDatabase({ databaseUrl, dataDir: 'unused' });
    const company = await db.db
      .insertInto('companies')
      .values({ name: 'Two nodes' })
      .returningAll()
      .executeTakeFirstOrThrow();
    const user = await db.db
      .insertInto('users')
      .values({
        username: `agent-${scratch.name}@example.com`,
        password_hash: null,
        company_id: company.id,
        activated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const tour = await db.db
      .insertInto('tours')
      .values({ company_id: company.id, owner_id: user.id, title: 'Two nodes', status: 'PROCESSED' })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    tourGlobalId = `tour_${tour.id}`;
    hostToken = await createTokenService(jwtSecret, 3600, Date.now).sign({
      userId: user.id,
      companyId: company.id,
      roles: [],
    });
    const env: Record<string, string> = { DATABASE_URL: databaseUrl, JWT_SECRET: jwtSecret, DATA_DIR: dataDir };
    if (redis) {
      const r = await startRedis();
      redisProc = r.proc;
      env.REDIS_URL = r.url;
    }
    [a, b] = await Promise.all([startNode(env), startNode(env)]);
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await Promise.all([stopProcess(a?.proc), stopProcess(b?.proc)]);
    await stopProcess(redisProc);
    await db?.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('joins a viewer on node A and the host on node B into one room: presence, scrolls in order, chunked signalling, leave', async () => {
    const { token, session } = await lead();

    const viewer = connect(wsUrl(a!.url, { tourId: tourGlobalId, token }));
    clients.push(viewer);
    const vw = await viewer.next((m) => m.type === 'roomwalk_welcome', 'viewer welcome');
    const host = connect(wsUrl(b!.url, { tourId: tourGlobalId, session, token: hostToken }));
    clients.push(host);
    const hw = await host.next((m) => m.type === 'roomwalk_welcome', 'host welcome');
    expect(hw.peers).toEqual([]); // the viewer is on the other node: it arrives as peer_joined
    await host.next(
      (m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === vw.peerId,
      'viewer introduced to host',
    );
    await viewer.next(
      (m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === hw.peerId,
      'host announced to viewer',
    );

    const frames = Array.from({ length: 60 }, (_, i) => i * 1.5);
    for (const frameIndex of frames)
      host.send({ type: 'roomwalk_scrolling', tourId: tourGlobalId, data: { frameIndex } });
    await viewer.next((m) => m.type === 'roomwalk_scrolling' && m.data.frameIndex === frames.at(-1), 'last frame');
    expect(viewer.messages.filter((m) => m.type === 'roomwalk_scrolling').map((m) => m.data.frameIndex)).toEqual(
      frames,
    );

    viewer.send({ type: 'roomwalk_scrolling', tourId: tourGlobalId, data: { frameIndex: 9 } });
    expect((await host.next((m) => m.type === 'roomwalk_scrolling', 'viewer scroll')).data.frameIndex).toBe(9);

    // An SDP offer bigger than one NOTIFY payload (8000 bytes) crosses in chunks.
    const sdp = `v=0\r\n${'a=candidate:0 1 udp 2122260223 192.168.1.10 50000 typ host\r\n'.repeat(200)}`;
    host.send({ type: 'roomwalk_signal', to: vw.peerId, data: { kind: 'offer', sdp } });
    const offer = await viewer.next((m) => m.type === 'roomwalk_signal', 'offer');
    expect(offer.data.sdp).toBe(sdp);
    expect(offer.from).toBe(hw.peerId);

    viewer.close();
    await host.next((m) => m.type === 'roomwalk_peer_left' && m.peer.peerId === vw.peerId, 'viewer left');
  });

  async function lead(): Promise<{ token: string; session: string }> {
    const res = await fetch(`${a!.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: LEAD_MUTATION, variables: { input: leadInput(tourGlobalId) } }),
    });
    const body = (await res.json()) as {
      data: { tourLeadCreate: { viewingSessionRequest: { signalingToken: string } } };
    };
    const token = body.data.tourLeadCreate.viewingSessionRequest.signalingToken;
    return { token, session: sessionOf(token) };
  }
  const open = (url: string, q: Record<string, string>) => {
    const c = connect(wsUrl(url, q));
    clients.push(c);
    return c;
  };
  const welcomed = (c: LiveClient) => c.next((m) => m.type === 'roomwalk_welcome', 'welcome');
  const replaced = { code: LIVE_CLOSE_CODES.replaced, reason: 'Replaced by a newer connection' };

  it("keeps one socket per token across nodes: the visitor's token opened again on node B replaces its socket on node A", async () => {
    const { token, session } = await lead();
    const host = open(a!.url, { tourId: tourGlobalId, session, token: hostToken });
    await welcomed(host);
    const first = open(a!.url, { tourId: tourGlobalId, token });
    const fw = await welcomed(first);
    await host.next((m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === fw.peerId, 'first socket joined');

    const second = open(b!.url, { tourId: tourGlobalId, token });
    const sw = await welcomed(second);
    expect(await first.closed).toEqual(replaced);
    await host.next((m) => m.type === 'roomwalk_peer_left' && m.peer.peerId === fw.peerId, 'first socket left');
    await host.next((m) => m.type === 'roomwalk_peer_joined' && m.peer.peerId === sw.peerId, 'second socket joined');
    host.send({ type: 'roomwalk_scrolling', tourId: tourGlobalId, data: { frameIndex: 77 } });
    expect((await second.next((m) => m.type === 'roomwalk_scrolling', 'scroll on node B')).data.frameIndex).toBe(77);
    expect(second.ws.readyState).toBe(second.ws.OPEN);
  });

  it('leaves exactly one of two sockets of one token opened at once on the two nodes', async () => {
    const { token, session } = await lead();
    const host = open(a!.url, { tourId: tourGlobalId, session, token: hostToken });
    await welcomed(host);
    const pair = [open(a!.url, { tourId: tourGlobalId, token }), open(b!.url, { tourId: tourGlobalId, token })];
    const ids = (await Promise.all(pair.map(welcomed))).map((w) => w.peerId as string);
    const [gone] = await firstN(
      pair.map((c) => c.closed),
      1,
      'one of the pair replaced',
    );
    expect(gone!.value).toEqual(replaced);
    const kept = pair[1 - gone!.index]!;
    // The host hears the survivor's scrolls and the survivor the host's: it is in the room, and stays.
    await host.next(
      (m) => m.type === 'roomwalk_peer_left' && m.peer.peerId === ids[gone!.index],
      'replaced socket left',
    );
    kept.send({ type: 'roomwalk_scrolling', tourId: tourGlobalId, data: { frameIndex: 3 } });
    expect(
      (await host.next((m) => m.type === 'roomwalk_scrolling' && m.from === ids[1 - gone!.index], 'survivor scroll'))
        .data.frameIndex,
    ).toBe(3);
    host.send({ type: 'roomwalk_scrolling', tourId: tourGlobalId, data: { frameIndex: 4 } });
    expect((await kept.next((m) => m.type === 'roomwalk_scrolling', 'host scroll')).data.frameIndex).toBe(4);
    expect(kept.ws.readyState).toBe(kept.ws.OPEN);
  });
});
