import { expect } from '@esm-bundle/chai';
import { ERROR_TEXTS } from '@roomwalk/shared';
import '../tour-player/tour-player.js';
import type { TourPlayer } from './tour-player.component.js';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  canvasOf,
  cleanup,
  eventsOf,
  firstEvent,
  makePlayer,
  observed,
  once,
  readBarcode,
  real,
  resetStub,
  server,
  showsLowRendition,
  shadowText,
  stub,
  tours,
  until,
} from '../../test/helpers.js';

// Tours come from the real server (real.*, made by the pipeline: 5 clips of 36 frames). The stub (stub, tours.*)
// stays for what the real server cannot be made to show: an INTERNAL error, a clip that never answers, a clip that is
// not video, a clip answer held back on a slow link, and clips with B-frames (the pipeline never makes them); see
// test/README.md.

/** The clip files the page and its workers requested since the test began (seen by the browser; WebKit skips). */
const clipRequests = async (test: Mocha.Context): Promise<string[]> =>
  (await observed<string[]>(test, 'requests')).filter((u) => /\/clips\//.test(u));

describe('<tour-player> loading and error states', () => {
  beforeEach(async () => {
    await resetStub();
    await executeServerCommand('requests-start');
  });
  afterEach(cleanup);

  it('shows Invalid Link for a malformed tour id without calling the server', async function () {
    const p = await makePlayer({ 'tour-id': 'not-a-tour', api: server });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('INVALID_LINK');
    await p.updateComplete;
    expect(shadowText(p))
      .to.contain(ERROR_TEXTS.invalidLinkTitle)
      .and.contain(ERROR_TEXTS.invalidLink)
      .and.contain('Go Home');
    expect((await observed<string[]>(this, 'requests')).filter((u) => u.startsWith(server))).to.deep.equal([]);
  });

  it('shows Invalid Link when the tour id is missing', async () => {
    const p = await makePlayer({ api: server });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('INVALID_LINK');
    expect(p.playerStatus).to.equal('error');
  });

  it('shows Invalid Link when the server says NOT_FOUND', async () => {
    const p = await makePlayer({ 'tour-id': real.missing, api: server });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('INVALID_LINK');
  });

  it('shows the removed dialog with support contact for TOUR_REMOVED', async () => {
    // Deleted by its owner through the API.
    const p = await makePlayer({ 'tour-id': real.removed, api: server });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('TOUR_REMOVED');
    await p.updateComplete;
    const text = shadowText(p);
    expect(text).to.contain(ERROR_TEXTS.tourRemovedTitle).and.contain(ERROR_TEXTS.tourRemoved).and.contain('support@');
  });

  it('shows a dismissable generic error dialog, not dismissable in agent mode (stub: an INTERNAL error)', async () => {
    const p = await makePlayer({ 'tour-id': tours.failing!, api: stub });
    await firstEvent(p, 'tour-error');
    await p.updateComplete;
    expect(shadowText(p))
      .to.contain(ERROR_TEXTS.dataLoadError)
      .and.contain('Retry')
      .and.contain('Show More Information');
    expect(p.shadowRoot!.querySelector('.dialog .close')).to.exist;
    (p.shadowRoot!.querySelector('.dialog .more') as HTMLButtonElement).click();
    await p.updateComplete;
    expect(shadowText(p)).to.contain(ERROR_TEXTS.unexpected).and.contain('Show Less Information');
    cleanup();
    const a = await makePlayer({ 'tour-id': tours.failing!, api: stub, mode: 'agent' });
    await firstEvent(a, 'tour-error');
    await a.updateComplete;
    expect(shadowText(a)).to.contain(ERROR_TEXTS.dataLoadError);
    expect(a.shadowRoot!.querySelector('.dialog .close')).to.equal(null);
  });

  it('shows a grey spinner while loading, then the first frame and tour-ready', async () => {
    const p = await makePlayer({ 'tour-id': real.main, api: server });
    const ready = once<CustomEvent>(p, 'tour-ready');
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('[part="loading"]')).to.exist;
    expect(p.playerStatus).to.equal('loading');
    const e = await ready;
    expect(e.detail.totalFrames).to.equal(5 * 36 - 1);
    expect(p.totalFrames).to.equal(179);
    await p.updateComplete;
    expect(p.shadowRoot!.querySelector('[part="loading"]')).to.equal(null);
    expect(readBarcode(canvasOf(p))).to.equal(0);
    expect(eventsOf<CustomEvent>(p, 'tour-status-change').map((x) => x.detail.status)).to.deep.equal([
      'loading',
      'ready',
    ]);
  });

  it('keeps the spinner ring hidden and still for its first second, and blurs the background small and scaled up', async () => {
    // Both keep a quick load from redrawing every refresh: WebKitGTK composites in software GL, where a turning ring
    // over a full-size blur took most of the first frame's CPU.
    const p = await makePlayer({ 'tour-id': real.main, api: server });
    await p.updateComplete;
    const ring = p.shadowRoot!.querySelector<HTMLElement>('.spinner')!;
    const delays = Object.fromEntries(
      ring.getAnimations().map((a) => [(a as CSSAnimation).animationName, a.effect!.getTiming().delay]),
    );
    expect(delays).to.deep.equal({ spin: 1000, late: 1000 });
    const background = (await until(() => p.shadowRoot!.querySelector<HTMLElement>('.background'), 'the background'))!;
    const blur = Number(/blur\(([\d.]+)px\)/.exec(getComputedStyle(background).filter)?.[1]);
    expect(blur).to.be.below(3);
    expect(background.offsetWidth).to.be.below(p.offsetWidth / 4);
    // Scaled up, it still covers the whole player.
    const box = background.getBoundingClientRect();
    const host = p.getBoundingClientRect();
    expect(box.left).to.be.below(host.left);
    expect(box.right).to.be.above(host.right);
    expect(box.top).to.be.below(host.top);
    expect(box.bottom).to.be.above(host.bottom);
  });

  it('shows "This is taking a while..." when no frame arrives in time, with Refresh (stub: clips that never answer)', async () => {
    const p = await makePlayer({ 'tour-id': tours.slow!, api: stub }, { loadingTimeoutMs: 300 });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('LOAD_TIMEOUT');
    await p.updateComplete;
    expect(shadowText(p))
      .to.contain(ERROR_TEXTS.takingAWhileTitle)
      .and.contain(ERROR_TEXTS.takingAWhile)
      .and.contain('Refresh');
  });

  it('shows "Failed to Load" when a clip cannot be decoded (stub: a clip that is not video)', async () => {
    const p = await makePlayer({ 'tour-id': tours.broken!, api: stub });
    const err = await firstEvent<CustomEvent>(p, 'tour-error');
    expect(err.detail.error.code).to.equal('DECODE_FAILED');
    await p.updateComplete;
    expect(shadowText(p)).to.contain(ERROR_TEXTS.failedToLoadTitle).and.contain(ERROR_TEXTS.failedToLoad);
  });
});

