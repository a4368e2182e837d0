/**
 * Touch that walks through a tour, on a 390x844 touch phone against the product itself: the real server
 * (built console; the built player bundle at /player/tour-player.js) and tours made by the real pipeline (a 60 s
 * landscape walkthrough, 15 fps, with eight rooms; an 11 s portrait one). Gestures are real touch events
 * (Input.dispatchTouchEvent through the DevTools protocol), one finger move per refresh. Measured and printed: natural
 * swipes (150-250 px in 200-300 ms, anywhere on the stage) and seconds of joystick to walk the 60 s tour start to end;
 * asserted: at most 6 swipes, left is forward and the first touch says so once, the joystick keeps moving while held
 * still and stops on release, a careful drag lands on a chosen single frame; and at 390x844 nothing covers
 * the picture or the drawer (the Feedback button, the joystick; on /playerext and in the examples/ script-tag page).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type CDPSession, type Locator, type Page } from '@playwright/test';
import { REPO, makeRealTour, startListingSite, type RealTour } from './embed-support.js';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

const PRODUCT = process.env.E2E_BASE_URL!;
const ROOMS: Array<[string, number]> = [
  ['Entrance', 0],
  ['Hallway', 110],
  ['Kitchen', 220],
  ['Lounge', 330],
  ['Dining Room', 440],
  ['Bedroom', 550],
  ['Bathroom', 660],
  ['Balcony', 800],
];
let walk: RealTour;
let portrait: RealTour;
let site: { origin: string; stop: () => Promise<void> };

type PlayerEl = HTMLElement & {
  currentFrame: number;
  totalFrames: number;
  loadedFrameCount: number;
  displayed: { frame: number } | null;
  goToFrame(n: number): Promise<void>;
};

const player = (p: Page) => p.locator('tour-player');

/** One finger on the touch screen, moved through the DevTools protocol; each move waits for the page's next refresh. */
class Finger {
  x = 0;
  y = 0;
  constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
  ) {}
  static async on(page: Page): Promise<Finger> {
    return new Finger(page, await page.context().newCDPSession(page));
  }
  /** The samples' time stamps (s): the finger's own clock, as a touch screen stamps its samples. */
  private t = 0;
  /** Within a paced gesture the stamps follow the pace, not the (possibly late) moment each sample is sent. */
  private paced = false;
  private send(type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<{ x: number; y: number }>) {
    if (!this.paced) this.t = Date.now() / 1000;
    return this.cdp.send('Input.dispatchTouchEvent', {
      type,
      timestamp: this.t,
      touchPoints: points.map((p) => ({ ...p, id: 1, radiusX: 8, radiusY: 8, force: 1 })),
    });
  }
  refresh(n = 1): Promise<void> {
    return this.page.evaluate(
      (k) =>
        new Promise<void>((r) =>
          (function f(i: number) {
            i ? requestAnimationFrame(() => f(i - 1)) : r();
          })(k),
        ),
      n,
    );
  }
  async down(x: number, y: number) {
    [this.x, this.y] = [x, y];
    await this.send('touchStart', [{ x, y }]);
  }
  /**
   * Moves by (dx, dy) in `steps` equal moves, one per refresh, or every `everyMs` of wall-clock time (a finger's own
   * pace).
   */
  async move(dx: number, dy: number, steps: number, everyMs?: number) {
    const [x0, y0] = [this.x, this.y];
    for (let i = 1; i <= steps; i++) {
      [this.x, this.y] = [x0 + (dx * i) / steps, y0 + (dy * i) / steps];
      this.paced = !!everyMs;
      if (everyMs) {
        // Stamped every `everyMs` (a loaded machine may deliver them later, as a busy phone does).
        this.t += everyMs / 1000;
        await new Promise((r) => setTimeout(r, everyMs));
      } else await this.refresh();
      await this.send('touchMove', [{ x: this.x, y: this.y }]);
    }
  }
  /** Lifts the finger: right after the last sample of a paced gesture (a flick), else now. */
  async up() {
    if (this.paced) this.t += 0.008;
    await this.send('touchEnd', []);
    this.paced = false;
  }
}

const frameOf = (p: Page) => player(p).evaluate((el: PlayerEl) => el.currentFrame);
/** The last frame (totalFrames is the sum of the clips' frames minus 1: the last frame's index). */
const maxFrame = (p: Page) => player(p).evaluate((el: PlayerEl) => el.totalFrames);

/**
 * Waits until the playhead has not moved for 60 refreshes and shows its frame (a coast may wait for decoding); returns
 * the frame.
 */
function settled(p: Page): Promise<number> {
  return player(p).evaluate(
    (el: PlayerEl) =>
      new Promise<number>((resolve) => {
        let last = -1;
        let same = 0;
        const tick = () => {
          const f = el.currentFrame;
          same = f === last && el.displayed?.frame === f ? same + 1 : 0;
          last = f;
          if (same >= 60) resolve(f);
          else requestAnimationFrame(tick);
        };
        tick();
      }),
  );
}

