import { PLAYER } from '@roomwalk/shared/constants';

/**
 * The joystick is a rate control (the rule "the joystick moves 1 frame per 80 px of drag", read as the speed per
 * refresh for each 80 px of displacement; docs/decisions.md "Touch that walks through a tour"). Under 6 px off centre
 * it rests; past 240 px (3 frames a refresh, 180 frames/s) it goes no faster. Time-based, so a slow refresh does not
 * slow the walk.
 */
const JOYSTICK_DEAD_PX = 6;
export const JOYSTICK_MAX_PX = 240;
const REFRESH_MS = 1000 / 60;

/** Frames (fractional, signed) to move in `dtMs` with the knob `px` off centre (right or up positive). */
export function joystickDelta(px: number, dtMs: number): number {
  const a = Math.min(Math.abs(px), JOYSTICK_MAX_PX);
  return a < JOYSTICK_DEAD_PX
    ? 0
    : (Math.sign(px) * a * Math.min(dtMs, 50)) / PLAYER.joystickPixelsPerFrame / REFRESH_MS;
}

/**
 * Never outrun decoding: the frame nearest `want` on the way from `shown` whose own pixels are ready, or `shown` when
 * none is (then the walk goes on at the rate frames are decoded, never showing a stale one).
 */
export function furthestReady(shown: number, want: number, ready: (f: number) => boolean): number {
  const dir = Math.sign(want - shown);
  for (let f = want; f !== shown; f -= dir) if (ready(f)) return f;
  return shown;
}
