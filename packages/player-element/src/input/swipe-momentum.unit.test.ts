// The swipe's release velocity and coasting, without a browser.
import { describe, expect, it } from 'vitest';
import { SWIPE_PX_PER_FRAME, SWIPE_STOP, decay, flingGain, releaseVelocity, type Sample } from './swipe-momentum.js';

/** Samples of a finger moving `pxPerMs` from t=0 to `untilMs`, every 16 ms. */
const moving = (pxPerMs: number, untilMs: number): Sample[] =>
  Array.from({ length: Math.floor(untilMs / 16) + 1 }, (_, i) => [i * 16, i * 16 * pxPerMs]);

describe('releaseVelocity', () => {
  it('is the finger speed over the last 100 ms, in frames per ms, times the fling gain', () => {
    const s = moving(2, 320);
    expect(releaseVelocity(s, 320)).toBeCloseTo((2 * 4) / SWIPE_PX_PER_FRAME);
    expect(releaseVelocity(moving(-3, 320), 320)).toBeCloseTo((-3 * 4) / SWIPE_PX_PER_FRAME);
    expect(releaseVelocity(moving(0.4, 320), 320)).toBeCloseTo((0.4 * 2.8) / SWIPE_PX_PER_FRAME);
  });

  it('accelerates a fling with the finger speed: 1 at the threshold, 2.8 at 0.4 px/ms, at most 4 (from 0.5 px/ms)', () => {
    expect(flingGain(0.25)).toBe(1);
    expect(flingGain(0.1)).toBe(1);
    expect(flingGain(0.4)).toBeCloseTo(2.8);
    expect(flingGain(-0.4)).toBeCloseTo(2.8);
    expect(flingGain(0.5)).toBe(4);
    expect(flingGain(5)).toBe(4);
  });

  it('carries the slowest natural swipe (150 px in 300 ms) at least 180 frames: a 900-frame tour in five', () => {
    // Direct part plus the coast of its release velocity (v x 400 ms); the finger lifts 8 ms after its last sample.
    const reach = 150 / SWIPE_PX_PER_FRAME + releaseVelocity(moving(0.5, 300), 296) * 400;
    expect(reach).toBeGreaterThanOrEqual(180);
    expect(5 * reach).toBeGreaterThan(900);
  });

  it('only counts the last 100 ms: a fast start then a slow end does not fling', () => {
    const s: Sample[] = [
      [0, 0],
      [50, 300],
      [200, 305],
      [300, 310],
    ];
    expect(releaseVelocity(s, 300)).toBe(0);
  });

  it('does not coast after a careful drag or a finger held still', () => {
    expect(releaseVelocity(moving(0.1, 400), 400)).toBe(0);
    expect(releaseVelocity([...moving(2, 160), [400, 320]], 400)).toBe(0);
    expect(releaseVelocity([[0, 0]], 0)).toBe(0);
  });
});

describe('decay', () => {
  it('coasts about velocity x 400 ms, and the speed falls off smoothly', () => {
    let v = 2.5 / SWIPE_PX_PER_FRAME;
    let frames = 0;
    const dt = 1000 / 60;
    while (Math.abs(v) >= SWIPE_STOP) {
      frames += v * dt;
      v = decay(v, dt);
    }
    expect(frames).toBeGreaterThan(200);
    expect(frames).toBeLessThan(260);
    expect(decay(1, 400)).toBeCloseTo(Math.exp(-1));
    expect(decay(-1, 0)).toBe(-1);
  });
});
