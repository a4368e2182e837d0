import type { Drawable } from '../decode/decode-planner.js';

/**
 * What the canvas, the input and the element read of the frames that play (the decoder's, frames/decoded-frames.ts,
 * or the `<video>` fallback's, frames/video-fallback.ts): one narrow view, so none of them asks which one plays.
 */
export interface FrameSource {
  /** Frames in the tour. */
  readonly total: number;
  /** Frame `frame` can be shown now without waiting (the decoder: it is decoded; `<video>`: the last seek is shown). */
  has(frame: number): boolean;
  /**
   * The best frame to show for `frame` now (decode-planner's pickDrawable), and whether it is the exact one at the
   * rendition in use (720p, or 360p with hi-res off); `thumbnail`: its clip's thumbnail only.
   */
  drawable(frame: number, thumbnail?: boolean): Drawable | undefined;
  /**
   * Hands over a drawable's bitmap to be shown (showing consumes it), undefined while none can be: its source keeps a
   * copy for the next time.
   */
  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined;
}

/** How the playhead steers the frames that play: where it stands, and where a fast travel will land. */
export interface DecodeFocus {
  setPosition(frame: number): void;
  setDestination(frame: number | null): void;
}
