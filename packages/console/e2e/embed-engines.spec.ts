/**
 * The cross-site embed journey in each engine a visitor arrives with: Chromium, Firefox ESR and WebKitGTK, each from
 * Debian's packages, each driven through player-element/test/engines.mjs startDriver: Chromium and Firefox through
 * puppeteer-core (Firefox over WebDriver BiDi), WebKitGTK through WebKitWebDriver (Playwright only runs the test; it
 * cannot drive Debian's Firefox or WebKitGTK, and its own builds cannot be fetched here). Against the product itself,
 * as embed.spec.ts: the real server Playwright's webServer starts, a tour made by the real pipeline, and a listing site
 * on `localhost` (another site) with the docs' snippets. In each engine: the script tag and the iframe with hostOrigins
 * show the first frame, obey the host page's messages and fast-travel. The time from the listing page's start to the
 * first frame is printed per engine and way, with the load average.
 */
import os from 'node:os';
import { expect, test } from '@playwright/test';
import { ENGINES, type Engine, type EngineDriver, startDriver } from '../../player-element/test/engines.mjs';
import {
  KITCHEN_FRAME,
  embedSnippets,
  fill,
  listingPage,
  makeRealTour,
  poll,
  readPlayerState,
  startListingSite,
  type PlayerState,
  type RealTour,
} from './embed-support.js';

// No retry: WebKitGTK's web-process crash (two workers drawing VideoFrames at once) is gone since the player's workers
// never hand a VideoFrame to the browser to draw (player-element/test/README.md, "WebKitGTK's crash").
test.describe.configure({ mode: 'serial' });

const PRODUCT = process.env.E2E_BASE_URL!;
let tour: RealTour;
let site: { origin: string; stop: () => Promise<void> };
const firstFrames: Record<string, { scriptTagMs: number; iframeMs: number; version: string }> = {};

// The listing page notes when the tour first shows a frame: the element's tour-ready (script tag), the frame's
// roomwalk_player_ready notice (iframe; sent only to the hostOrigins). Both fire at the first painted frame.
const FIRST_FRAME_CLOCK = `<script>
addEventListener('tour-ready', () => { window.firstFrameMs ??= performance.now(); });
addEventListener('message', (e) => { if (e.data && e.data.type === 'roomwalk_player_ready') window.firstFrameMs ??= performance.now(); });
</script>`;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  tour = process.env.E2E_EMBED_TOUR
    ? { tourId: process.env.E2E_EMBED_TOUR, totalFrames: 0 }
    : await makeRealTour(PRODUCT);
  const s = embedSnippets();
  const vars = () => ({ product: PRODUCT, site: site.origin, tourId: tour.tourId });
  const pages: Record<string, () => string> = {
    '/script-tag.html': () => listingPage('Script tag', `${FIRST_FRAME_CLOCK}\n${fill(s.scriptTag, vars())}`),
    '/iframe.html': () =>
      listingPage(
        'Iframe',
        `${FIRST_FRAME_CLOCK}\n${fill(s.drivenIframe, vars())}\n<script>\nconst lines = ${JSON.stringify(fill(s.hostMessages, vars()).split('\n'))};\nwindow.driveHost = (kind) => new Function(lines[0] + '\\n' + lines[kind === 'scroll' ? 1 : 2])();\n</script>`,
      ),
  };
  site = await startListingSite(
    new Proxy({} as Record<string, [string, string]>, {
      get: (_t, key: string) => (pages[key] ? ['text/html', pages[key]!()] : undefined),
    }),
  );
});
test.afterAll(async () => {
  await site?.stop();
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const chromium = firstFrames.chromium;
  const ratio = (ms: number, base?: number) => (base ? ` (${(ms / base).toFixed(2)}x Chromium)` : '');
  const lines = Object.entries(firstFrames).map(
    ([engine, f]) =>
      `  ${engine.padEnd(8)} ${f.version.padEnd(28)} script tag ${f.scriptTagMs} ms${ratio(f.scriptTagMs, chromium?.scriptTagMs)}, iframe ${f.iframeMs} ms${ratio(f.iframeMs, chromium?.iframeMs)}`,
  );
  if (lines.length > 0)
    console.log(`first frame on a listing page, from the page's start (load average ${load}):\n${lines.join('\n')}`);
});

/** Waits until the page's (or its player frame's) <tour-player> shows `frame` with a real picture. */
async function showsFrame(read: () => Promise<PlayerState | null>, frame: number): Promise<PlayerState> {
  return poll(
    async () => {
      const s = await read().catch(() => null);
      return s && s.total > 0 && s.frame === frame && s.colours > 20 ? s : null;
    },
    `the player to show frame ${frame}`,
    60_000,
  );
}

/** Host messages move the tour, then fast travel to the Kitchen; the canvas changes with each. */
async function drive(
  read: () => Promise<PlayerState | null>,
  send: (kind: 'scroll' | 'marker') => Promise<unknown>,
  goToKitchen: () => Promise<unknown>,
): Promise<void> {
  await showsFrame(read, 0);
  await send('scroll');
  const atScroll = await showsFrame(read, 12);
  await send('marker');
  const atKitchen = await showsFrame(read, KITCHEN_FRAME);
  expect(atKitchen.hash).not.toBe(atScroll.hash);
  await send('scroll');
  await showsFrame(read, 12);
  await goToKitchen();
  await showsFrame(read, KITCHEN_FRAME);
}

const firstFrameMs = (d: EngineDriver) =>
  d.evaluate(() => Math.round((window as unknown as { firstFrameMs: number }).firstFrameMs));

for (const engine of ENGINES as readonly Engine[]) {
  test(`${engine}: the script tag and the iframe on another site show the tour, obey host messages and fast-travel`, async () => {
    test.setTimeout(240_000);
    const d = await startDriver(engine);
    try {
      await d.goto(`${site.origin}/script-tag.html`);
      await d.evaluate(() => document.querySelector('tour-player')!.setAttribute('host-events', ''));
      const inPage = () => d.evaluate(readPlayerState);
      await drive(
        inPage,
        (kind) =>
          d.evaluate(
            (k, f) =>
              window.postMessage(
                { type: k === 'scroll' ? 'roomwalk_scroll' : 'roomwalk_marker', frameIndex: f },
                location.origin,
              ),
            kind,
            kind === 'scroll' ? 12 : KITCHEN_FRAME,
          ),
        () =>
          d.evaluate(() =>
            (document.querySelector('tour-player') as unknown as { goToMarker(n: string): Promise<void> }).goToMarker(
              'Kitchen',
            ),
          ),
      );
      const scriptTagMs = await firstFrameMs(d);

      await d.goto(`${site.origin}/iframe.html`);
      const inFrame = () => d.evaluateInFrame('/playerext', readPlayerState);
      await drive(
        inFrame,
        (kind) => d.evaluate((k) => (window as unknown as { driveHost(k: string): void }).driveHost(k), kind),
        () =>
          d.evaluateInFrame('/playerext', () =>
            (document.querySelector('tour-player') as unknown as { goToMarker(n: string): Promise<void> }).goToMarker(
              'Kitchen',
            ),
          ),
      );
      firstFrames[engine] = { scriptTagMs, iframeMs: await firstFrameMs(d), version: d.version };
    } finally {
      await d.close();
    }
  });
}
