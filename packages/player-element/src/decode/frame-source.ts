import type { Drawable } from './decode-planner.js';

/**
 * What the canvas, the input and the element read of the frames (the decoder's, or the `<video>` fallback's): the
 * narrow view they depend on, so none of them asks which one plays.
 */
export interface FrameSource {
  /** Frames in the tour. */
  readonly total: number;
  /** Frame `frame` can be shown now without waiting (the decoder: it is decoded; `<video>`: the last seek is shown). */
  has(frame: number): boolean;
  /** The best frame to show for `frame` now (decode-planner's pickDrawable); `thumbnail`: its clip's thumbnail only. */
  drawable(frame: number, thumbnail?: boolean): Drawable | undefined;
  /** The frame held for `frame` is the exact one at the rendition in use (720p, or 360p with hi-res off). */
  isExact(frame: number): boolean;
  /**
   * Hands over a drawable's bitmap to be shown (showing consumes it), undefined while none can be: its source keeps a
   * copy for the next time.
   */
  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined;
}

/** How the playhead steers decoding: where it stands, and where a fast travel will land. */
export interface DecodeFocus {
  setPosition(frame: number): void;
  setDestination(frame: number | null): void;
}

/**
 * The frames that play now: the decoder, or the `<video>` fallback once the tour loader switched to it. The canvas,
 * the input and the playhead hold this one object, so they never ask which source it is.
 */
export class PlayingFrames implements FrameSource, DecodeFocus {
  constructor(private source: FrameSource & DecodeFocus) {}

  /** The tour loader's switch: from now on `source` plays. */
  use(source: FrameSource & DecodeFocus): void {
    this.source = source;
  }

  get total(): number {
    return this.source.total;
  }
  has(frame: number): boolean {
    return this.source.has(frame);
  }
  drawable(frame: number, thumbnail?: boolean): Drawable | undefined {
    return this.source.drawable(frame, thumbnail);
  }
  isExact(frame: number): boolean {
    return this.source.isExact(frame);
  }
  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined {
    return this.source.takeBitmap(bitmap);
  }
  setPosition(frame: number): void {
    this.source.setPosition(frame);
  }
  setDestination(frame: number | null): void {
    this.source.setDestination(frame);
  }
}
