/**
 * Audience links on phones (390x844, touch), against the real server and a tour made by the real pipeline: the agent,
 * in Sharing Options, makes a link that hides the Kitchen and stops after tomorrow; the tour has a password, so a buyer
 * on another phone opening the link is asked for it; then the tour plays without the Kitchen — not in the Fast Travel
 * list, and none of its clips fetched, so never in the picture — and the visit counts under the link. The server's
 * clock moved past the end date, the same link shows the company's "no longer available" message and nothing of the
 * tour.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { addMarkers, gql, poll, signUpAgent, testVideo, uploadTour } from './embed-support.js';
import { dialog, screen } from './support.js';

test.describe.configure({ mode: 'serial' });

const BASE = process.env.E2E_BASE_URL!;
const PASSWORD = 'Walkthrough1';
const TOUR_PASSWORD = 'garden gate';
const TITLE = 'Orchard Cottage';
const LABEL = "Buyers' open day";
const stamp = Date.now().toString(36);
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let agentContext: BrowserContext;
let agent: Page;
let token: string;
let tourId: string;
let email: string;

const phone = (browser: Browser) => browser.newContext(PHONE);
const card = (p: Page) => p.locator('article.tour-card', { hasText: TITLE });
const gate = (p: Page) => p.locator('tour-player [part="gate-card"]');
const moveClock = (offsetMs: number) =>
  fetch(`${BASE}/dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ offsetMs }),
  });
/** Tomorrow as the date input's value, in the browser's (and this process's) time zone. */
function tomorrow(): string {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The tour's files a page asked for. */
function mediaRequests(p: Page): string[] {
  const seen: string[] = [];
  p.on('request', (r) => {
    if (r.url().includes('/media/tours/')) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

async function openSharing(p: Page) {
  await card(p).getByRole('button').first().tap();
  await dialog(p, TITLE).getByRole('button', { name: 'Generate QR Code' }).tap();
  const sharing = dialog(p, 'Sharing Options');
  await expect(sharing.getByTestId('audience-links')).toBeVisible();
  return sharing;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(400_000);
  email = `audience-${stamp}@example.com`;
  token = await signUpAgent(BASE, { email, password: PASSWORD, name: 'Kofi', surname: 'Agent' });
  const tour = await uploadTour(BASE, token, testVideo(), { title: TITLE, timeoutMs: 360_000 });
  tourId = tour.tourId;
  await addMarkers(BASE, token, tourId, [
    ['Hall', 0],
    ['Kitchen', 60],
    ['Garden', 120],
  ]);
  await gql(
    BASE,
    'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id } }',
    { input: { id: tourId, access: 'PASSWORD', password: TOUR_PASSWORD } },
    token,
  );
  agentContext = await phone(browser);
  await agentContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
  agent = await agentContext.newPage();
  await agent.goto('/login');
  await agent.getByLabel('Email').fill(email);
  await agent.getByLabel('Password').fill(PASSWORD);
  await agent.getByRole('button', { name: 'Log in with email' }).tap();
  await agent.waitForURL((u) => u.pathname === '/');
});

test.afterAll(async () => {
  await moveClock(0);
  await agentContext?.close();
});

test('the agent makes a link that hides the Kitchen and ends tomorrow, in Sharing Options on a phone', async () => {
  test.setTimeout(180_000);
  const sharing = await openSharing(agent);
  await expect(sharing.getByTestId('audience-links')).toContainText('No audience links yet.');
  await sharing.getByRole('button', { name: 'New audience link' }).tap();
  // Nothing named: said beside the field, nothing made.
  await sharing.getByRole('button', { name: 'Create link' }).tap();
  await expect(sharing.getByRole('alert').first()).toHaveText('Give the link a name, such as "Buyers\' open day".');
  await sharing.getByLabel('Name', { exact: true }).fill(LABEL);
  await sharing.getByLabel('Stops working after (optional)').fill(tomorrow());
  await sharing.getByRole('checkbox', { name: 'Kitchen' }).check();
  // Every room can be offered; targets are finger-sized.
  for (const room of ['Hall', 'Kitchen', 'Garden'])
    expect((await sharing.getByText(room, { exact: true }).boundingBox())!.height).toBeGreaterThan(0);
  expect((await sharing.locator('label.check').first().boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // The link's own lead form: a room gate offers only the rooms the link shows; this link asks for no form at all.
  const leadForm = sharing.getByRole('group', { name: 'Lead form' });
  await expect(leadForm.getByRole('radio', { name: "The tour's own lead form (as set in Tour Info)" })).toBeChecked();
  await leadForm.getByRole('radio', { name: 'Ask for details before a room' }).check();
  await expect(leadForm.getByLabel('Room', { exact: true }).locator('option')).toHaveText([
    'Choose a room',
    'Hall',
    'Garden',
  ]);
  await leadForm.getByRole('radio', { name: 'No form: visitors see the whole tour' }).check();
  await expect(leadForm.getByLabel('Room', { exact: true })).toHaveCount(0);
  // One choice a line, finger-sized.
  for (const choice of await leadForm.locator('label.radio').all())
    expect((await choice.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await screen(agent, 'audience-link-form-phone');
  await sharing.getByRole('button', { name: 'Create link' }).tap();
  const item = sharing.locator('li.audience-link', { hasText: LABEL });
  await expect(item).toContainText('Active');
  await expect(item).toContainText('Hides Kitchen');
  await expect(item).toContainText('No lead form');
  await expect(item).toContainText('0 visits');
  await expect(item).toContainText('Until');
  await item.getByRole('button', { name: 'Copy link' }).tap();
  await expect(item.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await agent.evaluate(() => navigator.clipboard.readText())).toMatch(
    new RegExp(`/playerext\\?tourId=${tourId}&link=[A-Za-z0-9_-]{32}$`),
  );
  // Nothing runs past the phone's width.
  expect(await agent.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await screen(agent, 'audience-links-phone');
  await sharing.getByRole('button', { name: 'Close' }).last().tap();
});

test('a buyer on a phone: the password, then the tour without the Kitchen — not listed, never fetched; the link expires', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const links = await gql<{ audienceLinks: Array<{ url: string; label: string }> }>(
    BASE,
    'query($id: ID!) { audienceLinks(tourId: $id) { url label } }',
    { id: tourId },
    token,
  );
  const url = new URL(links.audienceLinks.find((l) => l.label === LABEL)!.url);
  // The Kitchen's clips (frames 60–119 of clips of 36 frames: clips 1, 2 and 3), as the agent's player sees them.
  const all = await gql<{ tour: { clips: Array<{ index: number; highURI: string; lowURI: string }> } }>(
    BASE,
    'query($id: ID!) { tour(tourID: $id) { clips { index highURI lowURI } } }',
    { id: tourId },
    token,
  );
  const hidden = all.tour.clips
    .filter((c) => c.index >= 1 && c.index <= 3)
    .flatMap((c) => [new URL(c.highURI).pathname, new URL(c.lowURI).pathname]);
  expect(hidden).toHaveLength(6);

  const buyer = await phone(browser);
  const page = await buyer.newPage();
  const media = mediaRequests(page);
  await page.goto(`${url.pathname}${url.search}`);
  // The link does not bypass the password.
  await expect(gate(page)).toHaveAttribute('data-kind', 'password', { timeout: 30_000 });
  await gate(page).getByLabel('Password').fill(TOUR_PASSWORD);
  await gate(page).getByRole('button', { name: 'View tour' }).tap();
  await expect(page.locator('tour-player .title')).toContainText(TITLE, { timeout: 30_000 });
  await page
    .locator('tour-player')
    .evaluate((el: HTMLElement & { goToFrame(n: number): Promise<void>; totalFrames: number }) =>
      el.goToFrame(el.totalFrames),
    );
  await page.locator('tour-player').getByRole('button', { name: 'Fast Travel' }).tap();
  const rooms = page.locator('tour-player tour-markers-drawer li');
  await expect(rooms.first()).toBeVisible();
  const listed = (await rooms.allTextContents()).join(' ');
  expect(listed).toContain('Hall');
  expect(listed).toContain('Garden');
  expect(listed).not.toContain('Kitchen');
  expect(await page.locator('tour-player').evaluate((el) => el.shadowRoot?.textContent ?? '')).not.toContain('Kitchen');
  await screen(page, 'audience-link-buyer-phone');
  expect(media.length).toBeGreaterThan(0);
  for (const path of hidden) expect(media).not.toContain(path);

  // The visit counts under the link, and Sharing Options says so.
  await page.close();
  await poll(
    async () =>
      (
        await gql<{ audienceLinks: Array<{ visits: number }> }>(
          BASE,
          'query($id: ID!) { audienceLinks(tourId: $id) { visits } }',
          { id: tourId },
          token,
        )
      ).audienceLinks[0]!.visits > 0,
    'the visit under the link',
    30_000,
  );
  const sharing = await openSharing(agent);
  await expect(sharing.locator('li.audience-link', { hasText: LABEL })).toContainText('1 visit');
  await sharing.getByRole('button', { name: 'Close' }).last().tap();

  // Two days on (the server's clock): the link has ended, and says so in the company's name, with the agent's address.
  expect((await moveClock(2 * 86_400_000)).status).toBe(200);
  const later = await buyer.newPage();
  const laterMedia = mediaRequests(later);
  await later.goto(`${url.pathname}${url.search}`);
  await expect(gate(later)).toHaveAttribute('data-kind', 'unavailable', { timeout: 30_000 });
  await expect(gate(later)).toContainText('This tour is no longer available.');
  await expect(gate(later).getByRole('link', { name: email })).toBeVisible();
  const text = await later.locator('tour-player').evaluate((el) => el.shadowRoot?.textContent ?? '');
  for (const secret of [TITLE, 'Kitchen', 'Garden', 'Hall']) expect(text).not.toContain(secret);
  expect(laterMedia).toEqual([]);
  await screen(later, 'audience-link-ended-phone');
  await buyer.close();
  const ended = await openSharing(agent);
  await expect(ended.locator('li.audience-link', { hasText: LABEL })).toContainText('Expired');
});
