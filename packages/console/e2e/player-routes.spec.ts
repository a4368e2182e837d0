/**
 * The player routes against the element's own stub API (packages/player-element/test/stub-server.mjs, real ffmpeg
 * fixtures with a frame barcode): the console's pages wrap the real <tour-player>; only the tour and marker calls go to
 * the stub, so these steps run whatever state the server's media pipeline is in. Covers /playerext logged out with a
 * fast-travel that changes the canvas, the menus per mode, the editor's marker add / rename / delete, flags mapped to
 * attributes, the unauthenticated redirect to /playerext and /embedded_example.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { DEV_TURNSTILE_TOKEN, ERROR_TEXTS } from '@roomwalk/shared';
// @ts-expect-error: a plain .mjs test helper of the player package, without types.
import { startStub, TOURS } from '../../player-element/test/stub-server.mjs';
// @ts-expect-error: as above.
import { generateTestFixtures } from '../../player-element/test/fixtures.mjs';
import { dialog, mailLink, pathOf, screen } from './support.js';

test.describe.configure({ mode: 'serial' });

let stub: { origin: string; stop: () => Promise<void> };
const MAIN: string = (TOURS as Record<string, string>).main!;
const EDIT: string = (TOURS as Record<string, string>).edit!;

/** Sends the element's tour and marker calls to the stub (with its test token); everything else to the real server. */
async function routeTourCalls(target: Page | BrowserContext) {
  // The player asks for its tour by GET /query?query=… when signed out (cacheable), by POST otherwise.
  await target.route(
    (url) => url.pathname === '/query',
    async (route) => {
      const req = route.request();
      const search = new URL(req.url()).search;
      const body = req.method() === 'GET' ? decodeURIComponent(search) : (req.postData() ?? '');
      if (
        (req.method() !== 'POST' && req.method() !== 'GET') ||
        !/tour\(tourID|marker(Save|Update|Delete)/.test(body) ||
        /PlayerViewer/.test(body)
      )
        return route.continue();
      const headers = { ...req.headers() };
      if (headers.authorization) headers.authorization = 'Bearer test-token';
      const res = await route.fetch({ url: `${stub.origin}/query${req.method() === 'GET' ? search : ''}`, headers });
      // The stub's clip and thumbnail URLs, made same-origin (see stubContext).
      const body2 = (await res.text()).replaceAll(stub.origin, `${new URL(req.url()).origin}/__stub`);
      await route.fulfill({ response: res, body: body2 });
    },
  );
}

/**
 * The stub serves its clips and thumbnail from its own origin, which the server's CSP (connect-src / img-src: 'self'
 * and the configured media origins) rightly refuses, in the page and in the decode worker. routeTourCalls rewrites
 * those URLs to `/__stub/...` on the page's origin, and this context forwards them to the stub, so the CSP stays on.
 */
async function stubContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  await context.route('**/__stub/**', async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: `${stub.origin}${url.pathname.slice('/__stub'.length)}${url.search}` });
    await route.fulfill({ response });
  });
  return context;
}

const player = (p: Page) => p.locator('tour-player');
const drawer = (p: Page) => player(p).locator('tour-markers-drawer');
async function ready(p: Page) {
  await expect
    .poll(
      () =>
        player(p).evaluate(
          (el: HTMLElement & { loadedFrameCount?: number; totalFrames?: number }) =>
            (el.totalFrames ?? 0) > 0 && el.loadedFrameCount === el.totalFrames,
        ),
      { timeout: 60_000 },
    )
    .toBe(true);
}
async function canvasHash(p: Page): Promise<string> {
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
    let h = 0;
    for (let i = 0; i < d.length; i += 97) h = (h * 31 + d[i]!) | 0;
    return `${c.width}x${c.height}:${h}`;
  });
}
async function openDrawer(p: Page) {
  if (!(await drawer(p).isVisible())) await player(p).getByRole('button', { name: 'Fast Travel' }).click();
  await expect(drawer(p)).toBeVisible();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  generateTestFixtures();
  stub = await startStub();
});
test.afterAll(async () => stub?.stop());

