/** Types shared by the decode worker and the main thread (no runtime code). */
import type { StoredFormat } from './frame-formats.js';

export type Rendition = 'low' | 'high';

/**
 * One decoded frame copied out of its VideoFrame (frame-formats.ts: I420 planes or RGBA); the VideoFrame is already
 * closed.
 */
export interface DecodedFrame {
  rendition: Rendition;
  clipIndex: number;
  /** Frame index inside the clip (0 = keyframe). */
  frame: number;
  width: number;
  height: number;
  /** The pixels in `format`: I420 (Y plane then U then V, tightly packed: width*height*1.5 bytes) or RGBA. */
  data: ArrayBuffer;
  format: StoredFormat;
  /** How to read I420 as RGB (the decoder's colour space; the browser's default when absent). */
  colorSpace?: VideoColorSpaceInit;
  /** The frame a jump waits for, also as a bitmap at the canvas's size (DecodeRequest.canvas). */
  bitmap?: ImageBitmap;
}

export interface DecodeRequest {
  rendition: Rendition;
  clipIndex: number;
  url: string;
  /**
   * Frames [from, to] of the clip are copied out; decoding starts at the last keyframe at or before `from` (or goes on
   * from where the decoder stopped).
   */
  from: number;
  to: number;
  /** Frames per message back to the main thread (the decode batch size: 5 low-end, 10 mobile, 20 otherwise). */
  batchSize: number;
  /** Job id, for cancel(). */
  id?: number;
  /** A frame the player is waiting for: its batch is sent as soon as it is copied. */
  urgent?: number;
  /** After a jump: the canvas's backing size, for a bitmap of the urgent frame made here (frame-bitmap.ts). */
  canvas?: { width: number; height: number };
}

/**
 * The finger rests on frame `frame` of a running decode's clip (decode-worker.ts rush): the frames before it that have
 * not been copied yet are closed uncopied, and that frame is sent as soon as it is copied, as a bitmap of `canvas`'s
 * size where given.
 */
export interface Rush {
  frame: number;
  canvas?: { width: number; height: number };
}

export interface WorkerStats {
  openFrames: number;
  maxOpenFrames: number;
  encodedBytes: number;
  decodedFrames: number;
  /** Wall time spent in decode jobs and frames pushed through the decoder (incl. skipped ones). */
  decodeMs: number;
  framesThroughDecoder: number;
  /** Decodes that waited STALL_MS for frames the decoder held back, then flushed them out. */
  stallFlushes: number;
  /**
   * 720p passes that went on from where the decoder stopped (scrubbing forward), and the samples they fed: how many
   * frames each keeps in the decoder's queue (one is the decoder idling between passes).
   */
  resumedPasses: number;
  resumedSamples: number;
  /** Of those, the passes of one sample that did not end at their clip's last: one frame in the decoder's queue. */
  resumedSingles: number;
}
