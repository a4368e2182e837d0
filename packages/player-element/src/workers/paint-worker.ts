/// <reference lib="webworker" />
/**
 * Paint worker: holds the decoded frames, I420 or RGBA (the main thread's FrameCache keeps only their metadata) and
 * turns the ones the canvas needs into ImageBitmaps of the canvas's size: colour conversion and
 * scaling happen here, the main thread only shows the bitmap (ImageBitmapRenderingContext.transferFromImageBitmap).
 * Reached through comlink like the decode worker (paint-bridge.ts): `run` applies a message and answers its bitmap.
 */
import { expose, transfer } from 'comlink';
import { BitmapMaker } from './frame-bitmap.js';
import type { FramePixels } from './frame-formats.js';
import type { PaintMessage, PaintReply } from './paint-types.js';
import { mark, timeline, trace, traceEvent } from './timeline.js';

mark('started');

const frames = new Map<string, FramePixels>();
const maker = new BitmapMaker();

/**
 * The bitmap of a held frame at the canvas's backing size (frame-bitmap.ts: converted and scaled, or drawn by the
 * browser where that is faster and paints the same).
 */
function make(key: string, width: number, height: number): Promise<ImageBitmap | undefined> {
  const f = frames.get(key);
  return f ? maker.make(f, width, height) : Promise.resolve(undefined);
}

/** The tour frame of a frame's key (`rendition:tourFrame`), for the trace. */
const frameOf = (key: string): number => Number(key.slice(key.indexOf(':') + 1));

type Request = NonNullable<PaintMessage['make']> & { done: (reply: PaintReply) => void };
/**
 * One bitmap per task, the frame the canvas waits for first (the latest such request), then the frames ahead in the
 * order asked. Between two bitmaps the worker takes the messages that came meanwhile (cancels, new frames): a
 * MessageChannel task, not setTimeout (nested timeouts are clamped to 4 ms).
 */
let queue: Request[] = [];
let scheduled = false;
const tick = new MessageChannel();

function pump(): void {
  if (scheduled || !queue.length) return;
  scheduled = true;
  tick.port2.postMessage(null);
}

tick.port1.onmessage = async () => {
  const i = queue.findLastIndex((r) => r.urgent);
  const [req] = queue.splice(Math.max(i, 0), 1);
  if (!req) {
    scheduled = false;
    return;
  }
  const t0 = performance.now();
  traceEvent('make', req.id, frameOf(req.key));
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = await make(req.key, req.width, req.height);
  } catch {
    /* an unreadable frame: the main thread shows the next one it gets */
  }
  if (bitmap) mark('bitmap');
  traceEvent('made', req.id, frameOf(req.key));
  const reply: PaintReply = { id: req.id, ms: performance.now() - t0 };
  req.done(bitmap ? transfer({ ...reply, bitmap }, [bitmap]) : reply);
  scheduled = false;
  pump();
};

const api = {
  /**
   * Applies the ops in order (keep or drop a frame's pixels), answers the cancelled requests without a bitmap, then
   * queues `make`: resolves with its bitmap (transferred) once made, or without one (cancelled, or a frame not held).
   */
  run({ ops, make: req, cancel }: PaintMessage): Promise<PaintReply | undefined> {
    for (const op of ops ?? []) {
      if ('put' in op) frames.set(op.put, op);
      else frames.delete(op.drop);
    }
    if (cancel?.length) {
      const drop = new Set(cancel);
      for (const r of queue)
        if (drop.has(r.id)) {
          traceEvent('cancelled', r.id, frameOf(r.key));
          r.done({ id: r.id });
        }
      queue = queue.filter((r) => !drop.has(r.id));
    }
    if (ops?.length) mark('pixels in');
    if (!req) return Promise.resolve(undefined);
    traceEvent(req.urgent ? 'ask urgent' : 'ask', req.id, frameOf(req.key));
    return new Promise((done) => {
      queue.push({ ...req, done });
      pump();
    });
  },
  /** First-time marks of this worker's start-up (timeline.ts): the bench's first-frame breakdown. */
  timeline,
  /** Per-request events (timeline.ts trace): the engines bench's breakdown of a rest's wait. */
  trace,
};

export type PaintWorkerApi = typeof api;
expose(api);
