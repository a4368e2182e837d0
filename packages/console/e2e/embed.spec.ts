/**
 * Embed anywhere, against the product itself: the real server (built console, the built player bundle at
 * /player/tour-player.js) on 127.0.0.1 and a tour made by the real pipeline; a listing site on `localhost` (another
 * site) with the snippets of docs/embedding.md read at test time: (a) the script tag, (b) the iframe with hostOrigins
 * (also with third-party storage blocked), (c) the bundled React example, and the examples' own HTML pages. Each shows
 * frames on the canvas, obeys host messages, fast-travels, and logs no console error or CSP violation. The lazy/eager
 * figures (bytes and requests a listing page spends before the tour scrolls into view, time to first frame after) are
 * printed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type BrowserContext, type Frame, type Page } from '@playwright/test';
import {
  KITCHEN_FRAME,
  REPO,
  buildReactExample,
  embedSnippets,
  fill,
  listingPage,
  makeRealTour,
  readPlayerState,
  startListingSite,
  type PlayerState,
  type RealTour,
} from './embed-support.js';

test.describe.configure({ mode: 'serial' });

const PRODUCT = process.env.E2E_BASE_URL!;
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'];
let tour: RealTour;
let site: { origin: string; stop: () => Promise<void> };

type Scope = Page | Frame;

/** Console errors, page errors and CSP violations of a page and all its frames. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${m.location().url}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  return errors;
}

async function reportViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `CSP violation: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} in ${document.URL}`,
      ),
    );
  });
}

/** What the <tour-player> of a page or frame shows (embed-support.ts readPlayerState). */
function state(scope: Scope): Promise<PlayerState | null> {
  return scope.evaluate(readPlayerState);
}

async function showsFrame(scope: Scope, frame: number): Promise<PlayerState> {
  let last: PlayerState | null = null;
  await expect
    .poll(
      async () => {
        last = await state(scope);
        return last && last.total > 0 && last.frame === frame && last.colours > 20;
      },
      { message: `the player shows frame ${frame}`, timeout: 60_000 },
    )
    .toBe(true);
  return last!;
}

/** The /playerext frame of a listing page. */
async function playerFrame(page: Page): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().includes('/playerext')), { timeout: 20_000 }).toBe(true);
  return page.frames().find((f) => f.url().includes('/playerext'))!;
}

/** Host messages move the tour, then fast travel to the Kitchen; the canvas changes with each. */
async function drive(scope: Scope, send: (kind: 'scroll' | 'marker') => Promise<void>): Promise<void> {
  await showsFrame(scope, 0);
  await send('scroll');
  const atScroll = await showsFrame(scope, 12);
  await send('marker');
  const atKitchen = await showsFrame(scope, KITCHEN_FRAME);
  expect(atKitchen.hash).not.toBe(atScroll.hash);
  await send('scroll');
  await showsFrame(scope, 12);
  // Fast travel by the element's API (the React page's button below uses the same path).
  await scope.evaluate(() =>
    (document.querySelector('tour-player') as unknown as { goToMarker(n: string): Promise<void> }).goToMarker(
      'Kitchen',
    ),
  );
  await showsFrame(scope, KITCHEN_FRAME);
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // E2E_EMBED_TOUR: reuse a tour made by an earlier run against the same server (local iterations only).
  tour = process.env.E2E_EMBED_TOUR
    ? { tourId: process.env.E2E_EMBED_TOUR, totalFrames: 0 }
    : await makeRealTour(PRODUCT);
  const s = embedSnippets();
  const vars = () => ({ product: PRODUCT, site: site.origin, tourId: tour.tourId });
  // Pages are rendered when asked (the site's origin is known once it listens).
  const pages: Record<string, () => string> = {
    '/script-tag.html': () => listingPage('Script tag', fill(s.scriptTag, vars())),
    '/iframe.html': () =>
      listingPage(
        'Iframe',
        `${fill(s.drivenIframe, vars())}\n<script>\nconst lines = ${JSON.stringify(fill(s.hostMessages, vars()).split('\n'))};\nwindow.driveHost = (kind) => new Function(lines[0] + '\\n' + lines[kind === 'scroll' ? 1 : 2])();\n</script>`,
      ),
    '/lazy.html': () =>
      listingPage('Lazy', `<div style="height:3000px">Listing details</div>\n${fill(s.scriptTag, vars())}`),
    '/eager.html': () =>
      listingPage(
        'Eager',
        `<div style="height:3000px">Listing details</div>\n${fill(s.scriptTag, vars()).replace('<tour-player ', '<tour-player loading="eager" ')}`,
      ),
    '/examples/script-tag.html': () =>
      fs
        .readFileSync(path.join(REPO, 'examples/script-tag.html'), 'utf8')
        .replaceAll('http://localhost:4000', PRODUCT)
        .replaceAll('tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10', tour.tourId),
    '/examples/iframe.html': () =>
      fs
        .readFileSync(path.join(REPO, 'examples/iframe.html'), 'utf8')
        .replaceAll('http://localhost:4000', PRODUCT)
        .replaceAll('http://localhost:8080', site.origin)
        .replaceAll('tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10', tour.tourId),
    '/react/index.html': () => fs.readFileSync(path.join(REPO, 'examples/react/index.html'), 'utf8'),
  };
  const reactBundle = await buildReactExample();
  const files: Record<string, [string, string]> = {};
  site = await startListingSite(
    new Proxy(files, {
      get: (_t, key: string) =>
        key === '/react/main.js'
          ? ['text/javascript', reactBundle]
          : pages[key]
            ? ['text/html', pages[key]!()]
            : undefined,
    }),
  );
});
test.afterAll(async () => site?.stop());

