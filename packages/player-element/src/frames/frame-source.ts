import type { DecodedFrame } from '../workers/decode-types.js';

/**
 * What the canvas should show for a frame: a decoded frame (exact high, exact low, or the nearest), or a bitmap (a
 * clip's keyframe thumbnail, or the `<video>` fallback's frame).
 */
export type Drawable =
  | { frame: DecodedFrame; bitmap?: undefined; tourFrame: number; exact: boolean }
  | { frame?: undefined; bitmap: ImageBitmap; rendition: 'thumbnail' | 'video'; tourFrame: number; exact: boolean };

/**
 * What the canvas, the input and the element read of the frames that play (the decoder's, frames/decoded-frames.ts,
 * or the `<video>` fallback's, frames/video-fallback.ts): one narrow view, so none of them asks which one plays.
 */
export interface FrameSource {
  /**
   * What it is now, as data read without a call: the tour's total (its last frame's index, frame-math.ts totalFrames)
   * and a count bumped by every change to what `drawable` answers (an answer is still good while it has not moved).
   */
  readonly state: FrameSourceState;
  /** Frame `frame` can be shown now without waiting (the decoder: it is decoded; `<video>`: the last seek is shown). */
  has(frame: number): boolean;
  /**
   * The best frame to show for `frame` now (decoded-frames.ts pickDrawable), and whether it is the exact one at the
   * rendition in use (720p, or 360p with hi-res off).
   */
  drawable(frame: number): Drawable | undefined;
  /** The keyframe thumbnail of `frame`'s clip, where one is kept (shown after a jump until a decoded frame comes). */
  thumbnail(frame: number): Drawable | undefined;
  /**
   * What the canvas paints and asks ahead for, in one question: for `frames[0]` (the playhead) what `drawable` answers,
   * for each next frame only its own decoded frame (the one whose bitmap can be made ahead), else undefined.
   */
  drawables(frames: readonly number[]): (Drawable | undefined)[];
  /**
   * Hands over a drawable's bitmap to be shown (showing consumes it), undefined while none can be: its source keeps a
   * copy for the next time.
   */
  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined;
}

/** A frame source's state: written by the source only (its readers see it read-only). */
export interface FrameSourceState {
  readonly total: number;
  readonly changes: number;
}

/** How the playhead steers the frames that play: where it stands, and where a fast travel will land. */
export interface DecodeFocus {
  setPosition(frame: number): void;
  setDestination(frame: number | null): void;
}
