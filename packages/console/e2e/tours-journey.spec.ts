/**
 * The tours journey against the real server and real ffmpeg: log in → upload a generated 12 s 1280x720
 * video through the file chooser → watch the processing percentage climb → the tour appears processed → edit info and
 * thumbnail → open the editor, add three markers, rename one, delete one → preview → copy the share link and the QR
 * code → open /playerext logged out in a new context → fast-travel to a marker and see the canvas change → delete the
 * tour. Also: a reload of /upload loads the console; a marker notice shows once; Professional Photos refresh by
 * themselves after Generate, with progress, and Stage is not offered without an AI service; a legal page opened in a
 * new tab goes back into the app. Screens are checked with axe and saved at phone and desktop widths in
 * test-artifacts/.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { DEV_TURNSTILE_TOKEN, ERROR_TEXTS, NOTICES, formatTexts } from '@roomwalk/shared';
import { dialog, mailLink, pathOf, screen } from './support.js';

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const user = { email: `tours-${stamp}@example.com`, password: 'Walkthrough1', name: 'Thandi', surname: 'Tours' };
const TITLE = `Sea Point flat ${stamp}`;
const NEW_TITLE = `Sea Point loft ${stamp}`;

let work: string;
let video: string;
let picture: string;
let context: BrowserContext;
let page: Page;
let tourId = '';
/** tourProgressUpdated percentages received on the page's graphql-ws socket, in order. */
const progressEvents: number[] = [];

