import { expect } from '@esm-bundle/chai';
import '../tour-player/tour-player.js';
import type { TourPlayer } from '../tour-player/tour-player.js';
import { canvasOf, cleanup, firstEvent, makePlayer, stub, tours, until } from '../../test/helpers.js';

/**
 * Scrubbing forward keeps several frames in each decoder's queue: a pass that goes on from where its decoder stopped
 * feeds MIN_PASS frames (decode-planner.ts), not the one frame the window grew by. With one frame a pass the decoder
 * idles between passes, and Firefox's decoder (in another process) pays its whole latency on every frame. Not a timing
 * assertion: the shape of the passes, read from the workers' counters. Runs in the three engines.
 */
describe('decode queue while scrubbing forward', () => {
  let p: TourPlayer;
  afterEach(cleanup);

  it('feeds the decoder several frames a pass, not one', async function () {
    this.timeout(90_000);
    // The stub's tour (4 clips of 36 frames): only the workers' counters are read.
    p = await makePlayer({ 'tour-id': tours.main!, api: stub });
    await firstEvent(p, 'tour-ready', 30_000);
    // The first window (48 frames ahead) decoded: the passes after it are the ones the scrub causes.
    await until(async () => (await p.stats()).cacheFrames >= 40, 'the first window decoded', 30_000);
    const before = await p.stats();
    const canvas = canvasOf(p);
    canvas.focus();
    // One frame a refresh to frame 90: the window's edge moves from 48 to the tour's end (143), over clips 1 to 3.
    while (p.currentFrame < 90) {
      canvas.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, composed: true }));
      await new Promise((r) => requestAnimationFrame(r));
    }
    await until(async () => (await p.stats()).cacheFrames >= 60, 'the scrub decoded', 30_000);
    const after = await p.stats();
    const passes = after.resumedPasses - before.resumedPasses;
    const samples = after.resumedSamples - before.resumedSamples;
    const singles = after.resumedSingles - before.resumedSingles;
    expect(passes, 'passes that went on from where their decoder stopped').to.be.greaterThan(0);
    // One sample a pass (not at a clip's end): the decoder held to one frame. With the planning of one frame a pass it
    // is most of them; with MIN_PASS none, or the odd pass stopped by a frame already on its way in another.
    expect(singles, `one-sample passes (${singles} of ${passes}, ${samples} samples)`).to.be.at.most(
      Math.floor(passes / 4),
    );
  });
});
