import type { Drawable } from './decode-planner.js';

/**
 * What the canvas, the input and the element read of the decoded frames (decode-controller.ts implements it): the
 * narrow view they depend on, instead of the decode controller itself.
 */
export interface FrameSource {
  /** Frames in the tour. */
  readonly total: number;
  /** A decoded frame (either rendition) is held for tour frame `frame`. */
  has(frame: number): boolean;
  /** The best frame to show for `frame` now (decode-planner's pickDrawable); `thumbnail`: its clip's thumbnail only. */
  drawable(frame: number, thumbnail?: boolean): Drawable | undefined;
  /** The frame held for `frame` is the exact one at the rendition in use (720p, or 360p with hi-res off). */
  isExact(frame: number): boolean;
}

/** How the playhead steers decoding: where it stands, and where a fast travel will land. */
export interface DecodeFocus {
  setPosition(frame: number): void;
  setDestination(frame: number | null): void;
}
