/**
 * Room analytics end to end against the real server and the built console: an agent's tour with two named
 * rooms; the agent meets the plan gate on Tour Analytics and upgrades to Basic; two visitors in their own browsers walk
 * the tour differently in the real player (one fast-travels to the Kitchen, lingers and leaves; the other goes through
 * the Kitchen and the Master Bedroom to the end and asks for a live viewing); the agent sees the lead's room path in
 * the console notice and the lead mail, both visits' rooms in the charts' tables and CSV, shares a read-only link with
 * the seller (opened without login, then revoked), sets up the digest, and downloads the seller PDF.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { checkA11y, dialog, screen, type OutboxMail } from './support.js';
import { makeAnalyticsTour, serverFigures, type AnalyticsTour } from './support/analytics-tour.js';

test.describe.configure({ mode: 'serial' });

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
];
const stamp = Date.now().toString(36);
const agentUser = { email: `rooms-${stamp}@example.com`, password: 'Walkthrough1', name: 'Rhea', surname: 'Rooms' };
const TITLE = `Garden cottage ${stamp}`;
const BASE = process.env.E2E_BASE_URL ?? '';

let browser: Browser;
let work: string;
let agentContext: BrowserContext;
let agent: Page;
let tour: AnalyticsTour;
let subscribed = false;
/** The UTC days the visits started on (the charts count whole UTC days; a run near midnight spans two). */
const visitDays = new Set<string>();
const utcToday = () => new Date().toISOString().slice(0, 10);

type PlayerEl = HTMLElement & {
  currentFrame: number;
  totalFrames: number;
  loadedFrameCount: number;
  currentRoom: { name: string } | null;
};

/** Opens the public player in a fresh browser context (its own visitor) and waits until every frame is loaded. */
async function openVisitor(
  cookies: 'accepted' | 'declined',
  query = '',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
  });
  await context.grantPermissions(['camera', 'microphone'], { origin: BASE });
  await context.addInitScript(
    (v) => {
      if (location.protocol.startsWith('http')) localStorage.setItem('cookieConsent', v);
    },
    cookies === 'accepted' ? 'true' : 'false',
  );
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('visitor pageerror:', e.message));
  visitDays.add(utcToday());
  await page.goto(`/playerext?tourId=${tour.tourId}${query}`);
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          ((p) => (p ? p.totalFrames > 0 && p.loadedFrameCount >= p.totalFrames : false))(
            document.querySelector('tour-player') as PlayerEl | null,
          ),
        ),
      {
        message: 'the tour loads in the player',
        timeout: 45_000,
      },
    )
    .toBe(true);
  await page.locator('tour-player canvas').first().focus();
  return { context, page };
}

const roomOf = (p: Page) =>
  p.evaluate(() => (document.querySelector('tour-player') as PlayerEl | null)?.currentRoom?.name ?? '');
const frameOf = (p: Page) =>
  p.evaluate(() => (document.querySelector('tour-player') as PlayerEl | null)?.currentFrame ?? -1);

/** Page Up travels to the next marker (a fast travel); the visitor then stays in that room. */
async function travelTo(p: Page, room: string) {
  await p.keyboard.press('PageUp');
  await expect.poll(() => roomOf(p), { message: `the visitor reaches the ${room}`, timeout: 15_000 }).toBe(room);
}

/**
 * The visitor looks around a room for a while: the room's seconds are the point of the journey, not a synchronisation.
 */
const linger = (p: Page, seconds: number) => p.waitForTimeout(seconds * 1000);

async function outbox(p: Page): Promise<OutboxMail[]> {
  return (await (await p.request.get('/dev/outbox.json')).json()) as OutboxMail[];
}

