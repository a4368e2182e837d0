/**
 * Who sees the tour, one journey on phones (390x844, touch), against the real server and a tour made by the real
 * pipeline. The agent, in Tour Info, gives the tour a password and asks for the buyer's details before the Kitchen,
 * waiting for their approval; in Sharing Options they make an audience link that hides the Main bedroom and stops
 * after tomorrow. A buyer on another phone opens the link, is asked for the password, then walks the tour without the
 * Main bedroom (not in the Fast Travel list, none of its clips fetched, so never in the picture); a swipe brings them
 * to the end of the hall, where the form stops them before the Kitchen (none of its files fetched); they wait, the
 * agent's console notice says who waits for which room and tour and its Approve lets them on; the buyer's page goes on
 * by itself into the Kitchen, still without the Main bedroom. Live viewing is on: the copied link carries it.
 * The visit counts under the link. Then, the server's clock moved past the end date, the same link shows the company's
 * "no longer available" message and nothing of the tour.
 */
import { expect, test, type Page } from '@playwright/test';
import { NOTICES } from '@roomwalk/shared';
import { gql, poll } from './embed-support.js';
import { dialog, screen } from './support.js';
import { moveServerClock, phoneAgentWithTour, phoneContext, type PhoneAgent } from './support/phone-agent.js';

const BASE = process.env.E2E_BASE_URL!;
const TOUR_PASSWORD = 'garden gate';
const TITLE = 'Orchard Cottage';
const LABEL = "Buyers' open day";
const HIDDEN = 'Main bedroom';
const stamp = Date.now().toString(36);

type PlayerEl = HTMLElement & {
  currentFrame: number;
  totalFrames: number;
  currentRoom: { name: string } | null;
  tour: { leadGate: { open: boolean } | null; clips: unknown[] } | null;
};

let agent: PhoneAgent;
/** The audience link as Sharing Options copied it. */
let copied = '';

const card = (p: Page) => p.locator('article.tour-card', { hasText: TITLE });
const gate = (p: Page) => p.locator('tour-player [part="gate-card"]');
const leadForm = (p: Page) => p.locator('tour-player [part="lead-gate-card"]');
const drawerRooms = (p: Page) => p.locator('tour-player tour-markers-drawer li');