describe('<tour-player> decoding', () => {
  let p: TourPlayer;
  beforeEach(() => executeServerCommand('requests-start'));
  afterEach(cleanup);

  it('draws the exact high-resolution frame for any scrollable index', async () => {
    p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    for (const n of [1, 35, 36, 37, 71, 100, 141, 176, 5]) {
      await p.goToFrame(n);
      expect(readBarcode(canvasOf(p)), `frame ${n}`).to.equal(n);
      expect(showsLowRendition(canvasOf(p)), `frame ${n} rendition`).to.equal(false);
    }
    // Beyond the last real frame (179 of 180) is clamped.
    await p.goToFrame(9999);
    expect(p.currentFrame).to.equal(179);
    expect(readBarcode(canvasOf(p))).to.equal(179);
  });

  it("shows the target clip's keyframe thumbnail at the next frame after a far jump, then the exact frame", async () => {
    p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    // All five keyframe thumbnails (320x180 RGBA each for a 5-clip tour).
    await until(async () => (await p.stats()).thumbnailBytes >= 5 * 320 * 180 * 4, 'thumbnails');
    const done = p.goToFrame(130);
    await new Promise((r) => requestAnimationFrame(r));
    const shown = readBarcode(canvasOf(p));
    expect(shown, 'a frame of clip 3 (108..143) right away').to.be.within(108, 143);
    await done;
    expect(readBarcode(canvasOf(p))).to.equal(130);
    expect(showsLowRendition(canvasOf(p))).to.equal(false);
  });

  it('plays clips with B-frames (presentation order differs from decode order; stub: the pipeline never makes them)', async () => {
    p = await makePlayer({ 'tour-id': tours.bframes!, api: stub });
    await firstEvent(p, 'tour-ready');
    for (const n of [1, 2, 17, 35, 36, 50, 69]) {
      await p.goToFrame(n);
      expect(readBarcode(canvasOf(p)), `frame ${n}`).to.equal(n);
    }
  });

  type Job = { rendition: string; clip: number; from: number; to: number; keyframe?: boolean };
  type Decode = (
    req: { rendition: string },
    onBatch: (frames: unknown[]) => void,
    signal?: AbortSignal,
  ) => Promise<number>;
  /**
   * A fully buffered player (moved to `start` when given) whose decode jobs from then on are recorded, each with
   * whether tour frame `exact` was already decoded at 720p when the job started.
   */
  async function recordJobs(exact: number, start?: number): Promise<{ job: Job; exactReady: boolean }[]> {
    p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    const decoder = (
      p as unknown as {
        decoder: {
          scheduler: { run(w: number, j: Job, focusAt: unknown): void };
          prefetcher: { fetchHigh(c: number): Promise<void> };
          frames: { cache: { kept: { high: ReadonlyMap<number, unknown> } } };
        };
      }
    ).decoder;
    // Every 720p clip downloaded: the planning under test is the decode's, not the download's.
    await Promise.all([0, 1, 2, 3, 4].map((c) => decoder.prefetcher.fetchHigh(c)));
    if (start !== undefined) await p.goToFrame(start);
    const started: { job: Job; exactReady: boolean }[] = [];
    const { scheduler } = decoder;
    const run = scheduler.run.bind(scheduler);
    scheduler.run = (w, j, focusAt) => {
      started.push({ job: { ...j }, exactReady: decoder.frames.cache.kept.high.has(exact) });
      run(w, j, focusAt);
    };
    return started;
  }

  it('after a far jump decodes the exact frame alone, starting its copies at that frame', async () => {
    const started = await recordJobs(120);
    await p.goToFrame(120);
    expect(readBarcode(canvasOf(p))).to.equal(120);
    // Clip 3 is tour frames 108..143: one high pass from its keyframe that hands out frame 12 first;
    // nothing else (no 360p, no other clip, not the frames behind) competes for the CPU meanwhile.
    const beforeExact = started
      .filter((s) => !s.exactReady && !s.job.keyframe)
      .map((s) => `${s.job.rendition} ${s.job.clip} from ${s.job.from}`);
    expect(beforeExact).to.deep.equal(['high 3 from 12']);
  });

  it('after a far jump backward decodes the exact frame alone, not the frames before it in its clip', async () => {
    const started = await recordJobs(58, 130);
    await p.goToFrame(58);
    expect(readBarcode(canvasOf(p))).to.equal(58);
    // Travelling backward the window lies before frame 58 (clip 1, local 22): a pass over 0..22 would copy 22 frames
    // before the one on screen. The exact pass is frame 22 alone.
    const beforeExact = started
      .filter((s) => !s.exactReady && !s.job.keyframe)
      .map((s) => `${s.job.rendition} ${s.job.clip} ${s.job.from}-${s.job.to}`);
    expect(beforeExact).to.deep.equal(['high 1 22-22']);
  });

  it('a short move backward to a frame nothing is decoding yet decodes that frame first', async () => {
    const started = await recordJobs(100, 130);
    // 30 frames back (not a far jump): frame 100 is clip 2, local 28, outside the window that was decoding.
    await p.goToFrame(100);
    expect(readBarcode(canvasOf(p))).to.equal(100);
    const firstHigh = started.find((s) => s.job.rendition === 'high' && s.job.clip === 2)?.job;
    expect(firstHigh && `${firstHigh.from}-${firstHigh.to}`).to.equal('28-28');
  });

  it('during a fast travel decodes the destination first, not the frames the travel passes', async () => {
    const started = await recordJobs(100);
    // From frame 0 to the Bedroom marker (frame 100, clip 2): the travel passes clip 1 in a few refreshes.
    await p.goToMarker('Bedroom');
    await until(() => readBarcode(canvasOf(p)) === 100 && !showsLowRendition(canvasOf(p)), 'frame 100 at 720p');
    const beforeExact = started
      .filter((s) => !s.exactReady && !s.job.keyframe)
      .map((s) => `${s.job.rendition} ${s.job.clip}`);
    expect(beforeExact).to.deep.equal(['high 2']);
  });

  it('while a fast scrub outruns its 720p frames decodes 360p, then the exact 720p frame where it rests', async () => {
    const started = await recordJobs(90);
    // 720p decoding that cannot keep up (a busy phone): every 720p pass from now on waits until released, or until the
    // player cancels it. The real decoder is as fast as the machine; only this stand-in makes the 720p frames late on
    // any machine.
    const bridges = (p as unknown as { decoder: { bridges: { decode: Decode }[] } }).decoder.bridges;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    for (const b of bridges) {
      const decode = b.decode.bind(b);
      b.decode = (req, onBatch, signal) => {
        if (req.rendition !== 'high') return decode(req, onBatch, signal);
        const aborted = new Promise<void>((r) => signal?.addEventListener('abort', () => r()));
        return Promise.race([held, aborted]).then(() => (signal?.aborted ? 0 : decode(req, onBatch, signal)));
      };
    }
    const from = started.length;
    const during = () => started.slice(from).filter((s) => s.job.rendition === 'low' && !s.job.keyframe);
    // Two frames a refresh (120 frames a second at 60 Hz), past the 720p frames already decoded: to frame 170 and back
    // to 90. The lower rendition waits for half a second of late positions, and how many refreshes that takes depends
    // on the engine's refresh rate (WebKit under Xvfb), so the finger goes on, back and forth, until 360p passes start
    // (at most three sweeps; none start if the policy is broken), then rests at 90.
    const canvas = canvasOf(p);
    canvas.focus();
    const step = async (key: 'ArrowRight' | 'ArrowLeft') => {
      for (const _ of [0, 1])
        canvas.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, composed: true }));
      await new Promise((r) => requestAnimationFrame(r));
    };
    for (let sweep = 0; sweep < 3 && (sweep === 0 || during().length === 0); sweep++) {
      while (p.currentFrame < 170) await step('ArrowRight');
      while (p.currentFrame > 90) await step('ArrowLeft');
    }
    expect(p.currentFrame).to.equal(90);
    expect(during().length, 'the frames ahead of the scrub decoded in 360p').to.be.greaterThan(0);
    // The finger rests at 90 (clip 2, local 18): its exact frame in 720p.
    release();
    await until(() => readBarcode(canvasOf(p)) === 90 && !showsLowRendition(canvasOf(p)), 'frame 90 at 720p');
    const rest = started.slice(from).filter((s) => s.job.rendition === 'high' && s.job.clip === 2);
    expect(rest.some((s) => s.job.from <= 18 && 18 <= s.job.to)).to.equal(true);
  });

  it('on a slow link, a far jump into a clip whose 720p file is still downloading shows the exact frame at 360p, then at 720p (stub: held clip answers)', async () => {
    // Stub: a clip answer held until released, on a shaped link. The browser cannot hold the real server's answers
    // itself: request interception does not surface a dedicated worker's fetches (they stall, never released).
    // 100 ms a round trip at 2 MB/s: a 720p clip takes well over two refreshes to come.
    await resetStub();
    await fetch(`${stub}/__shape`, { method: 'POST', body: JSON.stringify({ latencyMs: 100, bytesPerSec: 2e6 }) });
    try {
      p = await makePlayer({ 'tour-id': tours.main!, api: stub });
      await firstEvent(p, 'tour-ready');
      await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
      // Clip 3 (frames 108..143) at 720p answers only when released.
      await fetch(`${stub}/__hold`, { method: 'POST', body: JSON.stringify({ pattern: 'high-0003' }) });
      const done = p.goToFrame(120);
      await until(() => readBarcode(canvasOf(p)) === 120 && showsLowRendition(canvasOf(p)), 'frame 120 at 360p');
      expect(
        (await (await fetch(`${stub}/__clips`)).json()).filter((c: string) => c.includes('high-0003')),
      ).to.have.length.greaterThan(0);
      await fetch(`${stub}/__hold`, { method: 'POST', body: JSON.stringify({ pattern: null }) });
      await done;
      expect(readBarcode(canvasOf(p))).to.equal(120);
      expect(showsLowRendition(canvasOf(p))).to.equal(false);
    } finally {
      await fetch(`${stub}/__hold`, { method: 'POST', body: JSON.stringify({ pattern: null }) });
      await fetch(`${stub}/__shape`, { method: 'POST', body: 'null' });
    }
  });

  it('fetches the 720p clips of the markers once the 360p rendition is buffered, not the others', async function () {
    // Markers of the main tour: frames 0, 40 and 100 (clips 0, 1, 2); the playhead stays at frame 0.
    p = await makePlayer({ 'tour-id': real.main, api: server });
    await firstEvent(p, 'tour-ready');
    await until(() => p.loadedFrameCount >= p.totalFrames, 'buffered');
    const clips = await until(async () => {
      const log = await clipRequests(this);
      return log.some((c) => c.includes('/0002-high')) ? log : undefined;
    }, 'the 720p clip of the Bedroom marker');
    expect(clips!.filter((c) => /\/000[34]-high/.test(c))).to.deep.equal([]);
    expect(p.currentFrame).to.equal(0);
  });

  it('decodes only the low rendition when hi-res is "false"', async () => {
    p = await makePlayer({ 'tour-id': real.main, api: server, 'hi-res': 'false' });
    await firstEvent(p, 'tour-ready');
    await p.goToFrame(50);
    expect(readBarcode(canvasOf(p))).to.equal(50);
    expect(showsLowRendition(canvasOf(p))).to.equal(true);
  });
});
