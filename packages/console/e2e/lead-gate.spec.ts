/**
 * A lead gate on phones (390x844, touch), against the real server and a tour made by the real pipeline: the agent sets
 * "Ask for details before a room" (the Kitchen) with "Wait for my approval" in Tour Info; a buyer on another phone
 * swipes through the tour and is stopped before the kitchen by the form (none of the kitchen's files fetched), leaves
 * their details and is told plainly that they wait; the agent approves in Leads, where the buyer shows where they
 * stopped; the buyer's page goes on by itself (same page, no reload) into the kitchen.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { NOTICES } from '@roomwalk/shared';
import { addMarkers, gql, signUpAgent, testVideo, uploadTour } from './embed-support.js';
import { dialog, screen } from './support.js';

test.describe.configure({ mode: 'serial' });

const BASE = process.env.E2E_BASE_URL!;
const PASSWORD = 'Walkthrough1';
const TITLE = 'Garden Cottage';
const stamp = Date.now().toString(36);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let agentContext: BrowserContext;
let agent: Page;
let token: string;
let tourId: string;

const phone = (browser: Browser) => browser.newContext(PHONE);
const card = (p: Page) => p.locator('article.tour-card', { hasText: TITLE });
const form = (p: Page) => p.locator('tour-player [part="lead-gate-card"]');
type PlayerEl = HTMLElement & {
  currentFrame: number;
  totalFrames: number;
  currentRoom: { name: string } | null;
  tour: { leadGate: { open: boolean } | null } | null;
};

/** Swipes left (forward) on the stage with one finger, through the DevTools protocol, until `done` or 20 swipes. */
/**
 * Swipes across the picture until `done`: towards the end of the tour, or back when `direction` says the playhead went
 * past what it looks for (a swipe coasts, so one may overshoot a short room). `reach`: the swipe's length in px.
 */
async function swipeUntil(
  page: Page,
  done: () => Promise<boolean>,
  direction: () => Promise<1 | -1> = async () => 1,
  reach = 200,
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const c = (await page.locator('tour-player canvas').boundingBox())!;
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: x === undefined ? [] : [{ x, y: c.y + c.height / 2, id: 1 }],
    });
  for (let n = 0; n < 20 && !(await done()); n++) {
    const dir = await direction();
    const x0 = dir === 1 ? c.x + c.width * 0.8 : c.x + c.width * 0.2;
    await touch('touchStart', x0);
    for (let i = 1; i <= 12; i++) {
      await new Promise((r) => setTimeout(r, 16));
      await touch('touchMove', x0 - (dir * reach * i) / 12);
    }
    await touch('touchEnd');
    await page.waitForTimeout(400);
  }
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(400_000);
  const email = `gate-${stamp}@example.com`;
  token = await signUpAgent(BASE, { email, password: PASSWORD, name: 'Gia', surname: 'Agent' });
  const tour = await uploadTour(BASE, token, testVideo(), { title: TITLE, timeoutMs: 360_000 });
  tourId = tour.tourId;
  await addMarkers(BASE, token, tourId, [
    ['Living room', 0],
    ['Kitchen', 80],
    ['Bedroom', 130],
  ]);
  agentContext = await phone(browser);
  agent = await agentContext.newPage();
  await agent.goto('/login');
  await agent.getByLabel('Email').fill(email);
  await agent.getByLabel('Password').fill(PASSWORD);
  await agent.getByRole('button', { name: 'Log in with email' }).tap();
  await agent.waitForURL((u) => u.pathname === '/');
});

test.afterAll(async () => {
  await agentContext?.close();
});

test('the agent asks for details before the kitchen, with approval, in Tour Info', async () => {
  await card(agent).getByRole('button').first().tap();
  await dialog(agent, TITLE).getByRole('button', { name: 'Edit Info' }).tap();
  const info = dialog(agent, 'Tour Info');
  await info.getByLabel('Ask for details before a room').tap();
  await info.getByRole('button', { name: 'Save' }).tap();
  // No room chosen: said in the agent's words, nothing saved.
  await expect(info.getByTestId('lead-gate').getByRole('alert')).toHaveText('Choose the room the form comes before.');
  await info.getByLabel('Room', { exact: true }).selectOption({ label: 'Kitchen' });
  await info.getByLabel(/Wait for my approval/).tap();
  await screen(agent, 'lead-gate-tour-info');
  await info.getByRole('button', { name: 'Save' }).tap();
  await expect(agent.locator('.snackbar-region')).toContainText(NOTICES.successful);
});

