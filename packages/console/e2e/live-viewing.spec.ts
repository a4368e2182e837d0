/**
 * Live viewing end to end against the real server and the built console, in two Chromium contexts with a
 * fake camera and microphone: the agent uploads a generated walkthrough and waits on / ; a visitor on /playerext
 * presses Talk to Agent and fills "Send notification for agent to join"; the agent's console shows the live notice,
 * Join opens /agentplayer as host in the visitor's call (no Go Live to press); both see the other's video playing; the agent moves through the tour and
 * the visitor's frame follows.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEV_TURNSTILE_TOKEN, ERROR_TEXTS } from '@roomwalk/shared';
import { dialog, mailLink, pathOf } from './support.js';

test.describe.configure({ mode: 'serial' });

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
];
const stamp = Date.now().toString(36);
const agentUser = { email: `live-${stamp}@example.com`, password: 'Walkthrough1', name: 'Anna', surname: 'Agent' };
const TITLE = `Live loft ${stamp}`;
const BASE = process.env.E2E_BASE_URL ?? '';

let browser: Browser;
let work: string;
let agentContext: BrowserContext;
let visitorContext: BrowserContext;
let agent: Page;
let visitor: Page;
let tourId = '';
let subscribed = false;

/** Reads from the live panel inside <tour-player>'s shadow root. */
const panelState = (p: Page) =>
  p.evaluate(() => {
    const player = document.querySelector('tour-player') as (HTMLElement & { currentFrame: number }) | null;
    const panel = player?.shadowRoot?.querySelector('tour-live-panel');
    const root = panel?.shadowRoot;
    const remote = root?.querySelector<HTMLVideoElement>('video.remote');
    return {
      frame: player?.currentFrame ?? -1,
      status: root?.querySelector('.status')?.textContent?.trim() ?? '',
      remotePlaying: !!remote && remote.readyState >= 2 && remote.videoWidth > 0 && !remote.paused,
      remoteTime: remote?.currentTime ?? 0,
      error: root?.querySelector('.error')?.textContent?.trim() ?? '',
    };
  });

test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rw-live-e2e-'));
  agentContext = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  visitorContext = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  for (const c of [agentContext, visitorContext]) await c.grantPermissions(['camera', 'microphone'], { origin: BASE });
  // Cookies declined up front: the consent banner would otherwise sit over the bottom of the player.
  for (const c of [agentContext, visitorContext])
    await c.addInitScript(() => localStorage.setItem('cookieConsent', 'false'));
  agent = await agentContext.newPage();
  visitor = await visitorContext.newPage();
  agent.on('pageerror', (e) => console.error('agent pageerror:', e.message));
  visitor.on('pageerror', (e) => console.error('visitor pageerror:', e.message));
  // The agent's graphql-ws socket: know when the tourLeadCreated subscription is on before the visitor acts.
  agent.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      if (String(payload).includes('tourLeadCreated')) subscribed = true;
    }),
  );
});

test.afterAll(async () => {
  await agentContext?.close();
  await visitorContext?.close();
  await browser?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the agent signs in and uploads a tour that gets processed', async () => {
  test.setTimeout(180_000);
  const video = path.join(work, 'walkthrough.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=12',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-y',
    video,
  ]);
  const res = await agent.request.post('/query', {
    data: {
      query: `mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }`,
      variables: {
        input: {
          username: agentUser.email,
          password: agentUser.password,
          name: agentUser.name,
          surname: agentUser.surname,
          acceptedTerms: true,
          turnstileToken: DEV_TURNSTILE_TOKEN,
        },
      },
    },
  });
  expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
  await agent.goto(pathOf(await mailLink(agent, agentUser.email, /\/account\/activate\?token=/)));
  await expect(agent.getByText(ERROR_TEXTS.activationSuccess)).toBeVisible();
  await agent.goto('/login');
  await agent.getByLabel('Email').fill(agentUser.email);
  await agent.getByLabel('Password').fill(agentUser.password);
  await agent.getByRole('button', { name: 'Log in with email' }).click();
  await agent.waitForURL((u) => u.pathname === '/');
  await agent.getByRole('button', { name: 'Add' }).click();
  await agent.waitForURL('**/upload');
  const chooser = agent.waitForEvent('filechooser');
  await agent.getByRole('button', { name: 'Upload a video' }).click();
  await (await chooser).setFiles(video);
  const info = dialog(agent, 'Tour Info');
  await expect(info).toBeVisible({ timeout: 30_000 });
  await info.getByLabel('Title').fill(TITLE);
  await info.getByRole('button', { name: 'Done' }).click();
  await agent.waitForURL((u) => u.pathname === '/');
  const processed = agent.locator('article.tour-card:not(.tour-card-processing):not(.tour-card-failed)', {
    hasText: TITLE,
  });
  await expect(processed).toHaveCount(1, { timeout: 150_000 });
  tourId = (await processed.getAttribute('data-tour-id')) ?? '';
  expect(tourId).toMatch(/^tour_/);
  await expect.poll(() => subscribed, { message: 'tourLeadCreated subscription on the agent page' }).toBe(true);
});