async function readyAt(p: Page, url: string) {
  await p.goto(url);
  await expect
    .poll(
      () =>
        player(p).evaluate(
          (el: PlayerEl) => el.totalFrames > 0 && el.loadedFrameCount === el.totalFrames && el.displayed !== null,
        ),
      { timeout: 90_000 },
    )
    .toBe(true);
}

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
}
const overlap = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

test.beforeAll(async () => {
  test.setTimeout(600_000);
  [walk, portrait] = await Promise.all([
    makeRealTour(PRODUCT, { seconds: 60, markers: ROOMS }),
    makeRealTour(PRODUCT, { portrait: true, markers: ROOMS.slice(0, 3).map(([n, f]) => [n, f / 10]) }),
  ]);
  const example = (tourId: string) =>
    fs
      .readFileSync(path.join(REPO, 'examples/script-tag.html'), 'utf8')
      .replaceAll('http://localhost:4000', PRODUCT)
      .replaceAll('tour_0b6e7c1e-2f0a-4c55-9a43-3f1f0c2b7d10', tourId);
  site = await startListingSite({
    '/landscape.html': ['text/html', example(walk.tourId)],
    '/portrait.html': ['text/html', example(portrait.tourId)],
  });
});
test.afterAll(async () => site?.stop());

/**
 * Natural swipes: 150-250 px in 200-300 ms, anywhere on the stage (on the picture, on the empty stage above
 * it or below the joystick), pulling left to go on. Counted until the end of the 60 s tour; at most 6.
 */
async function swipesToTheEnd(page: Page, swipes: Array<{ px: number; ms: number }>, what: string): Promise<number> {
  const max = await maxFrame(page);
  const c = await box(player(page).locator('canvas'));
  const j = await box(player(page).locator('.joystick'));
  // Where a buyer's thumb lands: the picture, the stage above it, the stage below the joystick (cycled).
  const starts = [
    { x: c.x + c.width * 0.75, y: c.y + c.height / 2, where: 'picture' },
    { x: c.x + c.width * 0.75, y: Math.max(60, c.y - 80), where: 'stage above' },
    { x: c.x + c.width * 0.75, y: j.y + j.height + 40, where: 'stage below' },
  ];
  const finger = await Finger.on(page);
  const frames: string[] = [];
  let n = 0;
  while ((await frameOf(page)) < max && n < 20) {
    const { px, ms } = swipes[n % swipes.length]!;
    const at = starts[n % starts.length]!;
    await finger.down(at.x, at.y);
    // One sample every 16 ms for the swipe's length, lifted while moving (as a thumb flicks).
    await finger.move(-px, 0, Math.round(ms / 16), 16);
    await finger.up();
    n++;
    frames.push(`${at.where} ${px}px/${ms}ms -> ${await settled(page)}`);
  }
  console.log(`[phone-touch] ${what}: ${n} swipes to walk the 60 s tour (${max + 1} frames): ${frames.join('; ')}`);
  expect(await frameOf(page)).toBe(max);
  return n;
}

test('a buyer crosses the 60 s tour in at most 6 natural swipes, wherever on the stage they start (left is forward)', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await readyAt(page, `/playerext?tourId=${walk.tourId}`);
  // The slowest, shortest natural swipe every time: 150 px in 300 ms.
  expect(
    await swipesToTheEnd(page, [{ px: 150, ms: 300 }], 'slowest natural swipes (150 px, 300 ms)'),
  ).toBeLessThanOrEqual(6);
  await player(page).evaluate((el: PlayerEl) => el.goToFrame(0));
  expect(
    await swipesToTheEnd(
      page,
      [
        { px: 200, ms: 250 },
        { px: 150, ms: 200 },
        { px: 250, ms: 300 },
      ],
      'mixed natural swipes',
    ),
  ).toBeLessThanOrEqual(6);
  // A pull to the right goes back.
  const c = await box(player(page).locator('canvas'));
  const finger = await Finger.on(page);
  const before = await frameOf(page);
  await finger.down(c.x + c.width * 0.25, c.y + c.height / 2);
  await finger.move(200, 0, 16, 16);
  await finger.up();
  expect(await settled(page)).toBeLessThan(before - 100);
});