test('(a) the script tag on another site: frames, host messages, fast travel, no errors', async ({ browser }) => {
  for (const device of [
    { viewport: { width: 1280, height: 800 } },
    { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  ]) {
    const context = await browser.newContext(device);
    await reportViolations(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${site.origin}/script-tag.html`);
    // The host page drives the element with window messages from its own origin.
    await page.locator('tour-player').evaluate((el) => el.setAttribute('host-events', ''));
    await drive(page, (kind) =>
      page.evaluate(
        ([k, f]) =>
          window.postMessage(
            { type: k === 'scroll' ? 'roomwalk_scroll' : 'roomwalk_marker', frameIndex: f },
            location.origin,
          ),
        [kind, kind === 'scroll' ? 12 : KITCHEN_FRAME] as const,
      ),
    );
    expect(errors).toEqual([]);
    await context.close();
  }
});

test('(b) the iframe with hostOrigins: the docs snippet drives it; no errors', async ({ browser }) => {
  const context = await browser.newContext();
  await reportViolations(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${site.origin}/iframe.html`);
  const frame = await playerFrame(page);
  await drive(frame, (kind) =>
    page.evaluate((k) => (window as unknown as { driveHost(k: string): void }).driveHost(k), kind),
  );
  expect(errors).toEqual([]);
  await context.close();
});

test('(b) the iframe plays with third-party storage blocked', async () => {
  // Chromium's "Block third-party cookies" setting: the /playerext frame (127.0.0.1 inside a localhost page) gets no
  // storage.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'roomwalk-3p-blocked-'));
  fs.mkdirSync(path.join(dir, 'Default'));
  fs.writeFileSync(
    path.join(dir, 'Default', 'Preferences'),
    JSON.stringify({ profile: { block_third_party_cookies: true, cookie_controls_mode: 1 } }),
  );
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: LAUNCH_ARGS,
  });
  try {
    await reportViolations(context);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${site.origin}/iframe.html`);
    const frame = await playerFrame(page);
    // The setting is in force: the frame's storage throws.
    expect(
      await frame.evaluate(() => {
        try {
          return String(window.localStorage.length >= 0);
        } catch (e) {
          return (e as Error).name;
        }
      }),
    ).toBe('SecurityError');
    await drive(frame, (kind) =>
      page.evaluate((k) => (window as unknown as { driveHost(k: string): void }).driveHost(k), kind),
    );
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('(c) the bundled React example on another site: frames, its Kitchen button, host messages', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await reportViolations(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(
    `${site.origin}/react/index.html?tourId=${encodeURIComponent(tour.tourId)}&api=${encodeURIComponent(PRODUCT)}`,
  );
  await page.locator('tour-player').evaluate((el) => el.setAttribute('host-events', ''));
  await drive(page, (kind) =>
    page.evaluate(
      ([k, f]) =>
        window.postMessage(
          { type: k === 'scroll' ? 'roomwalk_scroll' : 'roomwalk_marker', frameIndex: f },
          location.origin,
        ),
      [kind, kind === 'scroll' ? 12 : KITCHEN_FRAME] as const,
    ),
  );
  await page.evaluate(() => window.postMessage({ type: 'roomwalk_scroll', frameIndex: 12 }, location.origin));
  await showsFrame(page, 12);
  await page.getByRole('button', { name: 'Go to the kitchen' }).click();
  await showsFrame(page, KITCHEN_FRAME);
  await expect(page.getByText('Room: Kitchen')).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});

test('the examples/ pages run as written (server address and tour id aside)', async ({ browser }) => {
  const context = await browser.newContext();
  await reportViolations(context);
  const page = await context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${site.origin}/examples/script-tag.html`);
  await showsFrame(page, 0);
  await page.goto(`${site.origin}/examples/iframe.html`);
  const frame = await playerFrame(page);
  await showsFrame(frame, 0);
  await page.getByRole('button', { name: 'Kitchen' }).click();
  await showsFrame(frame, KITCHEN_FRAME);
  expect(errors).toEqual([]);
  await context.close();
});

