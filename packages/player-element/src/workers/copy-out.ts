/// <reference lib="webworker" />
/**
 * The copy-out step of a decode: every VideoFrame the decoder hands out for the requested range is copied (any pixel
 * format: frame-formats.ts) and closed as soon as its pixels are out, independent of batching; the frame a jump waits
 * for also becomes a bitmap, made from those pixels (frame-bitmap.ts). Copies go back to the main thread in batches,
 * transferred, in frame order.
 */
import { transfer } from 'comlink';
import type { DecodedFrame, DecodeRequest, Rush } from './decode-types.js';
import { frameBitmap } from './frame-bitmap.js';
import { copyFrame } from './frame-formats.js';
import { mark, traceEvent } from './timeline.js';

export type OnBatch = (frames: DecodedFrame[]) => void | Promise<void>;

export interface CopyOut {
  /** Takes the decoder's output number `i` of the clip: copied when it is in [from, last], closed either way. */
  take(frame: VideoFrame, i: number): void;
  /** Waits for every copy taken so far and sends the last batch. */
  finish(): Promise<void>;
  /** The finger came to rest (`rushed` changed): a batch holding its frame already is sent at once. */
  rush(): void;
}

export function createCopyOut(
  req: DecodeRequest,
  range: { from: number; last: number; clip: { fullRange: boolean } },
  onBatch: OnBatch,
  close: (frame: VideoFrame) => void,
  copied: () => void,
  rushed: () => Rush | undefined = () => undefined,
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
      // Frames before the one the finger rests on, taken after the rush, are not copied (the planner asks again for
      // those it still wants, after that one).
      const rush = rushed();
      if (i < range.from || i > range.last || (rush && i < rush.frame)) {
        close(frame);
        return;
      }
      const canvas = i === rush?.frame ? rush.canvas : i === req.urgent ? req.canvas : undefined;
      // The frame is closed as soon as its pixels are out; the bitmap a jump or a rest waits for is made from those
      // pixels.
      const made = copyFrame(frame, range.clip.fullRange)
        .finally(() => close(frame))
        .then(async (pixels) => {
          mark('copied');
          if (i === req.urgent) traceEvent('copied', req.id, i);
          const bitmap = canvas ? await frameBitmap(pixels, canvas) : undefined;
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
          const waited = i === req.urgent || i === rushed()?.frame;
          if (batch.length >= req.batchSize || i === range.last || waited) {
            mark('sending');
            const urgent = waited;
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
    rush() {
      chain = chain.then(async () => {
        const rush = rushed();
        const at = batch.findIndex((f) => f.frame === rush?.frame);
        if (at < 0) return;
        // Made a bitmap here too, as if it were still to come: else it waits for the paint worker, which may be making
        // a bitmap asked ahead (34 ms of a 134 ms quiet rest in Firefox ESR).
        const f = batch[at]!;
        const bitmap = rush?.canvas && !f.bitmap ? await frameBitmap(f, rush.canvas) : undefined;
        if (bitmap) batch[at] = { ...f, bitmap };
        await send();
      });
    },
  };
}
