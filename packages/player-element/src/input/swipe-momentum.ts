/**
 * A swipe on the stage scrubs directly, then coasts. While the finger moves, the scrub is paced by the finger's speed
 * (as a trackpad paces a pointer): 4 px a frame up to 0.14 px/ms, so a careful drag lands on one frame, and down to 1 px
 * a frame from 0.25 px/ms, so a deliberate drag that stops before lifting (how many people drag) still carries 150
 * frames for 150 px. Then it coasts: the release velocity, taken over the last 100 ms of pointer samples, decays exponentially (time
 * constant 400 ms, so a fling goes on for velocity × 400 ms more). Releases slower than 0.25 px/ms (a careful drag, or
 * a finger held still) do not coast. A fling is accelerated like a phone's scroll view: its coasting speed grows with
 * the finger's (×3.4 at 0.45 px/ms; ×4, the most, from 0.5 px/ms, the slowest natural swipe of 150 px in 300 ms), so a
 * buyer crosses a 60 s tour (900 frames) in at most eight swipes of any kind (an even flick, a slow 150 px swipe, a
 * drag whose finger stops before lifting) while careful drags stay exact (docs/decisions.md "Swipe direction and
 * reach").
 */
export const SWIPE_PX_PER_FRAME = 4;
/** The scrub's finest pace (careful drags) below this finger speed, px/ms. */
const CAREFUL_PX_PER_MS = 0.14;
/** The scrub's coarsest pace from this finger speed, px/ms (a slow deliberate swipe: 150 px in 600 ms). */
const DELIBERATE_PX_PER_MS = 0.25;
/** Px a frame of the coarsest pace. */
const DELIBERATE_PX_PER_FRAME = 1;
/** The finger's speed while it moves is measured over this window. */
const SPEED_WINDOW_MS = 60;
const WINDOW_MS = 100;
const MIN_FLING_PX_PER_MS = 0.25;
const TAU_MS = 400;
/** Coasting gain: 1 at the fling threshold, +12 per px/ms above it, at most 4. */
const GAIN_PER_PX_PER_MS = 12;
const MAX_GAIN = 4;
/** Coasting stops below this speed (frames per ms: 3 frames/s). */
export const SWIPE_STOP = 0.003;

/** A pointer sample: time (ms) and signed distance from the gesture's start (px, forward positive). */
export type Sample = [t: number, d: number];

/** How much faster than the finger a fling coasts, for a release speed in px/ms. */
export const flingGain = (pxPerMs: number): number =>
  Math.min(MAX_GAIN, Math.max(1, 1 + GAIN_PER_PX_PER_MS * (Math.abs(pxPerMs) - MIN_FLING_PX_PER_MS)));

/** Coasting velocity in frames per ms from the samples of the last 100 ms before `now`; 0 below the fling speed. */
export function releaseVelocity(samples: readonly Sample[], now: number): number {
  const recent = samples.filter(([t]) => t >= now - WINDOW_MS);
  const a = recent[0];
  const b = recent.at(-1);
  if (!a || !b || b[0] - a[0] < 1) return 0;
  const v = (b[1] - a[1]) / (now - a[0]);
  return Math.abs(v) < MIN_FLING_PX_PER_MS ? 0 : (v * flingGain(v)) / SWIPE_PX_PER_FRAME;
}

/** The coasting velocity after `dtMs` more. */
export const decay = (v: number, dtMs: number): number => v * Math.exp(-dtMs / TAU_MS);

/**
 * The finger's speed (px/ms) up to the newest sample, over at least the last 60 ms (from the newest sample that old, or
 * the first); 0 with fewer than two samples.
 */
export function fingerSpeed(samples: readonly Sample[]): number {
  const b = samples.at(-1);
  if (!b) return 0;
  const a = samples.findLast(([t]) => t <= b[0] - SPEED_WINDOW_MS) ?? samples[0]!;
  return b[0] - a[0] < 1 ? 0 : Math.abs(b[1] - a[1]) / (b[0] - a[0]);
}

/**
 * Frames a move of `px` scrubs, paced by the finger's speed before it (`fingerSpeed` of the samples so far): 4 px a
 * frame up to 0.14 px/ms, 1 px a frame from 0.25 px/ms, in between proportionally (in frames per px).
 */
export function scrubFrames(px: number, speedPxPerMs: number): number {
  const k = Math.min(1, Math.max(0, (speedPxPerMs - CAREFUL_PX_PER_MS) / (DELIBERATE_PX_PER_MS - CAREFUL_PX_PER_MS)));
  const perPx = 1 / SWIPE_PX_PER_FRAME + k * (1 / DELIBERATE_PX_PER_FRAME - 1 / SWIPE_PX_PER_FRAME);
  return px * perPx;
}