test.beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ARGS });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rw-rooms-e2e-'));
  // The agent works in Johannesburg: the digest goes out at 07:00 there.
  agentContext = await browser.newContext({
    baseURL: BASE,
    viewport: { width: 1280, height: 800 },
    reducedMotion: 'reduce',
    acceptDownloads: true,
    timezoneId: 'Africa/Johannesburg',
  });
  await agentContext.addInitScript(() => localStorage.setItem('cookieConsent', 'false'));
  agent = await agentContext.newPage();
  agent.on('pageerror', (e) => console.error('agent pageerror:', e.message));
  agent.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      if (String(payload).includes('tourLeadCreated')) subscribed = true;
    }),
  );
});

test.afterAll(async () => {
  await agentContext?.close();
  await browser?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test('the agent has a tour with named rooms and meets the plan gate, then upgrades to Basic', async () => {
  test.setTimeout(420_000);
  tour = await makeAnalyticsTour(BASE, agentUser, TITLE);
  await agent.goto('/login');
  await agent.getByLabel('Email').fill(agentUser.email);
  await agent.getByLabel('Password').fill(agentUser.password);
  await agent.getByRole('button', { name: 'Log in with email' }).click();
  await agent.waitForURL((u) => u.pathname === '/');
  await agent.locator('article.tour-card', { hasText: TITLE }).locator('.tour-card-button').click();
  await dialog(agent, TITLE).getByRole('button', { name: 'Tour Analytics' }).click();
  await agent.waitForURL(`**/tour/${tour.tourId}/analytics`);
  const gate = dialog(agent, 'Not Available');
  await expect(gate.getByTestId('analytics-gate')).toHaveText(
    'Tour Analytics and seller reports need the Basic or Pro plan. Upgrade to use them.',
  );
  await screen(agent, 'room-analytics-plan-gate');
  await gate.getByRole('button', { name: 'Upgrade' }).click();
  await agent.waitForURL('**/account/subscriptions');
  await agent.getByRole('article', { name: 'Basic' }).getByRole('button', { name: 'Activate Plan' }).click();
  await agent.waitForURL((u) => !u.pathname.startsWith('/account/subscriptions'), { timeout: 10_000 });
  await agent.getByLabel('Card number').fill('4242 4242 4242 4242');
  await agent.getByLabel('Expiry date (MM / YY)').fill('12 / 39');
  await agent.getByLabel('Security code (CVC)').fill('123');
  await agent.getByRole('button', { name: /and subscribe/ }).click();
  await agent.waitForURL('**/profile/success');
  await expect(agent.getByTestId('plan-name')).toHaveText('Basic');
});

test('visitor one fast-travels to the Kitchen, lingers there and leaves', async () => {
  test.setTimeout(120_000);
  const { context, page } = await openVisitor('declined');
  await travelTo(page, 'Kitchen');
  await linger(page, 6);
  // Leaving the page sends the visit (sendBeacon on pagehide): the server then has the Kitchen's seconds.
  await page.goto('about:blank');
  await expect
    .poll(async () => (await serverFigures(BASE, tour)).rooms.find((r) => r.name === 'Kitchen')?.seconds ?? 0, {
      message: 'the visit reaches the server with its rooms',
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(5);
  await context.close();
});

test('visitor two walks through the Kitchen and the Master Bedroom to the end and asks for a live viewing', async () => {
  test.setTimeout(120_000);
  await agent.goto('/');
  await expect.poll(() => subscribed, { message: 'tourLeadCreated subscription on the agent page' }).toBe(true);
  const { context, page } = await openVisitor('accepted', '&liveViewing=true');
  await travelTo(page, 'Kitchen');
  await linger(page, 1);
  await travelTo(page, 'Master Bedroom');
  await linger(page, 3);
  await page.keyboard.press('End');
  await expect.poll(() => frameOf(page), { timeout: 10_000 }).toBeGreaterThan(tour.bedroomFrame);
  await page.getByRole('button', { name: 'Talk to Agent' }).click();
  await expect(page.getByRole('heading', { name: 'Send notification for agent to join' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Bongani');
  await page.getByLabel('Surname').fill('Buyer');
  await page.getByLabel('Email').fill(`bongani-${stamp}@example.com`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  // The console notice names the rooms the visitor saw, in order.
  const notice = agent.getByRole('alertdialog').filter({ hasText: `Bongani Buyer wants a live viewing of ${TITLE}` });
  await expect(notice).toBeVisible({ timeout: 20_000 });
  await expect(notice.getByTestId('live-notice-rooms')).toHaveText(/^Saw: .*Kitchen \d+ s, Master Bedroom \d+ s/);
  await checkA11y(agent, 'room-analytics-lead-notice');
  await notice.getByRole('button', { name: 'Dismiss' }).click();

  // So does the lead mail to the agent.
  await expect
    .poll(
      async () =>
        (await outbox(agent)).find((m) => m.to_address === agentUser.email && m.subject.includes('Bongani Buyer'))
          ?.text_body ?? '',
      { timeout: 15_000 },
    )
    .toMatch(/Rooms viewed: .*Kitchen \d+ s, Master Bedroom \d+ s/);
  await context.close();
});

test('the agent sees both visits and their rooms in the charts, tables and CSV', async () => {
  await agent.goto(`/tour/${tour.tourId}/analytics`);
  await expect(agent.getByRole('heading', { name: 'Tour Analytics', level: 1 })).toBeVisible();
  await expect(agent.getByTestId('analytics-tour')).toHaveText(TITLE);
  const stats = agent.getByTestId('analytics-stats');
  await expect(stats.getByRole('definition').first()).toHaveText('2');
  await expect(stats).toContainText('Reached the end50 %');

  // Visits and unique visitors per day: today, two visitors with a visit each.
  const daily = agent.getByTestId('chart-daily');
  await expect(daily.locator('canvas').first()).toBeVisible();
  await expect(daily.getByText('Unique visitors').first()).toBeVisible();
  await daily.getByRole('button', { name: 'Show table' }).click();
  // Two visitors with a visit each, on the day (or, near midnight UTC, the two days) the visits started.
  await expect
    .poll(async () => {
      const sums = [0, 0];
      for (const day of visitDays) {
        const cells = await daily
          .getByRole('row', { name: new RegExp(`^${day}`) })
          .getByRole('cell')
          .allTextContents();
        for (const [i, c] of cells.entries()) sums[i] = (sums[i] ?? 0) + Number(c);
      }
      return sums;
    })
    .toEqual([2, 2]);

  const rooms = agent.getByTestId('chart-rooms');
  await expect(rooms.locator('canvas').first()).toBeVisible();
  await rooms.getByRole('button', { name: 'Show table' }).click();
  const kitchen = rooms.getByRole('row', { name: /^Kitchen/ });
  await expect(kitchen.getByRole('cell').nth(1)).toHaveText('2');
  const bedroom = rooms.getByRole('row', { name: /^Master Bedroom/ });
  await expect(bedroom.getByRole('cell').nth(1)).toHaveText('1');

  const exits = agent.getByTestId('chart-exits');
  await exits.getByRole('button', { name: 'Show table' }).click();
  await expect(
    exits
      .getByRole('row', { name: /^Kitchen/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('1');
  const devices = agent.getByTestId('chart-devices');
  await expect(
    devices
      .getByRole('row', { name: /^Desktop/ })
      .getByRole('cell')
      .first(),
  ).toHaveText('2');

  const download = agent.waitForEvent('download');
  await rooms.getByRole('button', { name: /Download CSV/ }).click();
  const csv = fs.readFileSync((await (await download).path())!, 'utf8');
  expect(csv).toMatch(/^\uFEFFRoom,Seconds in all,Visits,Average seconds per visit\r\n/);
  expect(csv).toMatch(/\r\nKitchen,\d+,2,\d+\r\n/);
  expect(csv).toMatch(/\r\nMaster Bedroom,\d+,1,\d+\r\n/);
  // Rooms come longest first, in the table as in the file (the seconds depend on how long each visitor lingered).
  const lines = csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(','));
  const seconds = lines.map((l) => Number(l[1]));
  expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  expect(await rooms.locator('tbody th').allTextContents()).toEqual(lines.map((l) => l[0]));

  await agent.getByLabel('Last 7 days').check();
  await expect(stats.getByRole('definition').first()).toHaveText('2');
  await screen(agent, 'room-analytics');
});

test('the page works on a 390x844 phone without sideways scrolling', async () => {
  await agent.setViewportSize({ width: 390, height: 844 });
  await agent.reload();
  await expect(agent.getByTestId('chart-rooms').locator('canvas').first()).toBeVisible();
  expect(await agent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await checkA11y(agent, 'room-analytics-phone');
  await agent.screenshot({ path: path.join(work, 'phone.png'), fullPage: true });
  await agent.setViewportSize({ width: 1280, height: 800 });
});

test('the seller opens a read-only link without login until the agent revokes it', async () => {
  await agent.getByRole('button', { name: 'Create link' }).click();
  const url = await agent.getByLabel('New link (shown only now: copy it)').inputValue();
  expect(url).toMatch(/\/seller-report\/rws_[A-Za-z0-9_-]+$/);
  await expect(agent.getByTestId('seller-link')).toHaveCount(1);

  const seller = await browser.newContext({ baseURL: BASE, reducedMotion: 'reduce' });
  const sp = await seller.newPage();
  await sp.goto(new URL(url).pathname);
  await expect(sp.getByRole('heading', { name: 'Seller report', level: 1 })).toBeVisible();
  await expect(sp.getByTestId('analytics-tour')).toHaveText(TITLE);
  // The agent's one-person company carries the agent's name: said once.
  await expect(
    sp.getByText(`Shared by ${agentUser.name} ${agentUser.surname}. This link works until`, { exact: false }),
  ).toBeVisible();
  const rooms = sp.getByTestId('chart-rooms');
  await expect(
    rooms
      .getByRole('row', { name: /^Kitchen/ })
      .getByRole('cell')
      .nth(1),
  ).toHaveText('2');
  await screen(sp, 'room-analytics-seller-link');

  await agent.getByRole('button', { name: /^Revoke/ }).click();
  await expect(agent.getByTestId('seller-link')).toHaveCount(0);
  await sp.reload();
  await expect(sp.getByTestId('seller-link-invalid')).toHaveText(
    'This report link is not valid any more. Ask the agent for a new one.',
  );
  await seller.close();
});

test('the agent sets up the weekly digest, with the addresses checked', async () => {
  const recipients = agent.getByLabel('Recipients');
  await expect(agent.getByText('Sent at 07:00 Africa/Johannesburg time.')).toBeVisible();
  await recipients.fill('seller@example.com, not-an-address');
  await agent.getByRole('button', { name: 'Start digest' }).click();
  await expect(
    agent.getByRole('alert').filter({ hasText: '"not-an-address" is not an e-mail address.' }),
  ).toBeVisible();
  await expect(recipients).toBeFocused();
  await recipients.fill('seller@example.com, co-seller@example.com');
  await agent.getByLabel('Day of the week').selectOption('Friday');
  await agent.getByRole('button', { name: 'Start digest' }).click();
  await expect(agent.getByTestId('seller-digest-status')).toContainText(
    'Every Friday at 07:00 Africa/Johannesburg time to 2 addresses.',
  );
});

test('the agent downloads the seller PDF made in the job queue, and it reads well', async () => {
  const download = agent.waitForEvent('download');
  await agent.getByRole('button', { name: 'Download PDF' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^seller-report-garden-cottage-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = path.join(work, 'seller.pdf');
  await file.saveAs(pdf);
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  expect(text).toContain('Seller report');
  expect(text).toContain(TITLE);
  expect(text).toMatch(/Kitchen\s+.+ in all, 2 visits/);
  expect(text).toMatch(/Master Bedroom\s+.+ in all, 1 visit\b/);
  execFileSync('pdftoppm', ['-r', '40', '-png', '-singlefile', pdf, path.join(work, 'seller-page')]);
  expect(fs.statSync(path.join(work, 'seller-page.png')).size).toBeGreaterThan(5_000);
});