test('/playerext logged out: fast travel changes the canvas; the menu offers Exit Tour', async ({ browser }) => {
  const context = await stubContext(browser);
  const p = await context.newPage();
  await routeTourCalls(p);
  await p.goto(`/playerext?tourId=${MAIN}&hiRes=false&debugPlayer=true&hostEventEnabled=true`);
  await ready(p);
  const el = player(p);
  expect(
    await el.evaluate(
      (
        e: HTMLElement & { mode: string; hiRes: boolean; debug: boolean; hostEvents: boolean; liveViewing: boolean },
      ) => [e.mode, e.hiRes, e.debug, e.hostEvents, e.liveViewing],
    ),
  ).toEqual(['external', false, true, true, false]);
  await openDrawer(p);
  const before = await canvasHash(p);
  await drawer(p).getByRole('button', { name: 'Bedroom', exact: true }).click();
  await expect.poll(() => canvasHash(p), { timeout: 15_000 }).not.toBe(before);
  await expect.poll(() => el.evaluate((e: HTMLElement & { currentFrame: number }) => e.currentFrame)).toBe(100);
  await screen(p, 'player-external');
  await el.getByRole('button', { name: 'Menu' }).click();
  const menu = dialog(p, 'Player Menu');
  await expect(menu.locator('.action-list sl-button')).toHaveText(['Share from here', 'Exit Tour']);
  await expect(menu.locator('.player-menu-footer a')).toHaveText(['Privacy', 'Terms', 'Licenses']);
  await screen(p, 'player-menu-external');
  await menu.getByRole('button', { name: 'Exit Tour' }).click();
  await p.waitForURL((u) => u.pathname === '/login');
  await context.close();
});