/** Tomorrow as the date input's value, in the browser's (and this process's) time zone. */
function tomorrow(): string {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** The paths of the tour's files a page asked for. */
function mediaRequests(p: Page): string[] {
  const seen: string[] = [];
  p.on('request', (r) => {
    if (r.url().includes('/media/tours/')) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

const clipPaths = (clips: PhoneAgent['clips']) =>
  clips.flatMap((c) => [new URL(c.highURI).pathname, new URL(c.lowURI).pathname]);

async function openSharing(p: Page) {
  await card(p).getByRole('button').first().tap();
  await dialog(p, TITLE).getByRole('button', { name: 'Generate QR Code' }).tap();
  const sharing = dialog(p, 'Sharing Options');
  await expect(sharing.getByTestId('audience-links')).toBeVisible();
  return sharing;
}

/**
 * One forward swipe across the picture (right to left), through the DevTools protocol, `px` long. The player goes
 * only as far as the tour has frames, so a swipe longer than the frames left ends on the last one, coasting or not.
 */
async function swipeForward(page: Page, px: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const c = (await page.locator('tour-player canvas').boundingBox())!;
  expect(px, 'the swipe fits on the picture').toBeLessThan(c.width * 0.9);
  const y = c.y + c.height / 2;
  const x0 = c.x + c.width * 0.95;
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: x === undefined ? [] : [{ x, y, id: 1 }] });
  await touch('touchStart', x0);
  for (let i = 1; i <= 12; i++) await touch('touchMove', x0 - (px * i) / 12);
  await touch('touchEnd');
  await cdp.detach();
}

/** The rooms the buyer's Fast Travel list shows (the drawer opened from its button). */
async function listedRooms(page: Page): Promise<string[]> {
  const drawer = page.locator('tour-player tour-markers-drawer');
  if (!(await drawer.isVisible())) await page.locator('tour-player').getByRole('button', { name: 'Fast Travel' }).tap();
  await expect(drawerRooms(page).first()).toBeVisible();
  return (await drawerRooms(page).allTextContents()).map((t) => t.trim());
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(400_000);
  // Rooms named on clip boundaries: the Main bedroom is exactly the third clip, the Kitchen the second.
  agent = await phoneAgentWithTour(BASE, browser, {
    email: `audience-${stamp}@example.com`,
    password: 'Walkthrough1',
    name: 'Kofi',
    title: TITLE,
    rooms: (starts) => {
      expect(starts.length, 'the test tour has at least four clips').toBeGreaterThanOrEqual(4);
      return [
        ['Hall', 0],
        ['Kitchen', starts[1]!],
        [HIDDEN, starts[2]!],
        ['Garden', starts[3]!],
      ];
    },
  });
  await agent.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
});

test.afterAll(async () => {
  await moveServerClock(BASE, 0);
  await agent?.context.close();
});

test('who sees the tour: a password, an audience link that hides a room and ends, a lead gate the agent approves', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const a = agent.page;
  const kitchenClips = clipPaths(agent.clips.slice(1));
  const hiddenClips = clipPaths(agent.clips.slice(2, 3));

  await test.step('the agent sets a password and asks for details before the Kitchen, with approval, in Tour Info', async () => {
    await card(a).getByRole('button').first().tap();
    await dialog(a, TITLE).getByRole('button', { name: 'Edit Info' }).tap();
    const info = dialog(a, 'Tour Info');
    await info.getByLabel(/Only people with the password/).tap();
    await info.getByRole('button', { name: 'Save' }).tap();
    // Nothing missing is saved, and each field says what it needs in the agent's words.
    await expect(info.getByRole('alert')).toHaveText('Choose a password for this tour.');
    await info.getByLabel('Tour password').fill(TOUR_PASSWORD);
    await info.getByLabel('Ask for details before a room').tap();
    await info.getByRole('button', { name: 'Save' }).tap();
    await expect(info.getByTestId('lead-gate').getByRole('alert')).toHaveText('Choose the room the form comes before.');
    await info.getByLabel('Room', { exact: true }).selectOption({ label: 'Kitchen' });
    await info.getByLabel(/Wait for my approval/).tap();
    // Live viewing on the tour's shared links: the audience link the agent hands out carries it too.
    await info.getByLabel('Offer live viewing on shared links').tap();
    await screen(a, 'lead-gate-tour-info');
    await info.getByRole('button', { name: 'Save' }).tap();
    await expect(a.locator('.snackbar-region')).toContainText(NOTICES.successful);
  });

  await test.step('the agent makes a link that hides the Main bedroom and ends tomorrow, in Sharing Options', async () => {
    const sharing = await openSharing(a);
    await expect(sharing.getByTestId('access-hint')).toHaveText(
      'This tour asks for its password. Send the password separately from the link.',
    );
    // The QR code is the share link: it leads to the password screen like the link does.
    await expect(sharing.getByTestId('qr-image')).toHaveAttribute(
      'alt',
      new RegExp(`playerext\\?tourId=${agent.tourId}`),
    );
    await expect(sharing.getByTestId('audience-links')).toContainText('No audience links yet.');
    await sharing.getByRole('button', { name: 'New audience link' }).tap();
    // Nothing named: said beside the field, nothing made.
    await sharing.getByRole('button', { name: 'Create link' }).tap();
    await expect(sharing.getByRole('alert').first()).toHaveText('Give the link a name, such as "Buyers\' open day".');
    await sharing.getByLabel('Name', { exact: true }).fill(LABEL);
    await sharing.getByLabel('Stops working after (optional)').fill(tomorrow());
    await sharing.getByRole('checkbox', { name: HIDDEN }).check();
    // Every room can be offered; targets are finger-sized.
    for (const room of ['Hall', 'Kitchen', HIDDEN, 'Garden'])
      expect((await sharing.getByText(room, { exact: true }).boundingBox())!.height).toBeGreaterThan(0);
    expect((await sharing.locator('label.check').first().boundingBox())!.height).toBeGreaterThanOrEqual(44);
    // The link's own lead form: a room gate offers only the rooms the link shows; this link keeps the tour's.
    const linkForm = sharing.getByRole('group', { name: 'Lead form' });
    const tourOwn = linkForm.getByRole('radio', { name: "The tour's own lead form (as set in Tour Info)" });
    await expect(tourOwn).toBeChecked();
    await linkForm.getByRole('radio', { name: 'Ask for details before a room' }).check();
    await expect(linkForm.getByLabel('Room', { exact: true }).locator('option')).toHaveText([
      'Choose a room',
      'Hall',
      'Kitchen',
      'Garden',
    ]);
    await tourOwn.check();
    await expect(linkForm.getByLabel('Room', { exact: true })).toHaveCount(0);
    // One choice a line, finger-sized.
    for (const choice of await linkForm.locator('label.radio').all())
      expect((await choice.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await screen(a, 'audience-link-form-phone');
    await sharing.getByRole('button', { name: 'Create link' }).tap();
    const item = sharing.locator('li.audience-link', { hasText: LABEL });
    await expect(item).toContainText('Active');
    await expect(item).toContainText(`Hides ${HIDDEN}`);
    await expect(item).toContainText('0 visits');
    await expect(item).toContainText('Until');
    await item.getByRole('button', { name: 'Copy link' }).tap();
    await expect(item.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await a.evaluate(() => navigator.clipboard.readText())).toMatch(
      new RegExp(`/playerext\\?tourId=${agent.tourId}&link=[A-Za-z0-9_-]{32}&liveViewing=true$`),
    );
    copied = await a.evaluate(() => navigator.clipboard.readText());
    // Nothing runs past the phone's width.
    expect(await a.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screen(a, 'audience-links-phone');
    await sharing.getByRole('button', { name: 'Close' }).last().tap();
  });

  const links = await gql<{ audienceLinks: Array<{ url: string; label: string }> }>(
    BASE,
    'query($id: ID!) { audienceLinks(tourId: $id) { url label } }',
    { id: agent.tourId },
    agent.token,
  );
  const url = new URL(links.audienceLinks.find((l) => l.label === LABEL)!.url);
  // The buyer opens the link as the agent copied it (with live viewing).
  expect(copied.startsWith(url.href)).toBe(true);
  const shared = new URL(copied);
  const buyerContext = await phoneContext(browser);
  const buyer = await buyerContext.newPage();
  const media = mediaRequests(buyer);
  const player = buyer.locator('tour-player');

  await test.step('a buyer on a phone opens the link: the password first, then the hall, without the Main bedroom', async () => {
    await buyer.goto(`${shared.pathname}${shared.search}`);
    // The link does not bypass the password, and the password screen gives nothing of the tour.
    await expect(gate(buyer)).toHaveAttribute('data-kind', 'password', { timeout: 30_000 });
    const before = await player.evaluate((el) => el.shadowRoot?.textContent ?? '');
    for (const secret of [TITLE, 'Hall', 'Kitchen', HIDDEN]) expect(before).not.toContain(secret);
    expect(media).toEqual([]);
    await gate(buyer).getByLabel('Password').fill(TOUR_PASSWORD);
    await gate(buyer).getByRole('button', { name: 'View tour' }).tap();
    await expect(buyer.locator('tour-player .title')).toContainText(TITLE, { timeout: 30_000 });
    await expect.poll(() => player.evaluate((el: PlayerEl) => el.totalFrames), { timeout: 60_000 }).toBeGreaterThan(0);
    await buyer.evaluate(() => ((window as unknown as { samePage: boolean }).samePage = true));
    expect(await listedRooms(buyer)).not.toContain(HIDDEN);
    // Sharing Options says buyers on these links see Talk to Agent: they do.
    await expect(player.getByRole('button', { name: 'Talk to Agent' })).toBeVisible();
    await buyer.locator('tour-player').getByRole('button', { name: 'Fast Travel' }).tap();
  });

  await test.step('a swipe to the end of the hall: the form stops the buyer before the Kitchen; they wait', async () => {
    // The buyer's tour ends where the Kitchen begins (the hall's clip; totalFrames is the last frame's index): a swipe
    // longer than it (4 px a frame) ends on its last frame, coasting or not.
    const last = await player.evaluate((el: PlayerEl) => el.totalFrames);
    expect(last).toBe(agent.clips[0]!.frameCount - 1);
    await swipeForward(buyer, last * 4 + 40);
    await expect(leadForm(buyer)).toBeVisible({ timeout: 30_000 });
    expect(await player.evaluate((el: PlayerEl) => el.currentFrame)).toBe(last);
    await expect(leadForm(buyer).getByRole('heading')).toHaveText('Leave your details to see the Kitchen');
    for (const f of kitchenClips) expect(media).not.toContain(f);
    await screen(buyer, 'lead-gate-form-phone');
    await leadForm(buyer).getByLabel('First name').fill('Bianca');
    await leadForm(buyer)
      .getByLabel(/Last name/)
      .fill('Buyer');
    await leadForm(buyer).getByLabel('Email').fill('bianca@example.com');
    const go = leadForm(buyer).getByRole('button', { name: 'Continue' });
    expect((await go.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    await go.tap();
    await expect(leadForm(buyer)).toContainText('Waiting for the agent', { timeout: 30_000 });
    await expect(leadForm(buyer).getByRole('status')).toContainText('will let you continue shortly');
    await screen(buyer, 'lead-gate-waiting-phone');
  });

  await test.step("the agent's notice reads as an approval (who waits, for which room and tour) and approves in place", async () => {
    const notice = a.getByRole('alertdialog').filter({ hasText: 'Bianca Buyer' });
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expect(notice).toContainText('Waiting for your approval');
    await expect(notice).toContainText(`Bianca Buyer is waiting for your approval to see the rest of ${TITLE}`);
    await expect(notice).toContainText('Waiting to see the Kitchen');
    await expect(notice).not.toContainText('live viewing');
    await expect(notice.getByRole('button', { name: 'Join' })).toHaveCount(0);
    await expect(notice.getByRole('button', { name: 'Dismiss' })).toBeVisible();
    await screen(a, 'lead-gate-notice-phone');
    await notice.getByRole('button', { name: 'Approve' }).tap();
    await expect(a.locator('.snackbar-region')).toContainText('Bianca Buyer can continue now.');
    await expect(notice).toHaveCount(0);
    // The agent stayed where they were.
    expect(new URL(a.url()).pathname).toBe('/');
  });

  await test.step('Leads shows where the buyer stopped, and nobody waits any more', async () => {
    await a.goto('/leads');
    const lead = a.getByTestId('leads-all').locator('li', { hasText: 'Bianca Buyer' });
    await expect(lead).toBeVisible({ timeout: 30_000 });
    await expect(lead.getByTestId('lead-stopped-at')).toHaveText('Hall');
    await expect(a.getByTestId('lead-waiting')).toHaveCount(0);
    await screen(a, 'lead-gate-leads-phone');
  });

  await test.step("the buyer's page goes on by itself into the Kitchen, still without the Main bedroom", async () => {
    await expect(leadForm(buyer)).toHaveCount(0, { timeout: 30_000 });
    await expect
      .poll(() => player.evaluate((el: PlayerEl) => el.tour?.leadGate?.open ?? false), { timeout: 30_000 })
      .toBe(true);
    expect(await buyer.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    // The link's view: every clip but the Main bedroom's.
    await expect
      .poll(() => player.evaluate((el: PlayerEl) => el.totalFrames), { timeout: 30_000 })
      .toBe(agent.clips.reduce((n, c) => n + c.frameCount, 0) - agent.clips[2]!.frameCount - 1);
    const rooms = await listedRooms(buyer);
    expect(rooms).toEqual(['Hall', 'Kitchen', 'Garden']);
    await drawerRooms(buyer).getByRole('button', { name: 'Kitchen' }).tap();
    await expect.poll(() => player.evaluate((el: PlayerEl) => el.currentRoom?.name)).toBe('Kitchen');
    await screen(buyer, 'audience-link-buyer-phone');
    for (const f of hiddenClips) expect(media).not.toContain(f);
    expect(media.some((f) => kitchenClips.includes(f))).toBe(true);
    await buyer.close();
  });

  await test.step('the visit counts under the link, and Sharing Options says so', async () => {
    await poll(
      async () =>
        (
          await gql<{ audienceLinks: Array<{ visits: number }> }>(
            BASE,
            'query($id: ID!) { audienceLinks(tourId: $id) { visits } }',
            { id: agent.tourId },
            agent.token,
          )
        ).audienceLinks[0]!.visits > 0,
      'the visit under the link',
      30_000,
    );
    await a.goto('/');
    const sharing = await openSharing(a);
    await expect(sharing.locator('li.audience-link', { hasText: LABEL })).toContainText('1 visit');
    await sharing.getByRole('button', { name: 'Close' }).last().tap();
  });

  await test.step('two days on (the server clock), the link shows the company message and nothing of the tour', async () => {
    await moveServerClock(BASE, 2 * 86_400_000);
    const later = await buyerContext.newPage();
    const laterMedia = mediaRequests(later);
    await later.goto(`${url.pathname}${url.search}`);
    await expect(gate(later)).toHaveAttribute('data-kind', 'unavailable', { timeout: 30_000 });
    await expect(gate(later)).toContainText('This tour is no longer available.');
    await expect(gate(later).getByRole('link', { name: agent.email })).toBeVisible();
    const text = await later.locator('tour-player').evaluate((el) => el.shadowRoot?.textContent ?? '');
    for (const secret of [TITLE, 'Kitchen', 'Garden', 'Hall', HIDDEN]) expect(text).not.toContain(secret);
    expect(laterMedia).toEqual([]);
    await screen(later, 'audience-link-ended-phone');
    await buyerContext.close();
    const ended = await openSharing(a);
    await expect(ended.locator('li.audience-link', { hasText: LABEL })).toContainText('Expired');
  });
});