test('the buyer is stopped before the kitchen until the agent approves in Leads; the page then goes on', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // The kitchen's files: what the whole tour has past the visitor's answer.
  const whole = await gql<{ tour: { clips: Array<{ highURI: string }> } }>(
    BASE,
    'query($id: ID!) { tour(tourID: $id) { clips { highURI } } }',
    { id: tourId },
    token,
  );
  const buyerContext = await phone(browser);
  const buyer = await buyerContext.newPage();
  const media: string[] = [];
  buyer.on('request', (r) => {
    if (r.url().includes('/media/tours/')) media.push(new URL(r.url()).pathname);
  });
  await buyer.goto(`/playerext?tourId=${tourId}`);
  const player = buyer.locator('tour-player');
  await expect(buyer.locator('tour-player .title')).toContainText(TITLE, { timeout: 60_000 });
  await expect.poll(() => player.evaluate((el: PlayerEl) => el.totalFrames), { timeout: 60_000 }).toBeGreaterThan(0);
  const visitorFrames = await player.evaluate((el: PlayerEl) => el.totalFrames);
  await buyer.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));

  await swipeUntil(buyer, async () => (await form(buyer).count()) > 0);
  await expect(form(buyer)).toBeVisible();
  await expect(form(buyer).getByRole('heading')).toHaveText('Leave your details to see the Kitchen');
  const visitorClips = await player.evaluate(
    (el: PlayerEl) => (el.tour as unknown as { clips: unknown[] }).clips.length,
  );
  const gatedFiles = whole.tour.clips.slice(visitorClips).map((c) => new URL(c.highURI).pathname);
  expect(gatedFiles.length).toBeGreaterThan(0);
  for (const f of gatedFiles) expect(media).not.toContain(f);
  await screen(buyer, 'lead-gate-form-phone');
  await form(buyer).getByLabel('First name').fill('Bianca');
  await form(buyer)
    .getByLabel(/Last name/)
    .fill('Buyer');
  await form(buyer).getByLabel('Email').fill('bianca@example.com');
  const go = form(buyer).getByRole('button', { name: 'Continue' });
  expect((await go.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await go.tap();
  await expect(form(buyer)).toContainText('Waiting for the agent', { timeout: 30_000 });
  await expect(form(buyer).getByRole('status')).toContainText('will let you continue shortly');
  await screen(buyer, 'lead-gate-waiting-phone');

  // The agent: Leads lists the buyer first, with where the gate stopped them, and Approve.
  await agent.goto('/leads');
  const waiting = agent.getByTestId('lead-waiting').filter({ hasText: 'Bianca Buyer' });
  await expect(waiting).toBeVisible({ timeout: 30_000 });
  await expect(waiting.getByTestId('lead-stopped-at')).toHaveText('Living room');
  await screen(agent, 'lead-gate-leads-phone');
  await waiting.getByRole('button', { name: 'Approve Bianca Buyer' }).tap();
  await expect(agent.locator('.snackbar-region')).toContainText('Bianca Buyer can continue now.');

  // The buyer's page goes on by itself: the form goes, the tour is whole, the same page.
  await expect(form(buyer)).toHaveCount(0, { timeout: 30_000 });
  await expect
    .poll(() => player.evaluate((el: PlayerEl) => el.tour?.leadGate?.open ?? false), { timeout: 30_000 })
    .toBe(true);
  expect(await player.evaluate((el: PlayerEl) => el.totalFrames)).toBeGreaterThan(visitorFrames);
  expect(await buyer.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
  // Short swipes, and back when one coasted past the Kitchen into the Bedroom.
  await swipeUntil(
    buyer,
    async () => (await player.evaluate((el: PlayerEl) => el.currentRoom?.name)) === 'Kitchen',
    async () => ((await player.evaluate((el: PlayerEl) => el.currentRoom?.name)) === 'Bedroom' ? -1 : 1),
    80,
  );
  await expect.poll(() => player.evaluate((el: PlayerEl) => el.currentRoom?.name)).toBe('Kitchen');
  await buyerContext.close();
});
