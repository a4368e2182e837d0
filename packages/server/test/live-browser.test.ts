/**
 * Two headless Chromium pages (Debian's, fake camera and microphone) on loopback: the visitor leaves details and
 * asks for the agent, the agent is told (subscription and mail) and joins as host, video flows both ways, the host
 * scrolls and the visitor follows, the socket drops and comes back, and the permission refusal paths.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { eventually, leadInput, LEAD_MUTATION, seedTour } from './fixtures/live-helpers.js';
import { startPageServer, type PageServer } from './fixtures/live-page.js';

// Page globals, used inside page.evaluate callbacks (the server project has no DOM types).
declare const window: any;
declare const localStorage: { getItem(k: string): string | null; setItem(k: string, v: string): void };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];

const HOST_REQUEST = `query($id: ID!, $session: ID) { tour(tourID: $id) { viewingSessionRequest(session: $session) { rtcToken signalingToken appId viewingSessionUserId expireTime } } }`;

describe.skipIf(!fs.existsSync(CHROMIUM))('live viewing between two browsers', () => {
  let t: TestApp;
  let pages: PageServer;
  let browser: Browser;
  /** Without the fake-UI flag, which accepts every prompt: here a permission not granted is refused. */
  let strictBrowser: Browser;
  let agent: SeededUser;
  let tour: { id: string; globalId: string };
  const contexts: BrowserContext[] = [];

  async function openPage(permissions: string[] = ['camera', 'microphone'], on: Browser = browser): Promise<Page> {
    const context = await on.newContext();
    contexts.push(context);
    await context.grantPermissions(permissions, { origin: pages.url });
    const page = await context.newPage();
    await page.goto(pages.url);
    await page.waitForFunction(() => window.ready === true);
    return page;
  }

  /** Leaves details from the page as the lead form does, keeps the lead as capturedDetails, answers the session. */
  async function leaveDetails(page: Page): Promise<any> {
    return page.evaluate(
      async ({ query, input }) => {
        const res = await window.gql(query, { input });
        if (res.errors) throw new Error(JSON.stringify(res.errors));
        localStorage.setItem('capturedDetails', JSON.stringify(res.data.tourLeadCreate.tourLead));
        return res.data.tourLeadCreate.viewingSessionRequest;
      },
      { query: LEAD_MUTATION, input: leadInput(tour.globalId) },
    );
  }

  const setup = (page: Page, args: { role: 'host' | 'viewer'; request: unknown; session?: string }) =>
    page.evaluate((a) => window.setup(a), { ...args, url: t.url, tourId: tour.globalId });

  beforeAll(async () => {
    t = await startTestApp('pglite', { ICE_SERVERS: '[]', RATE_LIMIT_DISABLED: true });
    agent = await seedUser(t.app, { name: 'Anna' });
    tour = await seedTour(t.app, agent);
    pages = await startPageServer(t.url);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    strictBrowser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS.filter((a) => a !== '--use-fake-ui-for-media-stream'),
    });
  });

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await strictBrowser?.close();
    await pages?.close();
    await t?.stop();
  });

  it('connects visitor and agent: notice, video both ways, scroll sync, socket drop and reconnect', async () => {
    // The agent's console listens for leads; make sure the subscription is live before the visitor acts.
    const leads: Array<{ name: string; leadType: string }> = [];
    const sub = t.wsClient(agent.token);
    sub.subscribe<{ tourLeadCreated: { name: string; leadType: string } }>(
      { query: 'subscription { tourLeadCreated { name leadType } }' },
      { next: (v) => v.data && leads.push(v.data.tourLeadCreated), error: () => undefined, complete: () => undefined },
    );
    await eventually(async () => {
      await t.gql(LEAD_MUTATION, { input: leadInput(tour.globalId, { name: 'Probe', leadType: 'CONTACT' }) });
      return leads.length > 0 ? true : new Promise<null>((r) => setTimeout(() => r(null), 150));
    }, 'the lead subscription');

    const viewer = await openPage();
    const host = await openPage();

    // Visitor: "Talk to Agent" → lead form → session; the call starts and sync turns on with it.
    const viewerRequest = await leaveDetails(viewer);
    expect(await viewer.evaluate(() => JSON.parse(localStorage.getItem('capturedDetails')!).name)).toBe('Vera');
    await setup(viewer, { role: 'viewer', request: viewerRequest });
    await viewer.evaluate(() => {
      void window.call.controller.start();
      window.call.sync.enable();
    });
    await viewer.waitForFunction(() => window.t.states.includes('CONNECTED'));
    expect(await viewer.evaluate(() => window.t.panelText)).toBe('Waiting on Agent...');

    // Agent: told at once (subscription), the mail's link names the session; "Go Live" as host.
    await eventually(
      async () => leads.find((l) => l.name === 'Vera' && l.leadType === 'LIVE_VIEWING'),
      'the live lead notice',
    );
    const mail = await eventually(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('subject', 'like', 'Vera Visitor is waiting%')
          .executeTakeFirst(),
      'the mail to the agent',
    );
    const link = new URL((mail.links as string[])[0]!);
    expect(link.pathname).toBe('/agentplayer');
    const session = link.searchParams.get('session')!;
    const hostRequest = await host.evaluate(
      async ({ query, id, session, token }) =>
        (await window.gql(query, { id, session }, token)).data.tour.viewingSessionRequest,
      {
        query: HOST_REQUEST,
        id: tour.globalId,
        session,
        token: agent.token,
      },
    );
    await setup(host, { role: 'host', request: hostRequest, session });
    await host.evaluate(() => {
      void window.call.controller.start();
      window.call.sync.enable();
    });

    // Video both ways: frames are presented on each side's remote <video>.
    const framesFlow = (p: Page) =>
      p.waitForFunction(() => window.t.remoteVideoFrames > 15, undefined, { timeout: 30_000 });
    await Promise.all([framesFlow(viewer), framesFlow(host)]);
    expect(await host.evaluate(() => window.t.panelText)).toBe('');
    expect(await viewer.evaluate(() => window.t.panelText)).toBe('');

    // The host scrubs; the visitor's frame follows (callback and window message for the player).
    await host.evaluate(() => {
      for (const f of [10, 11, 12, 13, 120]) window.call.sync.sendFrame(f);
    });
    await viewer.waitForFunction(() => window.t.frames.at(-1) === 120 && window.t.markers.at(-1) === 120);
    expect(await viewer.evaluate(() => window.call.sync.isSyncActive)).toBe(true);

    // The server drops every socket: both reconnect (3 s later), sync works again, the call stays up.
    const before = await viewer.evaluate(() => window.t.remoteVideoFrames);
    t.app.app.liveRooms.closeAll(1012, 'Service restart');
    await Promise.all(
      [viewer, host].map((p) =>
        p.waitForFunction(
          () => {
            const s: string[] = window.t.statuses;
            const i = s.indexOf('reconnecting 1');
            return i >= 0 && s.slice(i).includes('open');
          },
          undefined,
          { timeout: 20_000 },
        ),
      ),
    );
    expect(await viewer.evaluate(() => window.t.states)).toContain('RECONNECTING 1');
    await host.evaluate(() => window.call.sync.sendFrame(200));
    await viewer.waitForFunction(() => window.t.frames.at(-1) === 200);
    await viewer.waitForFunction((n) => window.t.remoteVideoFrames > n + 15, before);
    expect(await viewer.evaluate(() => window.t.states.at(-1))).toBe('CONNECTED');

    // Toggle: sync off stops following without cutting the call; on again follows.
    expect(await viewer.evaluate(() => window.call.sync.toggle())).toBe(false);
    await host.evaluate(() => window.call.sync.sendFrame(300));
    // The socket (kept by the call) still receives it; sync no longer acts on it.
    await viewer.waitForFunction(() => window.t.rawScrolls.includes(300));
    expect(await viewer.evaluate(() => window.t.frames.includes(300))).toBe(false);
    expect(await viewer.evaluate(() => window.call.sync.toggle())).toBe(true);
    await viewer.waitForFunction(() => window.call.sync.isSyncActive);
    await host.evaluate(() => window.call.sync.sendFrame(310));
    await viewer.waitForFunction(() => window.t.frames.at(-1) === 310);
    expect(await viewer.evaluate(() => window.call.controller.snapshot.state)).toBe('CONNECTED');

    // Leaving: the host's panel goes back to waiting for a viewer.
    await viewer.evaluate(() => window.call.controller.reset());
    await host.waitForFunction(() => window.t.panelText === 'Waiting on Viewer...');
    expect(await viewer.evaluate(() => window.t.states.at(-1))).toBe('DISCONNECTED');

    // Retry: a new call from the same visitor is offered afresh by the waiting host.
    const hostFrames = await host.evaluate(() => window.t.remoteVideoFrames);
    await viewer.evaluate(() => void window.call.controller.retry());
    await host.waitForFunction((n) => window.t.panelText === '' && window.t.remoteVideoFrames > n + 15, hostFrames, {
      timeout: 30_000,
    });
  });

  it('goes on with audio only when the camera is refused, and stops when both are', async () => {
    const audioOnly = await openPage(['microphone'], strictBrowser);
    await setup(audioOnly, { role: 'viewer', request: await leaveDetails(audioOnly) });
    await audioOnly.evaluate(() => window.call.controller.start());
    await audioOnly.waitForFunction(() => window.t.states.includes('CONNECTED'));
    expect(await audioOnly.evaluate(() => window.t.warnings)).toEqual([ERROR_TEXTS.cameraDenied]);
    expect(await audioOnly.evaluate(() => window.t.audioOnly)).toBe(true);

    const videoOnly = await openPage(['camera'], strictBrowser);
    await setup(videoOnly, { role: 'viewer', request: await leaveDetails(videoOnly) });
    await videoOnly.evaluate(() => window.call.controller.start());
    await videoOnly.waitForFunction(() => window.t.states.includes('CONNECTED'));
    expect(await videoOnly.evaluate(() => window.t.warnings)).toEqual([ERROR_TEXTS.micDenied]);

    const none = await openPage([], strictBrowser);
    await setup(none, { role: 'viewer', request: await leaveDetails(none) });
    await none.evaluate(() => window.call.controller.start());
    await none.waitForFunction(() => window.t.states.includes('PERMISSION_DENIED'));
    expect(
      await none.evaluate(() => ({ warnings: window.t.warnings, error: window.t.error, panel: window.t.panelText })),
    ).toEqual({
      warnings: [ERROR_TEXTS.bothDenied],
      error: ERROR_TEXTS.permissionsRequired,
      panel: 'Camera/Mic Permission Denied',
    });
    expect(await none.evaluate(() => window.call.controller.snapshot.canRetry)).toBe(true);
  });
});
