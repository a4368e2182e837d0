/**
 * Who sees a tour on phones (390x844, touch), against the real server and a tour made by the real pipeline, with a
 * password (set through the API: the agent setting it in Tour Info is the journey of audience-links.spec.ts): a buyer
 * on a phone opens the share link and the embedding example (an iframe) and gets the password screen with nothing of
 * the tour — no title, no room, no file fetched — types a wrong password, then the right one, and the tour plays with
 * signed file URLs; a reload in the same browser session does not ask again, a new session does. Then the agent makes
 * the tour company only: the buyer sees the members' screen, the agent (signed in) still plays it on the share page.
 */
import { expect, test, type Page } from '@playwright/test';
import { NOTICES } from '@roomwalk/shared';
import { gql } from './embed-support.js';
import { dialog, screen } from './support.js';
import { phoneAgentWithTour, phoneContext, type PhoneAgent } from './support/phone-agent.js';

test.describe.configure({ mode: 'serial' });

const BASE = process.env.E2E_BASE_URL!;
const TOUR_PASSWORD = 'harbour view';
const TITLE = 'Harbour Loft';
const stamp = Date.now().toString(36);

let agent: PhoneAgent;
let tourId: string;

const gate = (p: Page) => p.locator('tour-player [part="gate-card"]');
const card = (p: Page) => p.locator('article.tour-card', { hasText: TITLE });

/** The files of the tour a page asked for (clips, posters): none may be asked before the password. */
function mediaRequests(p: Page): string[] {
  const seen: string[] = [];
  p.on('request', (r) => {
    if (r.url().includes('/media/tours/')) seen.push(r.url());
  });
  return seen;
}

async function openTourInfo(p: Page) {
  await card(p).getByRole('button').first().tap();
  await dialog(p, TITLE).getByRole('button', { name: 'Edit Info' }).tap();
  return dialog(p, 'Tour Info');
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(400_000);
  agent = await phoneAgentWithTour(BASE, browser, {
    email: `access-${stamp}@example.com`,
    password: 'Walkthrough1',
    name: 'Ama',
    title: TITLE,
    rooms: [['Kitchen', 20]],
  });
  tourId = agent.tourId;
  await gql(
    BASE,
    'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id } }',
    { input: { id: tourId, access: 'PASSWORD', password: TOUR_PASSWORD } },
    agent.token,
  );
});

test.afterAll(async () => {
  await agent?.context.close();
});

test('a buyer on a phone: the password screen gives nothing of the tour; the right password plays it, once per session', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const buyer = await phoneContext(browser);
  const page = await buyer.newPage();
  const media = mediaRequests(page);
  await page.goto(`/playerext?tourId=${tourId}`);
  await expect(gate(page)).toBeVisible({ timeout: 30_000 });
  await expect(gate(page)).toContainText('This tour is protected');
  const text = await page.locator('tour-player').evaluate((el) => el.shadowRoot?.textContent ?? '');
  expect(text).not.toContain(TITLE);
  expect(text).not.toContain('Kitchen');
  expect(await page.title()).not.toContain(TITLE);
  await screen(page, 'tour-access-gate-phone');
  // The field and the button are finger-sized.
  for (const target of [gate(page).getByLabel('Password'), gate(page).getByRole('button', { name: 'View tour' })]) {
    expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }

  await gate(page).getByLabel('Password').fill('wrong guess');
  await gate(page).getByRole('button', { name: 'View tour' }).tap();
  await expect(gate(page).getByRole('alert')).toHaveText('That password is not right. Please try again.');
  expect(media).toEqual([]);

  await gate(page).getByLabel('Password').fill(TOUR_PASSWORD);
  await gate(page).getByRole('button', { name: 'View tour' }).tap();
  await expect(gate(page)).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('tour-player .title')).toContainText(TITLE, { timeout: 30_000 });
  await expect.poll(() => media.length, { timeout: 30_000 }).toBeGreaterThan(0);
  for (const url of media) expect(url).toMatch(/\?e=\d+&v=\d+&s=/);
  // The plain file URL, without its signature, gives nothing.
  const plain = await page.request.get(media[0]!.split('?')[0]!);
  expect(plain.status()).toBe(404);

  // Same browser session: a reload plays without asking.
  await page.reload();
  await expect(page.locator('tour-player .title')).toContainText(TITLE, { timeout: 30_000 });
  await expect(gate(page)).toHaveCount(0);
  await buyer.close();

  // A new session (another phone, or the browser closed): asked again, in the iframe of the embedding example too.
  const later = await phoneContext(browser);
  const again = await later.newPage();
  await again.goto(`/embedded_example/${tourId}`);
  const frame = again.frameLocator('iframe');
  await expect(frame.locator('tour-player [part="gate-card"]')).toBeVisible({ timeout: 30_000 });
  await expect(frame.locator('tour-player [part="gate-card"]')).not.toContainText(TITLE);
  await later.close();
});

test('company only: the buyer sees the members screen; the signed-in agent still plays the share page', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const info = await openTourInfo(agent.page);
  await info.getByLabel(/Only members of your company/).tap();
  await expect(info.getByLabel('Tour password')).toHaveCount(0);
  await info.getByRole('button', { name: 'Save' }).tap();
  await expect(agent.page.locator('.snackbar-region')).toContainText(NOTICES.successful);

  const buyer = await phoneContext(browser);
  const page = await buyer.newPage();
  const media = mediaRequests(page);
  await page.goto(`/playerext?tourId=${tourId}`);
  await expect(gate(page)).toHaveAttribute('data-kind', 'members', { timeout: 30_000 });
  await expect(gate(page)).toContainText('Only members of the company can view this tour.');
  await expect(gate(page).getByRole('link', { name: 'Sign in' })).toBeVisible();
  await screen(page, 'tour-access-members-phone');
  expect(media).toEqual([]);
  await buyer.close();

  await agent.page.goto(`/playerext?tourId=${tourId}`);
  await expect(agent.page.locator('tour-player .title')).toContainText(TITLE, { timeout: 30_000 });
  await expect(gate(agent.page)).toHaveCount(0);
});