async function gql<T>(p: Page, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await p.request.post('/query', {
    data: { query, variables },
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = (await res.json()) as { data?: T; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data as T;
}

test.beforeAll(async ({ browser }) => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'rw-tours-e2e-'));
  video = path.join(work, 'walkthrough.mp4');
  picture = path.join(work, 'thumbnail.png');
  // A 12 s 1280x720 walkthrough stand-in and a 4:3 picture to crop at 16:9.
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
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'mandelbrot=size=800x600',
    '-frames:v',
    '1',
    '-y',
    picture,
  ]);
  context = await browser.newContext({ acceptDownloads: true, reducedMotion: 'reduce' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Records every percentage the cards show (a MutationObserver, so none is missed between polls) and every
  // tourProgressUpdated event on the graphql-ws socket, from the first document on.
  await context.addInitScript(() => {
    const rec = { percents: [] as number[] };
    (window as unknown as { __rwProgress: typeof rec }).__rwProgress = rec;
    const note = () => {
      for (const el of document.querySelectorAll('[data-testid="tour-percent"]')) {
        const v = Number.parseInt(el.textContent ?? '', 10);
        if (Number.isFinite(v) && rec.percents[rec.percents.length - 1] !== v) rec.percents.push(v);
      }
    };
    new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
  });
  page = await context.newPage();
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString();
      const m = /"tourProgressUpdated":\{"progress":(\d+)/.exec(text);
      if (m) progressEvents.push(Number(m[1]));
    }),
  );
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
});
test.afterAll(async () => {
  await context?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const snackbar = (p: Page, text: string) => expect(p.locator('.snackbar-region')).toContainText(text);
const card = (p: Page, title: string): Locator => p.locator('article.tour-card', { hasText: title });

test('log in to My Tours', async () => {
  await gql(page, `mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }`, {
    input: {
      username: user.email,
      password: user.password,
      name: user.name,
      surname: user.surname,
      acceptedTerms: true,
      turnstileToken: DEV_TURNSTILE_TOKEN,
    },
  });
  const link = await mailLink(page, user.email, /\/account\/activate\?token=/);
  await page.goto(pathOf(link));
  await expect(page.getByText(ERROR_TEXTS.activationSuccess)).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in with email' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await expect(page.getByRole('heading', { name: 'My Tours' })).toBeVisible();
  await expect(page.getByRole('heading', { name: formatTexts.productTours() })).toBeVisible();
  await expect(page.getByText(ERROR_TEXTS.accountNotActivated)).toHaveCount(0);
  await screen(page, 'tours-home-empty');
});

test('upload a generated video through the file chooser, then save its Tour Info', async () => {
  await page.getByRole('button', { name: 'Add' }).click();
  await page.waitForURL('**/upload');
  await expect(page.getByText('Keep camera steady')).toBeVisible();
  // A reload (or a bookmark) of /upload loads the console, not the server's JSON 404.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Upload' })).toBeVisible();
  await expect(page.getByText('Keep camera steady')).toBeVisible();
  expect(await page.locator('body').innerText()).not.toContain('"code"');
  await screen(page, 'upload');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Upload a video' }).click();
  await (await chooser).setFiles(video);
  const info = dialog(page, 'Tour Info');
  await expect(info).toBeVisible({ timeout: 30_000 });
  await info.getByRole('button', { name: 'Done' }).click();
  await expect(info.getByText('Title is required.')).toBeVisible();
  await info.getByLabel('Title').fill(TITLE);
  await info.getByLabel('Description').fill('Two bedrooms, sea view.');
  await info.getByRole('button', { name: 'Done' }).click();
  await page.waitForURL((u) => u.pathname === '/');
  await snackbar(page, NOTICES.successful);
});

test('the processing percentage climbs and the tour appears processed', async () => {
  test.setTimeout(150_000);
  await expect(page.getByRole('heading', { name: 'Processing Tours' })).toBeVisible();
  await screen(page, 'tours-home-processing');
  const processed = page.locator('article.tour-card:not(.tour-card-processing):not(.tour-card-failed)', {
    hasText: TITLE,
  });
  const failed = page.locator('article.tour-card-failed', { hasText: TITLE });
  // No sleeps: wait on the DOM (processed or failed card); the percentages were recorded all along by the init script.
  await expect(processed.or(failed)).toHaveCount(1, { timeout: 120_000 });
  await expect(failed, 'the uploaded tour must not fail processing').toHaveCount(0);
  const percents = await page.evaluate(
    () => (window as unknown as { __rwProgress: { percents: number[] } }).__rwProgress.percents,
  );
  const events = progressEvents;
  console.log('processing percentages shown:', percents.join(', '), '| progress events:', events.join(', '));
  // The "watch the percentage climb": two different percentages on the card, or at least a progress event
  // strictly between 0 and 100 before the tour settled PROCESSED.
  const shown = new Set(percents);
  expect(shown.size > 1 || events.some((v) => v > 0 && v < 100), 'the percentage climbed while processing').toBe(true);
  tourId = (await card(page, TITLE).getAttribute('data-tour-id')) ?? '';
  expect(tourId).toMatch(/^tour_/);
  await expect(processed).toContainText(formatTexts.views(0));
  await screen(page, 'tours-home');
});

test('edit info and thumbnail', async () => {
  await card(page, TITLE).getByRole('button').click();
  const actions = dialog(page, TITLE);
  await expect(actions.getByRole('button', { name: 'Edit Fast Travel' })).toBeVisible();
  await screen(page, 'tour-card-dialog');
  await actions.getByRole('button', { name: 'Edit Info' }).click();
  const info = dialog(page, 'Tour Info');
  await expect(info.getByLabel('Title')).toHaveValue(TITLE);
  await info.getByTestId('thumbnail-input').setInputFiles(picture);
  await expect(info.getByRole('img', { name: /Crop thumbnail/ })).toBeVisible();
  await info.getByLabel('Zoom').fill('1.5');
  await screen(page, 'tour-info-crop');
  await info.getByRole('button', { name: 'Use this crop' }).click();
  await snackbar(page, NOTICES.successful);
  await expect(info.getByRole('img', { name: 'Current thumbnail' })).toBeVisible();
  await info.getByLabel('Title').fill(NEW_TITLE);
  await info.getByRole('button', { name: 'Save' }).click();
  await expect(card(page, NEW_TITLE)).toBeVisible();
  const thumb = card(page, NEW_TITLE).locator('img.tour-thumb');
  await expect(thumb).toHaveJSProperty('complete', true);
  const ratio = await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth / img.naturalHeight);
  expect(ratio).toBeCloseTo(16 / 9, 1);
});

/** The element's shadow parts, reached through Playwright's shadow-piercing CSS. */
const player = (p: Page) => p.locator('tour-player');
const drawer = (p: Page) => player(p).locator('tour-markers-drawer');

async function waitForFrames(p: Page) {
  await expect
    .poll(
      () =>
        player(p).evaluate(
          (el: HTMLElement & { loadedFrameCount?: number; totalFrames?: number }) =>
            (el.loadedFrameCount ?? 0) > 0 && el.loadedFrameCount === el.totalFrames,
        ),
      {
        timeout: 60_000,
      },
    )
    .toBe(true);
}

/** The canvas pixels (every 4th pixel of every 4th row, RGB), to compare before and after a fast travel. */
async function canvasPixels(p: Page): Promise<number[]> {
  return player(p).evaluate((el) => {
    const c = el.shadowRoot!.querySelector('canvas')!;
    const d = (() => {
      // Through a 2D copy: the player paints with a bitmaprenderer context, which has no pixels to read.
      const k = document.createElement('canvas');
      k.width = c.width;
      k.height = c.height;
      const x = k.getContext('2d')!;
      x.drawImage(c, 0, 0);
      return x.getImageData(0, 0, c.width, c.height).data;
    })();
    const out: number[] = [];
    for (let y = 0; y < c.height; y += 4)
      for (let x = 0; x < c.width; x += 4) {
        const i = (y * c.width + x) * 4;
        out.push(d[i]!, d[i + 1]!, d[i + 2]!);
      }
    return out;
  });
}

/** Share of sampled pixels whose colour moved by more than 24 on any channel. */
function changedShare(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length === 0) return 1;
  let changed = 0;
  for (let i = 0; i < a.length; i += 3) {
    if (Math.abs(a[i]! - b[i]!) > 24 || Math.abs(a[i + 1]! - b[i + 1]!) > 24 || Math.abs(a[i + 2]! - b[i + 2]!) > 24)
      changed++;
  }
  return changed / (a.length / 3);
}

