import type { DecodedFrame } from '../workers/decode-types.js';

/**
 * Where the decoder's pixels go to be painted: the canvas (controllers/canvas-controller.ts), which owns the paint
 * worker and its bridge. The decoder tells it what happens to its frames; it never reaches the paint bridge itself.
 */
export interface PixelSink {
  /** A tour's decoding is about to start: the painting gets ready ahead of the first frame. */
  decodingStarts(): void;
  /** A decoded frame (`key`: `rendition:tourFrame`): its pixels, transferred, and the bitmap a decode worker made. */
  framePixels(key: string, tourFrame: number, frame: DecodedFrame): void;
  /** The frame cache let a frame go: its pixels go too. */
  frameDropped(key: string): void;
  /** A tour's decoding ended: its pixels and bitmaps go; `final`: no tour follows here (the paint worker ends). */
  decodingEnded(final: boolean): void;
  /** The size the frame a jump waits for is made at by the decode worker (the canvas's backing size), if known. */
  readonly bitmapSize: { width: number; height: number } | undefined;
}
