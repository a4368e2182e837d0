import { expect } from '@esm-bundle/chai';
import { PaintBridge, type BitmapWant } from './paint-bridge.js';
import type { PaintMessage } from '../workers/paint-types.js';

/**
 * Issue 44, the exact frame at rest: the frame a scrub comes to rest on had been asked for ahead (not urgent) a few
 * steps before, and the paint worker made the bitmaps of the frames the playhead had passed first (urgent ones, the
 * latest first), one a refresh or slower: 100-500 ms at rest in Firefox ESR and WebKitGTK beside a busy core (the
 * engines bench's rest breakdown, docs/results.md). Order only, no timing: which requests the bridge leaves queued.
 */
describe('paint bridge: the frame at rest first', () => {
  it('cancels the requests for the frames the playhead passed, so none is made before the one it rests on', () => {
    const sent: PaintMessage[] = [];
    const bridge = new PaintBridge(() => {});
    // A worker that never answers: every request stays pending, as in a paint worker slower than the steps.
    Object.assign(bridge, {
      worker: {},
      remote: {
        run: (m: PaintMessage) => {
          sent.push(m);
          return new Promise(() => {});
        },
      },
    });
    // Forward, one frame a step (a key held down), four frames ahead: what the canvas controller asks per step.
    for (let p = 10; p <= 16; p++) {
      const wanted: BitmapWant[] = [0, 1, 2, 3, 4].map((k) => [`high:${p + k}`, p + k, 650, 366, k === 0]);
      bridge.ask(wanted, p, 5, 1);
    }
    const makes = sent.flatMap((m) => (m.make ? [m.make] : []));
    const cancelled = new Set(sent.flatMap((m) => m.cancel ?? []));
    // Every request for a frame behind the resting playhead (16) was cancelled: none is left to be made before it.
    const passed = makes.filter((m) => Number(m.key.slice(5)) < 16);
    expect(passed.length).to.be.above(0);
    expect(passed.filter((m) => !cancelled.has(m.id)).map((m) => m.key)).to.deep.equal([]);
    // The resting frame's bitmap was asked for once, and is still queued.
    const resting = makes.filter((m) => m.key === 'high:16');
    expect(resting.length).to.equal(1);
    expect(cancelled.has(resting[0]!.id)).to.equal(false);
  });
});