/** The frame the Kitchen marker was added on, for the logged-out fast travel to land on. */
let kitchenFrame = -1;

test('open the editor, add three markers, rename one, delete one', async () => {
  test.setTimeout(120_000);
  await page.goto(`/editplayer?tourId=${tourId}`);
  await waitForFrames(page);
  await expect(player(page).locator('h1.title')).toContainText('(Edit Mode)');
  if (!(await drawer(page).isVisible())) await player(page).getByRole('button', { name: 'Fast Travel' }).click();
  const total = await player(page).evaluate((el: HTMLElement & { totalFrames: number }) => el.totalFrames);
  const names = ['Entrance', 'Kitchen', 'Garden'];
  for (const [i, name] of names.entries()) {
    const frame = Math.floor(((i + 1) * total) / 4);
    if (name === 'Kitchen') kitchenFrame = frame;
    await player(page).evaluate(
      (el: HTMLElement & { goToFrame(n: number): Promise<void> }, n) => el.goToFrame(n),
      frame,
    );
    await drawer(page).getByRole('button', { name: 'Add', exact: true }).click();
    await drawer(page)
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`^${name}$`) })
      .click();
    await expect(drawer(page).getByRole('button', { name, exact: true })).toBeVisible();
    if (await drawer(page).getByRole('button', { name: 'Close', exact: true }).isVisible())
      await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
  }
  await drawer(page).getByRole('button', { name: 'Rename Kitchen' }).click();
  await drawer(page).getByLabel('Marker name').fill('Open-plan Kitchen');
  await drawer(page).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(drawer(page).getByRole('button', { name: 'Open-plan Kitchen', exact: true })).toBeVisible();
  // The notice shows once, inside the player, not again as a console snackbar at the top.
  await expect(player(page).locator('[part="notice"]')).toHaveText(NOTICES.markerUpdated);
  await expect(page.locator('.snackbar-region')).not.toContainText(NOTICES.markerUpdated);
  // The row icons are drawn (SVG), not emoji characters that need an emoji font.
  await expect(drawer(page).getByRole('button', { name: 'Delete Entrance' }).locator('svg')).toBeVisible();
  await drawer(page).getByRole('button', { name: 'Delete Garden' }).click();
  await drawer(page).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(drawer(page).getByRole('button', { name: 'Garden', exact: true })).toHaveCount(0);
  // Rows are greyed out (disabled) while their frames load or a travel runs; the screen is checked once it settles.
  await expect(drawer(page).locator('button.jump[disabled]')).toHaveCount(0, { timeout: 30_000 });
  await screen(page, 'editor');
});