test('the first touch shows which way is forward, once, as a status that goes by itself', async ({ page }) => {
  test.setTimeout(120_000);
  await readyAt(page, `/playerext?tourId=${walk.tourId}`);
  const hint = player(page).locator('[part="direction-hint"]');
  await expect(hint).toHaveCount(0);
  const c = await box(player(page).locator('canvas'));
  const finger = await Finger.on(page);
  await finger.down(c.x + c.width * 0.6, c.y + c.height / 2);
  await expect(hint).toHaveText(/Swipe left to go forward, right to go back/);
  await expect(hint).toHaveAttribute('role', 'status');
  await finger.move(-40, 0, 10);
  await finger.up();
  // It hides itself; the next touches do not show it again.
  await expect(hint).toHaveCount(0, { timeout: 10_000 });
  await finger.down(c.x + c.width * 0.6, c.y + c.height / 2);
  await finger.refresh(5);
  await expect(hint).toHaveCount(0);
  await finger.up();
});

test('the joystick is a rate control: held still off centre it keeps moving to the end, and stops on release', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await readyAt(page, `/playerext?tourId=${walk.tourId}`);
  const max = await maxFrame(page);
  const j = await box(player(page).locator('.joystick'));
  const finger = await Finger.on(page);
  await finger.down(j.x + j.width / 2, j.y + j.height / 2);
  await finger.move(160, 0, 8);
  const started = Date.now();
  const at = await frameOf(page);
  // The finger is still: the tour goes on.
  await expect.poll(() => frameOf(page), { timeout: 30_000 }).toBeGreaterThan(at + 30);
  await expect.poll(() => frameOf(page), { timeout: 120_000 }).toBe(max);
  const seconds = (Date.now() - started) / 1000;
  await finger.up();
  console.log(
    `[phone-touch] joystick held 160 px right: end of the 60 s tour (${max + 1} frames) in ${seconds.toFixed(1)} s`,
  );
  // Back, then released mid-way: it stops where it was let go.
  await finger.down(j.x + j.width / 2, j.y + j.height / 2);
  await finger.move(-60, 0, 4);
  await expect.poll(() => frameOf(page), { timeout: 30_000 }).toBeLessThan(max - 20);
  await finger.up();
  const releasedAt = await frameOf(page);
  expect(await settled(page)).toBe(releasedAt);
});

test('a careful drag lands on a chosen single frame', async ({ page }) => {
  test.setTimeout(120_000);
  await readyAt(page, `/playerext?tourId=${walk.tourId}`);
  await player(page).evaluate((el: PlayerEl) => el.goToFrame(300));
  const c = await box(player(page).locator('canvas'));
  const finger = await Finger.on(page);
  const landed: string[] = [];
  for (const step of [1, 7, -3, -1]) {
    const from = await settled(page);
    // 4 px a frame: aim at the middle of the chosen frame's span, 2 px a refresh, then hold still before lifting. The
    // picture follows the finger: a pull to the left goes forward.
    const px = -Math.sign(step) * (Math.abs(step) * 4 + 2);
    await finger.down(c.x + c.width / 2, c.y + c.height / 2);
    await finger.move(px, 0, Math.ceil(Math.abs(px) / 2));
    await finger.refresh(10);
    await finger.up();
    const to = await settled(page);
    landed.push(`${from}${step > 0 ? '+' : ''}${step} -> ${to}`);
    expect(to).toBe(from + step);
    expect(await player(page).evaluate((el: PlayerEl) => el.displayed?.frame)).toBe(from + step);
  }
  console.log(`[phone-touch] careful drags: ${landed.join(', ')}`);
});

/** The player's canvas and joystick do not overlap, and the page's other parts (the Feedback button) cover neither. */
async function nothingCovers(page: Page, what: string) {
  const canvas = await box(player(page).locator('canvas'));
  const joystick = await box(player(page).locator('.joystick'));
  console.log(`[phone-touch] ${what}: canvas ${JSON.stringify(canvas)}, joystick ${JSON.stringify(joystick)}`);
  expect(overlap(canvas, joystick), `${what}: the joystick covers the picture`).toBe(0);
  const feedback = page.locator('.feedback-button');
  if (await feedback.isVisible())
    expect(overlap(canvas, await box(feedback)), `${what}: Feedback covers the picture`).toBe(0);
  // What a finger touches at the picture's corners and bottom edge is the player.
  for (const [x, y] of [
    // (The player's own 4 px buffer bar lines the picture's bottom edge.)
    [canvas.x + 4, canvas.y + canvas.height - 8],
    [canvas.x + canvas.width / 2, canvas.y + canvas.height - 8],
    [canvas.x + canvas.width - 4, canvas.y + canvas.height - 8],
  ] as const) {
    const hit = await page.evaluate(
      ([px, py]) => {
        const top = document.elementFromPoint(px, py);
        const inner = top?.shadowRoot?.elementFromPoint(px, py) ?? top;
        return `${top?.localName}>${inner?.localName}.${inner?.className}`;
      },
      [x, y] as const,
    );
    expect(hit, `${what}: at ${x},${y}`).toBe('tour-player>canvas.');
  }
}