test('lazy versus eager: what the listing page spends before the tour scrolls into view, and the first frame after', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const figures: Record<string, { requests: number; bytes: number; clips: number; firstFrameMs: number }> = {};
  for (const mode of ['lazy', 'eager'] as const) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    let requests = 0;
    let bytes = 0;
    let clips = 0;
    page.on('requestfinished', (r) => {
      if (!r.url().startsWith(PRODUCT)) return;
      requests++;
      if (/\/media\/.*\.mp4/.test(r.url())) clips++;
      // A size that arrives after the figures were taken (or after the context closed) counts for nothing.
      r.sizes().then(
        (s) => (bytes += s.responseBodySize + s.responseHeadersSize),
        () => undefined,
      );
    });
    await page.goto(`${site.origin}/${mode}.html`);
    await page.waitForLoadState('networkidle');
    // Settle: the element has its tour (and, when eager, its clips) by now.
    await expect
      .poll(() => page.locator('tour-player').evaluate((el) => !!(el as unknown as { tour: unknown }).tour), {
        timeout: 30_000,
      })
      .toBe(true);
    // Eager starts its workers once the tour is in; on a busy machine that can come after a 500 ms network lull, so
    // "network idle" alone does not mean the clips were asked for: wait for the first one to have been fetched.
    if (mode === 'eager') await expect.poll(() => clips, { timeout: 30_000 }).toBeGreaterThan(0);
    await page.waitForLoadState('networkidle');
    const before = { requests, bytes, clips };
    const firstFrameMs = await page.locator('tour-player').evaluate(async (el) => {
      const p = el as unknown as { displayed: unknown; scrollIntoView(): void };
      const t0 = performance.now();
      p.scrollIntoView();
      while (!p.displayed) await new Promise((r) => requestAnimationFrame(r));
      return Math.round(performance.now() - t0);
    });
    figures[mode] = { ...before, firstFrameMs };
    expect(errors).toEqual([]);
    await context.close();
  }
  console.log(
    `embed figures (before the tour scrolls into view; then time to first frame):\n${JSON.stringify(figures, null, 1)}`,
  );
  // Lazy loading fetches no clip until the element nears the viewport; eager fetches them at once.
  expect(figures.lazy!.clips).toBe(0);
  expect(figures.eager!.clips).toBeGreaterThan(0);
  expect(figures.lazy!.bytes).toBeLessThan(figures.eager!.bytes);
});
