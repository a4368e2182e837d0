import { PLAYER } from '@roomwalk/shared/constants';

export interface ClipLike {
  index: number;
  frameCount?: number | null;
}

/** Frame counts per clip in play order; unknown counts default to 36. */
export function clipFrameCounts(clips: readonly ClipLike[]): number[] {
  return [...clips]
    .sort((a, b) => a.index - b.index)
    .map((c) => (c.frameCount && c.frameCount > 0 ? c.frameCount : PLAYER.defaultClipFrameCount));
}

/**
 * Total frame count: the sum of clip frame counts minus 1, never below 0. It is the last frame's index, the highest a
 * visitor can scroll to: the spec's "max scrollable index is total minus 2" subtracted one a second time and left the
 * last two frames of every tour out of reach (End and the slider's aria-valuemax two frames short; docs/decisions.md).
 */
export function totalFrames(counts: readonly number[]): number {
  const sum = counts.reduce((a, b) => a + b, 0);
  return Math.max(0, sum - 1);
}

/** Start frame of every clip (prefix sums). */
export function clipStarts(counts: readonly number[]): number[] {
  const starts: number[] = [];
  let acc = 0;
  for (const c of counts) {
    starts.push(acc);
    acc += c;
  }
  return starts;
}

/**
 * The clip of every tour frame (index: the tour frame), made once per tour: a planner walking a window of frames reads
 * each one's clip instead of searching for it (locateFrame).
 */
export function frameClips(counts: readonly number[]): Uint16Array {
  const clips = new Uint16Array(counts.reduce((a, b) => a + b, 0));
  let at = 0;
  counts.forEach((c, clip) => {
    clips.fill(clip, at, at + c);
    at += c;
  });
  return clips;
}

/** Maps a tour frame index to its clip and the frame inside that clip. */
export function locateFrame(
  starts: readonly number[],
  counts: readonly number[],
  frame: number,
): { clip: number; local: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= frame) lo = mid;
    else hi = mid - 1;
  }
  const local = Math.min(frame - (starts[lo] ?? 0), (counts[lo] ?? 1) - 1);
  return { clip: lo, local: Math.max(0, local) };
}

/** Clamps and rounds a requested frame to the scrollable range. */
export function clampFrame(frame: number, total: number): number {
  if (!Number.isFinite(frame)) return 0;
  return Math.min(Math.max(0, Math.round(frame)), Math.max(0, total));
}

/** Fast-travel steps: ~16.5 frames a step, ~0.002 s per frame of distance overall. */
export function travelPlan(from: number, to: number): { steps: number[]; stepMs: number } {
  const distance = Math.abs(to - from);
  if (distance === 0) return { steps: [], stepMs: 0 };
  const count = Math.max(1, Math.ceil(distance / PLAYER.jumpStepFrames));
  const totalMs = distance * PLAYER.jumpSecondsPerFrame * 1000;
  const steps: number[] = [];
  for (let i = 1; i <= count; i++) steps.push(Math.round(from + ((to - from) * i) / count));
  return { steps, stepMs: totalMs / count };
}

/**
 * Room kept under the canvas for the joystick (64 px and gaps), except where it moves to a corner (viewports 550 px
 * high or less).
 */
export const JOYSTICK_ROOM = 80;
export const joystickRoom = (viewportHeight: number = globalThis.innerHeight ?? 0): number =>
  viewportHeight > PLAYER.joystickMoveMaxViewportHeight ? JOYSTICK_ROOM : 0;

/**
 * Canvas size: at most 650 px wide (`maxWidth`; the share page lifts it so the picture fills its
 * room), halved above 640x960 on non-desktop; the joystick's room kept free.
 */
export function canvasSize(
  video: { width: number; height: number },
  box: { width: number; height: number },
  desktop: boolean,
  viewportHeight: number = globalThis.innerHeight ?? 0,
  maxWidth: number = PLAYER.canvasMaxWidth,
): { width: number; height: number } {
  box = { width: box.width, height: box.height - joystickRoom(viewportHeight) };
  const aspect = video.width / video.height || 16 / 9;
  let width = Math.min(maxWidth, box.width);
  let height = width / aspect;
  if (height > box.height && box.height > 0) {
    height = box.height;
    width = height * aspect;
  }
  if (!desktop && width * height > 640 * 960) {
    width /= 2;
    height /= 2;
  }
  return { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) };
}