test('preview, then copy the share link and the QR code', async () => {
  await player(page).getByRole('button', { name: 'Menu' }).click();
  const menu = dialog(page, 'Player Menu (Edit Mode)');
  await expect(menu.getByRole('link', { name: 'Privacy' })).toBeVisible();
  await menu.getByRole('button', { name: 'Preview Tour' }).click();
  await page.waitForURL((u) => u.pathname === '/previewplayer');
  await waitForFrames(page);
  await player(page).getByRole('button', { name: 'Menu' }).click();
  await expect(dialog(page, 'Player Menu').getByRole('button', { name: 'Exit Preview' })).toBeVisible();
  await screen(page, 'preview-menu');
  await dialog(page, 'Player Menu').getByRole('button', { name: 'Edit Tour' }).click();
  await page.waitForURL((u) => u.pathname === '/editplayer');
  await player(page).getByRole('button', { name: 'Menu' }).click();
  await dialog(page, 'Player Menu (Edit Mode)').getByRole('button', { name: 'Sharing Options' }).click();
  const sharing = dialog(page, 'Sharing Options');
  await sharing.getByRole('button', { name: 'Copy', exact: true }).first().click();
  await expect(sharing.getByRole('button', { name: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${new URL(page.url()).origin}/playerext?tourId=${encodeURIComponent(tourId)}`);
  await sharing.getByRole('button', { name: 'Generate QR Code' }).click();
  await expect(sharing.getByTestId('qr-image')).toBeVisible();
  const download = page.waitForEvent('download');
  await sharing.getByRole('link', { name: 'Download PNG' }).click();
  const png = fs.readFileSync(await (await download).path());
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  await sharing.getByRole('button', { name: 'iFrame Code' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('<iframe src=');
  await screen(page, 'sharing');
});

test('open /playerext logged out and fast-travel to a marker: the canvas changes', async ({ browser }) => {
  test.setTimeout(120_000);
  const visitor = await browser.newContext({ reducedMotion: 'reduce' });
  const p = await visitor.newPage();
  try {
    await p.goto(`/playerext?tourId=${tourId}`);
    await waitForFrames(p);
    expect(new URL(p.url()).pathname).toBe('/playerext');
    if (!(await drawer(p).isVisible())) await player(p).getByRole('button', { name: 'Fast Travel' }).click();
    // The saved markers reached the logged-out player: the renamed one, not the deleted one.
    await expect(drawer(p).getByRole('button', { name: 'Entrance', exact: true })).toBeVisible();
    await expect(drawer(p).getByRole('button', { name: 'Garden', exact: true })).toHaveCount(0);
    const startFrame = await player(p).evaluate((el: HTMLElement & { currentFrame: number }) => el.currentFrame);
    expect(startFrame).not.toBe(kitchenFrame);
    const before = await canvasPixels(p);
    await drawer(p).getByRole('button', { name: 'Open-plan Kitchen', exact: true }).click();
    await expect
      .poll(() => player(p).evaluate((el: HTMLElement & { currentFrame: number }) => el.currentFrame), {
        timeout: 15_000,
      })
      .toBe(kitchenFrame);
    // testsrc2 moves its gradient band and counters every frame, so a different frame repaints a good share of pixels.
    await expect
      .poll(async () => changedShare(before, await canvasPixels(p)), { timeout: 15_000 })
      .toBeGreaterThan(0.02);
    await player(p).getByRole('button', { name: 'Menu' }).click();
    await expect(dialog(p, 'Player Menu').getByRole('button', { name: 'Exit Tour' })).toBeVisible();
    await dialog(p, 'Player Menu').getByRole('button', { name: 'Exit Tour' }).click();
    await p.goto(`/playerext?tourId=${tourId}`);
    await waitForFrames(p);
    await screen(p, 'playerext');
  } finally {
    await visitor.close();
  }
});

test('Professional Photos: progress from the call, the photos appear without a reload, Stage needs the AI service', async () => {
  test.setTimeout(150_000);
  await page.goto(`/tour/${tourId}/shots`);
  await expect(page.getByRole('heading', { name: NEW_TITLE })).toBeVisible();
  await expect(page.getByText('No professional photos yet.')).toBeVisible();
  const queries: number[] = [];
  const started = Date.now();
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/query') && (r.postData() ?? '').includes('TourShots'))
      queries.push(Date.now() - started);
  });
  await page.getByRole('button', { name: 'Generate professional photos' }).click();
  await expect(page.getByRole('progressbar', { name: 'Generating professional photos' })).toBeVisible();
  await screen(page, 'shots-generating');
  // No reload: the page refreshes by itself until the shots are there.
  await expect(page.locator('article.shot-card').first()).toBeVisible({ timeout: 120_000 });
  await expect(page.getByRole('progressbar', { name: 'Generating professional photos' })).toHaveCount(0);
  console.log('TourShots refreshes after the call at (ms):', queries.join(', '));
  expect(queries.length).toBeGreaterThanOrEqual(2);
  // No AI image service in this run: Stage is not offered, and the page says why.
  await expect(page.getByText(/Staging needs an AI image service/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Stage' })).toHaveCount(0);
  await screen(page, 'shots');
});

test('a legal page opened in a new tab: Back stays in the app', async () => {
  const tab = await context.newPage();
  try {
    await tab.goto('/terms');
    await expect(tab.getByRole('heading', { name: 'Terms & Conditions' })).toBeVisible();
    await tab.locator('sl-icon-button.back-button').click();
    await tab.waitForURL((u) => u.pathname === '/');
    await expect(tab.getByRole('heading', { name: 'My Tours' })).toBeVisible();
  } finally {
    await tab.close();
  }
});

test('delete the tour', async () => {
  await page.goto('/');
  await card(page, NEW_TITLE).getByRole('button').click();
  await dialog(page, NEW_TITLE).getByRole('button', { name: 'Delete tour' }).click();
  const confirm = dialog(page, 'Delete tour');
  await expect(confirm.getByText('Are you sure you want to delete this tour?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await snackbar(page, NOTICES.deletedTour);
  await expect(card(page, NEW_TITLE)).toHaveCount(0);
});
