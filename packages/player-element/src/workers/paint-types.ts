/** Messages between the main thread and the paint worker (no runtime code). */
import type { FramePixels } from './frame-formats.js';

/**
 * In order: keep a frame's pixels (I420 or RGBA, transferred), or drop one. Keys: rendition and tour frame, `high:120`.
 */
export type PaintOp = ({ put: string } & FramePixels) | { drop: string };

/**
 * To the worker: ops to apply, then an ImageBitmap of `key` at `width` x `height` (the canvas's backing size) to make.
 */
export interface PaintMessage {
  ops?: PaintOp[];
  /** `urgent`: the frame the canvas shows next (made before the frames asked for ahead). */
  make?: { id: number; key: string; width: number; height: number; urgent?: boolean };
  /** Requests not yet started that the playhead has left: dropped (answered without a bitmap). */
  cancel?: number[];
}

/** From the worker: the bitmap for request `id` (none when the frame was dropped meanwhile). */
export interface PaintReply {
  id: number;
  bitmap?: ImageBitmap;
  ms?: number;
}
