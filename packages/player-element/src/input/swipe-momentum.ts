/**
 * A swipe on the picture scrubs directly (4 px a frame while the finger moves), then coasts: the release velocity,
 * taken over the last 100 ms of pointer samples, decays exponentially (time constant 400 ms, so a fling goes on for
 * velocity × 400 ms more). Releases slower than 0.25 px/ms (a careful drag, or a finger held still) do not coast.
 */
export const SWIPE_PX_PER_FRAME = 4;
const WINDOW_MS = 100;
const MIN_FLING_PX_PER_MS = 0.25;
const TAU_MS = 400;
/** Coasting stops below this speed (frames per ms: 3 frames/s). */
export const SWIPE_STOP = 0.003;

/** A pointer sample: time (ms) and signed distance from the gesture's start (px, right or up positive). */
export type Sample = [t: number, d: number];

/** Release velocity in frames per ms from the samples of the last 100 ms before `now`; 0 below the fling speed. */
export function releaseVelocity(samples: readonly Sample[], now: number): number {
  const recent = samples.filter(([t]) => t >= now - WINDOW_MS);
  const a = recent[0];
  const b = recent.at(-1);
  if (!a || !b || b[0] - a[0] < 1) return 0;
  const v = (b[1] - a[1]) / (now - a[0]);
  return Math.abs(v) < MIN_FLING_PX_PER_MS ? 0 : v / SWIPE_PX_PER_FRAME;
}

/** The coasting velocity after `dtMs` more. */
export const decay = (v: number, dtMs: number): number => v * Math.exp(-dtMs / TAU_MS);
