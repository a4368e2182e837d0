/**
 * The browser module's socket logic, run in Node against the real server (bundled as the browser gets it, with `ws`
 * standing in for the browser WebSocket): throttle and pending flush, echo guard, final close texts, reconnects.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { createLead, eventually, participantToken, seedTour } from './fixtures/live-helpers.js';
import { bundleLiveCall } from './fixtures/live-page.js';
import { createSignalingTokens } from '../src/services/live/signaling-token.js';

type LiveModule = any;

describe('live-call module: scroll sync and socket', () => {
  let t: TestApp;
  let live: LiveModule;
  let tour: { id: string; globalId: string };
  let dir: string;
  const syncs: Array<{ destroy(): void }> = [];

  beforeAll(async () => {
    t = await startTestApp('pglite', { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    tour = await seedTour(t.app, await seedUser(t.app));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-live-call-'));
    const file = path.join(dir, 'live-call.mjs');
    fs.writeFileSync(file, await bundleLiveCall());
    live = await import(pathToFileURL(file).href);
  });
  afterAll(async () => {
    for (const s of syncs) s.destroy();
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function sync(token: string, extra: Record<string, unknown> = {}) {
    const frames: number[] = [];
    const statuses: string[] = [];
    const s = live.createScrollSync({
      url: t.url,
      tourId: tour.globalId,
      token,
      WebSocketImpl: WebSocket,
      onRemoteFrame: (f: number) => frames.push(f),
      onStatus: (st: { state: string; attempt?: number; message?: string }) =>
        statuses.push(`${st.state}${st.attempt ? ` ${st.attempt}` : ''}${st.message ? `: ${st.message}` : ''}`),
      ...extra,
    });
    syncs.push(s);
    return { s, frames, statuses };
  }

  it('sends the first frame at once, holds the rest of a burst and sends the last after the flush; never echoes', async () => {
    const lead = await createLead(t, tour.globalId);
    const a = sync(lead.token);
    // Two people: one socket per participant (a second socket of one token replaces the first).
    const b = sync(await participantToken(t.app, tour.id, lead.session, 'viewer-second-person'));
    await eventually(async () => a.s.isSyncActive && b.s.isSyncActive, 'both open');
    // Both sockets in the room before the burst.
    await eventually(async () => t.app.app.liveRooms.size >= 2, 'both in the room');
    for (let f = 0; f < 10; f++) a.s.sendFrame(f);
    await eventually(async () => b.frames.at(-1) === 9, 'the pending frame');
    expect(b.frames).toEqual([0, 9]);
    // b was moved to 9 by a: b's player reporting 9 must not bounce it back.
    b.s.sendFrame(9);
    b.s.sendFrame(40);
    await eventually(async () => a.frames.at(-1) === 40, "b's own frame");
    expect(a.frames).toEqual([40]);
    expect(a.statuses[0]).toBe('connecting');
    expect(a.statuses).toContain('open');
  });

  it('toggle closes and reopens sync', async () => {
    const lead = await createLead(t, tour.globalId);
    const a = sync(lead.token);
    await eventually(async () => a.s.isSyncActive, 'open');
    expect(a.s.toggle()).toBe(false);
    expect(a.s.isSyncActive).toBe(false);
    expect(a.statuses.at(-1)).toBe('closed');
    expect(a.s.toggle()).toBe(true);
    await eventually(async () => a.s.isSyncActive, 'open again');
  });

  it("fails at once with the spec's text on a refused token or an expired session, without reconnecting", async () => {
    const bad = sync('not-a-token');
    await eventually(async () => bad.statuses.find((s) => s.startsWith('failed')), 'failure');
    expect(bad.statuses).toEqual(['connecting', 'failed: Connection error: 4001']);
    const lead = await createLead(t, tour.globalId);
    const expired = await createSignalingTokens(t.app.config.jwtSecret, Date.now).sign({
      tourId: tour.id,
      sessionId: lead.session,
      role: 'viewer',
      userId: 'viewer-z',
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    const old = sync(expired);
    await eventually(async () => old.statuses.find((s) => s.startsWith('failed')), 'failure');
    expect(old.statuses).toEqual(['connecting', `failed: ${ERROR_TEXTS.sessionExpired}`]);
  });

  it("a socket replaced by the same person's newer one (another tab) fails with its text and does not reconnect", async () => {
    const lead = await createLead(t, tour.globalId);
    const first = sync(lead.token, { reconnectDelayMs: 50 });
    await eventually(async () => first.s.isSyncActive, 'first open');
    const second = sync(lead.token, { reconnectDelayMs: 50 });
    await eventually(async () => first.statuses.find((s) => s.startsWith('failed')), 'the first replaced');
    expect(first.statuses).toEqual(['connecting', 'open', `failed: ${ERROR_TEXTS.liveReplaced}`]);
    // The newer tab keeps the room: the older one did not come back to take it.
    await eventually(async () => second.s.isSyncActive, 'second open');
    second.s.sendFrame(12);
    await eventually(async () => second.statuses.includes('open'), 'second welcomed');
    expect(second.statuses.filter((s) => s.startsWith('failed') || s.startsWith('reconnecting'))).toEqual([]);
    expect(first.s.isSyncActive).toBe(false);
  });

  it('reconnects after a drop, and gives up after 3 attempts with "Failed to reconnect after multiple attempts"', async () => {
    const lead = await createLead(t, tour.globalId);
    const a = sync(lead.token, { reconnectDelayMs: 50 });
    await eventually(async () => a.s.isSyncActive, 'open');
    t.app.app.liveRooms.closeAll(1012, 'Service restart');
    await eventually(
      async () => a.statuses.slice(a.statuses.indexOf('reconnecting 1')).includes('open') && a.s.isSyncActive,
      'reopened',
    );

    // A server that is gone: nothing listens on this port any more.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const gone = sync(lead.token, { url: `http://127.0.0.1:${port}`, reconnectDelayMs: 50 });
    await eventually(async () => gone.statuses.find((s) => s.startsWith('failed')), 'giving up');
    expect(gone.statuses).toEqual([
      'connecting',
      'reconnecting 1',
      'reconnecting 2',
      'reconnecting 3',
      `failed: ${ERROR_TEXTS.reconnectFailed}`,
    ]);
    expect(gone.s.isSyncActive).toBe(false);
  });
});
