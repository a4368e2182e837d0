/**
 * Where the picture goes on a phone, against the product itself (the real server, the built console and
 * player, tours made by the real pipeline), with touch: on a phone on its side (844x390) the picture takes the height
 * and the Fast Travel drawer does not open by itself where it would shrink it below 80 %; the live-call panel never
 * covers the picture (upright phone, phone on its side, desktop), its tiles collapse and it moves to the other side,
 * and "Sync On" is not a red danger button. The picture's size and the panel's share of it are printed on every run.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { makeRealTour, type RealTour } from './embed-support.js';

// A fake camera and microphone for the call (as live-viewing.spec.ts); touch on a phone-sized screen.
test.use({
  viewport: { width: 844, height: 390 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  permissions: ['camera', 'microphone'],
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

const PRODUCT = process.env.E2E_BASE_URL!;
type PlayerEl = HTMLElement & { totalFrames: number; loadedFrameCount: number; displayed: unknown };
type Box = { x: number; y: number; width: number; height: number };

let landscape: RealTour;
let portrait: RealTour;

const player = (p: Page) => p.locator('tour-player');

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}
const overlap = (a: Box, b: Box) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
const size = (b: Box) => `${Math.round(b.width)}x${Math.round(b.height)}`;

async function shown(page: Page, url: string) {
  await page.goto(url);
  await expect
    .poll(() => player(page).evaluate((el: PlayerEl) => el.totalFrames > 0 && el.displayed !== null), {
      timeout: 90_000,
    })
    .toBe(true);
}

/** The picture once its layout has settled (two refreshes without a change). */
async function picture(page: Page): Promise<Box> {
  let last = '';
  for (;;) {
    const b = await box(player(page).locator('canvas'));
    if (size(b) === last) return b;
    last = size(b);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  [landscape, portrait] = await Promise.all([
    makeRealTour(PRODUCT, {
      markers: [
        ['Entrance', 0],
        ['Kitchen', 45],
        ['Bedroom', 120],
      ],
    }),
    makeRealTour(PRODUCT, { portrait: true, markers: [['Kitchen', 20]] }),
  ]);
});

test('on a phone on its side (844x390) the picture takes the height; the drawer never leaves it under 80 %', async ({
  page,
}) => {
  test.setTimeout(180_000);
  for (const [t, what] of [
    [landscape, 'landscape tour'],
    [portrait, 'portrait tour'],
  ] as const) {
    await shown(page, `/playerext?tourId=${t.tourId}`);
    const pic = await picture(page);
    const bar = await box(player(page).locator('[part="top-bar"]'));
    // What it could be: the window's height under the title bar, less the stage's 8 px margins.
    const could = 390 - bar.height - 16;
    const drawer = player(page).locator('tour-markers-drawer');
    const open = await drawer.isVisible();
    console.log(
      `[phone-layout] 844x390 ${what}: picture ${size(pic)} (height it could take ${Math.round(could)}), drawer ${open ? 'open' : 'closed'}`,
    );
    await page.screenshot({ path: test.info().outputPath(`landscape-${what.replace(' ', '-')}.png`) });
    expect(pic.height, `${what}: the picture takes the height`).toBeGreaterThanOrEqual(could * 0.8);
    // Nothing of the page covers it (no cookie banner on a tour, the Feedback button an icon in the corner).
    await expect(page.locator('.cookie-banner')).toHaveCount(0);
    const feedback = page.locator('.feedback-button');
    if (await feedback.isVisible())
      expect(overlap(pic, await box(feedback)), `${what}: Feedback over the picture`).toBe(0);
    expect(overlap(pic, await box(player(page).locator('.joystick'))), `${what}: the joystick over the picture`).toBe(
      0,
    );
    // Opened by hand, the drawer goes beside the picture, which keeps most of its size.
    if (!open) await player(page).getByRole('button', { name: 'Fast Travel' }).tap();
    await expect(drawer).toBeVisible();
    const withDrawer = await picture(page);
    console.log(`[phone-layout] 844x390 ${what} with the drawer open: picture ${size(withDrawer)}`);
    expect(overlap(withDrawer, await box(drawer))).toBe(0);
    if (t === landscape)
      expect(withDrawer.width, 'the drawer beside the picture').toBeGreaterThanOrEqual(pic.width * 0.8);
  }
});

/** Starts a call as a buyer on /playerext: Talk to Agent, the lead form, then the call panel (waiting on the agent). */
async function startCall(page: Page) {
  await shown(page, `/playerext?tourId=${landscape.tourId}&liveViewing=true`);
  const before = await picture(page);
  await player(page).getByRole('button', { name: 'Talk to Agent' }).click();
  const form = player(page).locator('tour-live-panel form');
  await expect(form).toBeVisible({ timeout: 30_000 });
  await form.getByLabel('Name', { exact: true }).fill('Bea');
  await form.getByLabel('Surname').fill('Buyer');
  await form.getByLabel('Email').fill(`bea-${Date.now()}@example.com`);
  await form.getByLabel('Contact Number').fill('821234567');
  await form.getByRole('button', { name: 'Send' }).click();
  await expect(player(page).locator('tour-live-panel video.local')).toBeAttached({ timeout: 30_000 });
  return before;
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 844, height: 390 },
  { width: 1280, height: 800 },
]) {
  test(`the live-call panel never covers the picture at ${viewport.width}x${viewport.height}; its tiles collapse and it moves`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(viewport);
    const before = await startCall(page);
    const panel = player(page).locator('tour-live-panel');
    const pic = await picture(page);
    const p = await box(panel);
    const share = overlap(pic, p) / (pic.width * pic.height);
    console.log(
      `[phone-layout] ${viewport.width}x${viewport.height} live call: panel ${size(p)} covers ${(share * 100).toFixed(1)} % of the picture; picture ${size(before)} before the call, ${size(pic)} during it`,
    );
    await page.screenshot({ path: test.info().outputPath(`live-${viewport.width}x${viewport.height}.png`) });
    expect(share).toBe(0);
    expect(pic.width, 'the picture keeps most of its size during the call').toBeGreaterThanOrEqual(before.width * 0.8);
    // Small tiles: each video well under the picture's size.
    const tile = await box(panel.locator('video.local'));
    expect(tile.width * tile.height).toBeLessThan((pic.width * pic.height) / 2);
    // Sync On (a state) is not the red of Hang Up (a danger).
    const sync = panel.locator('button.sync');
    await expect(sync).toHaveAttribute('aria-pressed', 'true', { timeout: 30_000 });
    const [r, g, b] = (await sync.evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
    expect(r! > 150 && g! < 110 && b! < 110, `Sync On is red: rgb(${r}, ${g}, ${b})`).toBe(false);
    // The tiles collapse: the remote one hides with its own button.
    await panel.getByRole('button', { name: 'Hide remote video' }).click();
    await expect(panel.locator('video.remote')).toBeHidden();
    // Move puts the panel on the other side of the picture; still clear of it.
    const side = await box(panel);
    await panel.getByRole('button', { name: /Move/ }).click();
    await expect(panel).toHaveAttribute('dock', 'end');
    const moved = await box(panel);
    expect(moved.x !== side.x || moved.y !== side.y, 'the panel moved').toBe(true);
    expect(overlap(await picture(page), moved)).toBe(0);
  });
}