test('a tour asks for no cookie choice: no banner on the player route, and the player fills the window', async ({
  browser,
}) => {
  const context = await stubContext(browser);
  const p = await context.newPage();
  await p.setViewportSize({ width: 1280, height: 800 });
  await routeTourCalls(p);
  await p.goto(`/playerext?tourId=${MAIN}`);
  await ready(p);
  await expect(p.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await expect
    .poll(async () => {
      const b = (await p.locator('main.player-page').boundingBox())!;
      return Math.round(b.y + b.height);
    })
    .toBe(800);
  await context.close();
});

test('menus hide with disabledControls=menu,markers; a bad id shows Invalid Link; the embedding example', async ({
  browser,
}) => {
  const context = await stubContext(browser);
  const p = await context.newPage();
  await routeTourCalls(p);
  await p.goto(`/playerext?tourId=${MAIN}&disabledControls=Menu,MARKERS`);
  await ready(p);
  await expect(player(p).getByRole('button', { name: 'Menu' })).toHaveCount(0);
  await expect(player(p).getByRole('button', { name: 'Fast Travel' })).toHaveCount(0);
  await p.goto('/agentplayer?tourId=not-a-tour');
  await expect(player(p).getByText(ERROR_TEXTS.invalidLink)).toBeVisible();
  await p.goto(`/previewplayer?tourId=${MAIN}`);
  await p.waitForURL((u) => u.pathname === '/playerext' && u.search === `?tourId=${MAIN}`);
  await p.goto(`/embedded_example/${MAIN}`);
  await expect(p.locator('iframe.embedded-frame')).toHaveAttribute(
    'src',
    new RegExp(`/playerext\\?tourId=${MAIN}&disabledControls=feedback&disableCookies=true$`),
  );
  // One cookie banner: the page's; the embed was told the host handles consent.
  await expect(p.getByRole('region', { name: 'Cookie consent' })).toHaveCount(1);
  const embedded = p.frameLocator('iframe.embedded-frame');
  await expect(embedded.locator('tour-player')).toBeAttached();
  await expect(embedded.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await screen(p, 'embedded-example');
  await context.close();
});

test('the editor: add three markers, rename one, delete one; preview and edit menus', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await stubContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const p = await context.newPage();
  await routeTourCalls(p);
  const email = `editor-${Date.now().toString(36)}@example.com`;
  const reg = await p.request.post('/query', {
    data: {
      query: 'mutation($input: UserRegisterInput!) { userRegister(input: $input) { id } }',
      variables: {
        input: {
          username: email,
          password: 'Walkthrough1',
          name: 'Eddie',
          surname: 'Editor',
          acceptedTerms: true,
          turnstileToken: DEV_TURNSTILE_TOKEN,
        },
      },
    },
  });
  expect(reg.ok()).toBe(true);
  await p.goto(pathOf(await mailLink(p, email, /\/account\/activate\?token=/)));
  await expect(p.getByText(ERROR_TEXTS.activationSuccess)).toBeVisible();
  await p.goto('/login');
  await p.getByLabel('Email').fill(email);
  await p.getByLabel('Password').fill('Walkthrough1');
  await p.getByRole('button', { name: 'Log in with email' }).click();
  await p.waitForURL((u) => u.pathname === '/');

  await p.goto(`/editplayer?tourId=${EDIT}`);
  await ready(p);
  await expect(player(p).locator('h1.title')).toContainText('(Edit Mode)');
  await openDrawer(p);
  const total = await player(p).evaluate((e: HTMLElement & { totalFrames: number }) => e.totalFrames);
  for (const [i, name] of ['Foyer', 'Pantry', 'Garage'].entries()) {
    await player(p).evaluate(
      (e: HTMLElement & { goToFrame(n: number): Promise<void> }, n) => e.goToFrame(n),
      Math.floor(((i + 1) * total) / 5) + 3,
    );
    if (await drawer(p).getByRole('button', { name: 'Add', exact: true }).isVisible())
      await drawer(p).getByRole('button', { name: 'Add', exact: true }).click();
    await drawer(p)
      .getByRole('listitem')
      .filter({ hasText: new RegExp(`^${name}$`) })
      .click();
    await expect(drawer(p).getByRole('button', { name, exact: true })).toBeVisible();
  }
  await drawer(p).getByRole('button', { name: 'Rename Pantry' }).click();
  await drawer(p).getByRole('listitem').getByLabel('Marker name').fill('Walk-in Pantry');
  await drawer(p).getByRole('button', { name: 'Save', exact: true }).click();
  await expect(drawer(p).getByRole('button', { name: 'Walk-in Pantry', exact: true })).toBeVisible();
  await drawer(p).getByRole('button', { name: 'Delete Garage' }).click();
  await drawer(p).getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(drawer(p).getByRole('button', { name: 'Garage', exact: true })).toHaveCount(0);
  await screen(p, 'player-editor');

  await player(p).getByRole('button', { name: 'Menu' }).click();
  const edit = dialog(p, 'Player Menu (Edit Mode)');
  await expect(edit.locator('.action-list sl-button')).toHaveText([
    'Sharing Options',
    'Share from here',
    'Preview Tour',
    'Save & Exit',
  ]);
  await screen(p, 'player-menu-edit');
  await edit.getByRole('button', { name: 'Sharing Options' }).click();
  const sharing = dialog(p, 'Sharing Options');
  await sharing.getByRole('button', { name: 'Copy', exact: true }).first().click();
  await expect(sharing.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await p.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/playerext\\?tourId=${EDIT}$`));
  // The Unbranded link (MLS): the external player with unbranded=true.
  await expect(sharing.getByLabel('Unbranded link')).toHaveValue(
    new RegExp(`/playerext\\?tourId=${EDIT}&unbranded=true$`),
  );
  await sharing.getByRole('button', { name: 'Generate QR Code' }).click();
  await expect(sharing.getByTestId('qr-image')).toBeVisible();
  await screen(p, 'player-sharing');
  await sharing.getByRole('button', { name: 'Close' }).last().click();
  await player(p).getByRole('button', { name: 'Menu' }).click();
  await dialog(p, 'Player Menu (Edit Mode)').getByRole('button', { name: 'Preview Tour' }).click();
  await p.waitForURL((u) => u.pathname === '/previewplayer');
  await ready(p);
  await player(p).getByRole('button', { name: 'Menu' }).click();
  await expect(dialog(p, 'Player Menu').locator('.action-list sl-button')).toHaveText([
    'Edit Tour',
    'Share from here',
    'Exit Preview',
  ]);
  await dialog(p, 'Player Menu').getByRole('button', { name: 'Exit Preview' }).click();
  await p.waitForURL((u) => u.pathname === '/');
  await context.close();
});

test('privacy-strict visitor: with localStorage throwing SecurityError (third-party storage blocked) /playerext plays', async ({
  browser,
}) => {
  const context = await stubContext(browser);
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException(
          "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
          'SecurityError',
        );
      },
    });
  });
  const p = await context.newPage();
  const errors: string[] = [];
  p.on('pageerror', (e) => errors.push(e.message));
  await routeTourCalls(p);
  await p.goto(`/playerext?tourId=${MAIN}&disableCookies=true`);
  await ready(p);
  expect(errors).toEqual([]);
  // The host passed its consent: no banner of our own.
  await expect(p.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await context.close();
});

test('deep link to a room; Share from here copies a link that opens at the current room', async ({ browser }) => {
  const context = await stubContext(browser);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const p = await context.newPage();
  await routeTourCalls(p);
  await p.goto(`/playerext?tourId=${MAIN}&room=bedroom`);
  await ready(p);
  const el = player(p);
  expect(await el.evaluate((e: HTMLElement & { currentFrame: number }) => e.currentFrame)).toBe(100);
  await el.evaluate((e: HTMLElement & { goToRoom(n: string): Promise<void> }) => e.goToRoom('Kitchen'));
  await el.getByRole('button', { name: 'Menu' }).click();
  await dialog(p, 'Player Menu').getByRole('button', { name: 'Share from here' }).click();
  await expect
    .poll(() => p.evaluate(() => navigator.clipboard.readText()))
    .toMatch(new RegExp(`/playerext\\?tourId=${MAIN}&room=Kitchen$`));
  const link = await p.evaluate(() => navigator.clipboard.readText());
  await p.goto(pathOf(link));
  await ready(p);
  expect(await el.evaluate((e: HTMLElement & { currentFrame: number }) => e.currentFrame)).toBe(40);
  await p.goto(`/playerext?tourId=${MAIN}&frame=100`);
  await ready(p);
  expect(await el.evaluate((e: HTMLElement & { currentFrame: number }) => e.currentFrame)).toBe(100);
  await context.close();
});

test('unbranded link: no menu, agent details, live call or any link inside the tour', async ({ browser }) => {
  const context = await stubContext(browser);
  const p = await context.newPage();
  await routeTourCalls(p);
  await p.setViewportSize({ width: 390, height: 844 });
  await p.goto(`/agentplayer?tourId=${MAIN}&unbranded=true&liveViewing=true`);
  await ready(p);
  const el = player(p);
  await el.evaluate((e: HTMLElement & { totalFrames: number; goToFrame(n: number): Promise<void> }) =>
    e.goToFrame(e.totalFrames - 1),
  );
  await expect(el.getByRole('button', { name: 'Menu' })).toHaveCount(0);
  expect(
    await el.evaluate(
      (e) =>
        e.shadowRoot!.querySelectorAll('a, [href], [part="live-start"], .agent-card, .info-panel, img.intro-logo')
          .length,
    ),
  ).toBe(0);
  await expect(el).not.toContainText(/Listing Link|Whats Chat|Talk to Agent|Go Live/);
  await screen(p, 'player-unbranded-mobile');
  await context.close();
});