test('the visitor asks for the agent, the agent is told, joins, and both see video', async () => {
  test.setTimeout(120_000);
  await visitor.goto(`/playerext?tourId=${tourId}&liveViewing=true`);
  const talk = visitor.getByRole('button', { name: 'Talk to Agent' });
  await expect(talk).toBeVisible({ timeout: 30_000 });
  await talk.click();
  await expect(visitor.getByRole('heading', { name: 'Send notification for agent to join' })).toBeVisible();
  await visitor.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(visitor.getByText('Name is a required field.')).toBeVisible();
  await visitor.getByLabel('Name', { exact: true }).fill('Vera');
  await visitor.getByLabel('Surname').fill('Visitor');
  await visitor.getByLabel('Email').fill(`vera-${stamp}@example.com`);
  await visitor.getByRole('button', { name: 'Send', exact: true }).click();
  await expect.poll(async () => (await panelState(visitor)).status, { timeout: 30_000 }).toBe('Waiting on Agent...');
  const captured = await visitor.evaluate(
    () => JSON.parse(localStorage.getItem('capturedDetails') ?? 'null') as { name?: string } | null,
  );
  expect(captured?.name).toBe('Vera');
  // The visitor's viewing session (the `sid` of its signalling token): the agent's Join must open that one.
  const session = await visitor.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('roomwalk.viewingSessionRequest') ?? 'null') as {
      request?: { signalingToken?: string };
    } | null;
    const part = stored?.request?.signalingToken?.split('.')[1] ?? '';
    return (JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: string }).sid ?? null;
  });
  expect(session).toMatch(/^[0-9a-f-]{36}$/);

  const notice = agent.getByRole('alertdialog').filter({ hasText: `Vera Visitor wants a live viewing of ${TITLE}` });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  // The notice leaves the header's Add and Account buttons uncovered: both still take a tap at their centre.
  for (const name of ['Add', 'Account']) {
    const box = (await agent.getByRole('button', { name, exact: true }).boundingBox())!;
    const hit = await agent.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('sl-button')?.textContent?.trim() ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    );
    expect(hit, `${name} under the live notice`).toBe(name);
  }
  await notice.getByRole('button', { name: 'Join' }).click();
  await agent.waitForURL(
    (u) =>
      u.pathname === '/agentplayer' &&
      u.searchParams.get('tourId') === tourId &&
      u.searchParams.get('liveViewing') === 'true' &&
      u.searchParams.get('session') === session,
  );
  // Join is the agent's yes: the agent player goes into the visitor's call by itself, with no Go Live to find.
  // The call's panel, not its status line: the line says "Waiting on Viewer..." until the visitor's video arrives and
  // is empty from then on, so a check for text would miss a call that connected between two polls.
  await expect(agent.getByRole('region', { name: 'Live call' }), 'the agent is in the call').toBeVisible({
    timeout: 30_000,
  });
  await expect(agent.getByRole('button', { name: 'Go Live' })).toHaveCount(0);

  for (const [who, p] of [
    ['agent', agent],
    ['visitor', visitor],
  ] as const) {
    await expect
      .poll(async () => (await panelState(p)).remotePlaying, {
        message: `${who} sees the other's video`,
        timeout: 45_000,
      })
      .toBe(true);
    const t0 = (await panelState(p)).remoteTime;
    await expect
      .poll(async () => (await panelState(p)).remoteTime, {
        message: `${who}'s remote video advances`,
        timeout: 10_000,
      })
      .toBeGreaterThan(t0);
  }
});

test("the agent moves through the tour and the visitor's frame follows", async () => {
  const canvas = agent.locator('tour-player canvas');
  await canvas.focus();
  for (let i = 0; i < 12; i++) await agent.keyboard.press('ArrowRight');
  const target = (await panelState(agent)).frame;
  expect(target).toBeGreaterThan(0);
  await expect
    .poll(async () => (await panelState(visitor)).frame, {
      message: "visitor's frame follows the agent's",
      timeout: 10_000,
    })
    .toBe(target);
  await agent.keyboard.press('End');
  const end = (await panelState(agent)).frame;
  await expect.poll(async () => (await panelState(visitor)).frame, { timeout: 10_000 }).toBe(end);
});
