/**
 * oEmbed as a site builder uses it (issue 41, docs/embedding.md "oEmbed"): the share link is pasted, the builder finds
 * the endpoint in the share page (its `<link rel="alternate" type="application/json+oembed">`), asks it, and puts the
 * answer's `html` into a page on its own site (`localhost`, another site than the product on 127.0.0.1). In each engine
 * (Chromium, Firefox ESR, WebKitGTK from Debian, driven as embed-engines.spec.ts drives them) the tour in that page
 * shows its first frame and fast-travels to the Kitchen. Against the real server and a tour made by the real pipeline.
 */
import { expect, test } from '@playwright/test';
import { ENGINES, type Engine, startDriver } from '../../player-element/test/engines.mjs';
import {
  KITCHEN_FRAME,
  listingPage,
  makeRealTour,
  poll,
  readPlayerState,
  startListingSite,
  type PlayerState,
  type RealTour,
} from './embed-support.js';

test.describe.configure({ mode: 'serial' });

const PRODUCT = process.env.E2E_BASE_URL!;
let tour: RealTour;
let site: { origin: string; stop: () => Promise<void> };
let embed: { html: string; width: number; height: number };

const unescapeAttr = (s: string) =>
  s.replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

test.beforeAll(async () => {
  test.setTimeout(300_000);
  tour = process.env.E2E_EMBED_TOUR
    ? { tourId: process.env.E2E_EMBED_TOUR, totalFrames: 0 }
    : await makeRealTour(PRODUCT);
  // What a site builder does with a pasted link: read the page, follow its oEmbed discovery link.
  const share = `${PRODUCT}/playerext?tourId=${tour.tourId}`;
  const page = await (
    await fetch(share, { headers: { 'user-agent': 'Iframely/1.3.1 (+https://iframely.com/)' } })
  ).text();
  const tag = /<link[^>]+type="application\/json\+oembed"[^>]*>/.exec(page)?.[0];
  const endpoint = unescapeAttr(/href="([^"]+)"/.exec(tag ?? '')?.[1] ?? '');
  expect(endpoint).toContain('/oembed?');
  const res = await fetch(`${endpoint}&maxwidth=640`);
  expect(res.status).toBe(200);
  embed = (await res.json()) as typeof embed;
  expect(embed.width).toBe(640);
  site = await startListingSite({ '/pasted.html': ['text/html', listingPage('Pasted link', embed.html)] });
});
test.afterAll(async () => {
  await site?.stop();
});

/** Waits until the pasted frame's <tour-player> shows `frame` with a real picture. */
const showsFrame = (read: () => Promise<PlayerState | null>, frame: number) =>
  poll(
    async () => {
      const s = await read().catch(() => null);
      return s && s.total > 0 && s.frame === frame && s.colours > 20 ? s : null;
    },
    `the player to show frame ${frame}`,
    60_000,
  );

for (const engine of ENGINES as readonly Engine[]) {
  test(`${engine}: the oEmbed html pasted on another site plays the tour`, async () => {
    test.setTimeout(180_000);
    const d = await startDriver(engine);
    try {
      await d.goto(`${site.origin}/pasted.html`);
      const size = await d.evaluate(() => {
        const f = document.querySelector('iframe')!;
        return [f.getBoundingClientRect().width, f.getBoundingClientRect().height];
      });
      expect(size).toEqual([embed.width, embed.height]);
      const inFrame = () => d.evaluateInFrame('/playerext', readPlayerState);
      const first = await showsFrame(inFrame, 0);
      await d.evaluateInFrame('/playerext', () =>
        (document.querySelector('tour-player') as unknown as { goToMarker(n: string): Promise<void> }).goToMarker(
          'Kitchen',
        ),
      );
      const kitchen = await showsFrame(inFrame, KITCHEN_FRAME);
      expect(kitchen.hash).not.toBe(first.hash);
    } finally {
      await d.close();
    }
  });
}
