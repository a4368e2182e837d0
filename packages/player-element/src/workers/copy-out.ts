/// <reference lib="webworker" />
/**
 * The copy-out step of a decode: every VideoFrame the decoder hands out for the requested range is copied (any pixel
 * format: frame-formats.ts) and closed as soon as its pixels are out, independent of batching; the frame a jump waits
 * for also becomes a bitmap, made from those pixels (frame-bitmap.ts). Copies go back to the main thread in batches,
 * transferred, in frame order.
 */
import { transfer } from 'comlink';
import type { DecodedFrame, DecodeRequest } from './decode-types.js';
import { frameBitmap } from './frame-bitmap.js';
import { copyFrame } from './frame-formats.js';
import { mark, traceEvent } from './timeline.js';

export type OnBatch = (frames: DecodedFrame[]) => void | Promise<void>;

export interface CopyOut {
  /** Takes the decoder's output number `i` of the clip: copied when it is in [from, last], closed either way. */
  take(frame: VideoFrame, i: number): void;
  /** Waits for every copy taken so far and sends the last batch. */
  finish(): Promise<void>;
}

export function createCopyOut(
  req: DecodeRequest,
  range: { from: number; last: number; clip: { fullRange: boolean } },
  onBatch: OnBatch,
  close: (frame: VideoFrame) => void,
  copied: () => void,
): CopyOut {
  let batch: DecodedFrame[] = [];
  let chain: Promise<void> = Promise.resolve();
  const send = async () => {
    if (!batch.length) return;
    const out = batch;
    batch = [];
    await onBatch(
      transfer(
        out,
        out.flatMap((f) => (f.bitmap ? [f.data, f.bitmap] : [f.data])),
      ),
    );
  };
  return {
    take(frame, i) {
      if (i < range.from || i > range.last) {
        close(frame);
        return;
      }
      // The frame is closed as soon as its pixels are out; the bitmap a jump waits for is made from those pixels.
      const made = copyFrame(frame, range.clip.fullRange)
        .finally(() => close(frame))
        .then(async (pixels) => {
          mark('copied');
          if (i === req.urgent) traceEvent('copied', req.id, i);
          const bitmap = i === req.urgent && req.canvas ? await frameBitmap(pixels, req.canvas) : undefined;
          if (bitmap) {
            mark('bitmap');
            traceEvent('bitmap', req.id, i);
          }
          return [pixels, bitmap] as const;
        });
      made.catch(() => undefined);
      chain = chain
        .then(() => made)
        .then(async ([pixels, bitmap]) => {
          copied();
          batch.push({
            rendition: req.rendition,
            clipIndex: req.clipIndex,
            frame: i,
            ...pixels,
            ...(bitmap ? { bitmap } : {}),
          });
          if (batch.length >= req.batchSize || i === range.last || i === req.urgent) {
            mark('sending');
            const urgent = i === req.urgent;
            await send();
            mark('sent');
            // The main thread's answer to the batch (the proxied callback returned).
            if (urgent) traceEvent('acked', req.id, i);
          }
        });
    },
    async finish() {
      await chain;
      await send();
    },
  };
}
