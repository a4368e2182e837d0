// The swipe's release velocity and coasting, without a browser.
import { describe, expect, it } from 'vitest';
import {
  SWIPE_PX_PER_FRAME,
  SWIPE_STOP,
  decay,
  fingerSpeed,
  flingGain,
  releaseVelocity,
  scrubFrames,
  type Sample,
} from './swipe-momentum.js';

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

/**
 * One swipe as the input controller reads it: 16 ms samples of `px` over `ms`, then the finger held `holdMs` before it
 * lifts; returns the frames it carries (scrub paced by the finger, then the coast of the release velocity).
 */
function swipeReach(px: number, ms: number, holdMs = 0): number {
  const s: Sample[] = [[0, 0]];
  let frames = 0;
  const steps = Math.round(ms / 16);
  for (let i = 1; i <= steps; i++) {
    const d = (px * i) / steps;
    frames += scrubFrames(d - s.at(-1)![1], fingerSpeed(s));
    s.push([i * 16, d]);
  }
  const up = steps * 16 + (holdMs || 8);
  s.push([up, px]);
  let v = releaseVelocity(s, up);
  const dt = 1000 / 60;
  while (Math.abs(v) >= SWIPE_STOP) {
    frames += v * dt;
    v = decay(v, dt);
  }
  return frames;
}

describe('scrub pace: a person who drags deliberately crosses a 60 s tour in at most eight swipes', () => {
  const swipesFor900 = (reach: number) => Math.ceil(899 / reach);

  it('an even flick, a slow 150 px swipe and a drag whose finger stops before lifting each cross 900 frames in ≤ 8', () => {
    const flick = swipeReach(150, 200);
    const slow = swipeReach(150, 600);
    const stops = swipeReach(150, 300, 200);
    expect(swipesFor900(flick)).toBeLessThanOrEqual(8);
    expect(swipesFor900(slow)).toBeLessThanOrEqual(8);
    expect(swipesFor900(stops)).toBeLessThanOrEqual(8);
    // The finger that stops carries what it scrubbed, no coast.
    expect(stops).toBeGreaterThanOrEqual(113);
  });

  it('a careful drag (2 px a refresh) stays at 4 px a frame, so it lands on one frame', () => {
    expect(swipeReach(30, 240, 200)).toBeCloseTo(30 / SWIPE_PX_PER_FRAME, 5);
    expect(scrubFrames(8, 0)).toBe(2);
    expect(scrubFrames(8, 0.1)).toBe(2);
    expect(scrubFrames(8, 0.25)).toBe(8);
    expect(scrubFrames(-8, 1)).toBe(-8);
  });

  it('reads the finger speed over the last 60 ms', () => {
    expect(fingerSpeed([[0, 0]])).toBe(0);
    expect(fingerSpeed(moving(0.5, 160))).toBeCloseTo(0.5);
    expect(
      fingerSpeed([
        [0, 0],
        [100, 100],
        [200, 110],
      ]),
    ).toBeCloseTo(0.1);
  });
});