test('at 390x844 nothing covers the picture or the drawer: /playerext, landscape and portrait', async ({ page }) => {
  test.setTimeout(120_000);
  for (const t of [walk, portrait]) {
    await readyAt(page, `/playerext?tourId=${t.tourId}`);
    await nothingCovers(page, t === walk ? '/playerext landscape' : '/playerext portrait');
    // The drawer open at the bottom: every row can be reached, none is under the Feedback button.
    const drawer = player(page).locator('tour-markers-drawer');
    if (!(await drawer.isVisible())) await player(page).getByRole('button', { name: 'Fast Travel' }).tap();
    await expect(drawer).toBeVisible();
    const rows = drawer.locator('li[part=row]');
    const feedback = page.locator('.feedback-button');
    const fb = (await feedback.isVisible()) ? await box(feedback) : null;
    await page.screenshot({
      path: test.info().outputPath(`playerext-${t === walk ? 'landscape' : 'portrait'}-drawer.png`),
    });
    console.log(`[phone-touch] drawer ${JSON.stringify(await box(drawer))}, Feedback ${JSON.stringify(fb)}`);
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      await row.scrollIntoViewIfNeeded();
      const r = await box(row);
      if (fb) expect(overlap(r, fb), `row ${i} under Feedback`).toBe(0);
      // The row's own button is what a tap at its centre reaches.
      const hit = await page.evaluate(
        ([x, y]) => {
          let el: Element | null = document.elementFromPoint(x, y);
          while (el?.shadowRoot?.elementFromPoint(x, y) && el.shadowRoot.elementFromPoint(x, y) !== el)
            el = el.shadowRoot.elementFromPoint(x, y);
          return el?.closest('li')?.getAttribute('part') ?? el?.localName ?? null;
        },
        [r.x + r.width / 2, r.y + r.height / 2] as const,
      );
      expect(hit, `row ${i} reachable`).toBe('row');
    }
    // With the drawer open the picture shrinks to the room left: still nothing over it.
    await nothingCovers(page, `${t === walk ? 'landscape' : 'portrait'} with the drawer open`);
  }
});

test('at 390x844 the joystick covers nothing in the examples/ script-tag page', async ({ page }) => {
  test.setTimeout(120_000);
  for (const name of ['landscape', 'portrait']) {
    await readyAt(page, `${site.origin}/${name}.html`);
    await player(page).scrollIntoViewIfNeeded();
    await nothingCovers(page, `example ${name}`);
    await page.screenshot({ path: test.info().outputPath(`example-${name}.png`) });
  }
});

/** Opens the drawer of the (560 px tall) example and checks the picture keeps most of its size and nothing overlaps. */
async function drawerLeavesThePicture(page: Page, what: string) {
  const closed = await box(player(page).locator('canvas'));
  const drawer = player(page).locator('tour-markers-drawer');
  if (!(await drawer.isVisible())) await player(page).getByRole('button', { name: 'Fast Travel' }).click();
  await expect(drawer).toBeVisible();
  // The picture settles at its new size (one layout pass).
  await expect.poll(async () => (await box(player(page).locator('canvas'))).height).toBeLessThanOrEqual(closed.height);
  const [canvas, joystick, d] = [
    await box(player(page).locator('canvas')),
    await box(player(page).locator('.joystick')),
    await box(drawer),
  ];
  console.log(
    `[phone-touch] ${what}: closed ${Math.round(closed.width)}x${Math.round(closed.height)}, open ${Math.round(canvas.width)}x${Math.round(canvas.height)}, drawer ${Math.round(d.height)} px`,
  );
  await page.screenshot({ path: test.info().outputPath(`${what.replace(/\W+/g, '-')}.png`) });
  expect(overlap(canvas, d), `${what}: the drawer covers the picture`).toBe(0);
  expect(overlap(joystick, d), `${what}: the drawer covers the joystick`).toBe(0);
  expect(overlap(canvas, joystick), `${what}: the joystick covers the picture`).toBe(0);
  // Many rooms make the drawer scroll, not the picture a strip.
  expect(canvas.width, `${what}: the picture keeps at least 3/4 of its width`).toBeGreaterThanOrEqual(
    closed.width * 0.75,
  );
  // Every room is still reachable in the drawer's own scroll.
  const last = drawer.locator('li[part=row]').last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
}

test('the drawer of a short embed with many rooms scrolls instead of shrinking the picture: phone and small tablet', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await readyAt(page, `${site.origin}/landscape.html`);
  await player(page).scrollIntoViewIfNeeded();
  await drawerLeavesThePicture(page, 'example at 390x844');
  await page.setViewportSize({ width: 700, height: 900 });
  await readyAt(page, `${site.origin}/landscape.html`);
  await drawerLeavesThePicture(page, 'example at 700x900');
});
