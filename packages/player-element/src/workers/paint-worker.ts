/// <reference lib="webworker" />
/**
 * Paint worker: holds the decoded frames, I420 or RGBA (the main thread's FrameCache keeps only their metadata) and turns the
 * ones the canvas needs into ImageBitmaps of the canvas's size: colour conversion and
 * scaling happen here, the main thread only shows the bitmap (ImageBitmapRenderingContext.transferFromImageBitmap).
 * Reached through comlink like the decode worker (paint-bridge.ts): `run` applies a message and answers its bitmap.
 */
import { expose, transfer } from 'comlink';
import type { FramePixels } from './frame-formats.js';
import type { PaintMessage, PaintReply } from './paint-types.js';

const frames = new Map<string, FramePixels>();

/** The bitmap's canvas (the canvas's backing size), and the frame's own size in RGBA (the scaled path's source). */
let canvas: OffscreenCanvas | undefined;
let full: OffscreenCanvas | undefined;
let rgba: Uint8ClampedArray<ArrayBuffer> | undefined;

const sized = (c: OffscreenCanvas | undefined, width: number, height: number): OffscreenCanvas => (c?.width === width && c.height === height ? c : new OffscreenCanvas(width, height));

/** The frame's pixels as RGBA into `out`; false where this browser's copyTo cannot convert (it would copy I420). */
async function toRGBA(vf: VideoFrame, out: Uint8ClampedArray<ArrayBuffer>): Promise<boolean> {
  try {
    if (vf.allocationSize({ format: 'RGBA' }) !== out.length) return false;
    await vf.copyTo(out, { format: 'RGBA' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The I420 frame converted to RGBA by VideoFrame.copyTo (libyuv), put on a canvas of the frame's size and, when the
 * bitmap is smaller, drawn scaled (bilinear) onto one of the bitmap's size. Measured in the worker (software Chromium,
 * load 5-6; bench/ issue 19 notes): 1.8 ms for 1280x720 -> 650x366 and 0.7 ms for 640x360, against 8.1 and 2.0 ms for
 * drawing the VideoFrame itself (drawImage of a VideoFrame is the slow path without a GPU). Where copyTo cannot
 * convert (its allocation size for RGBA is not 4 bytes a pixel), the VideoFrame is drawn. RGBA frames (RGB decoders,
 * frames without a format: frame-formats.ts) are put as they are.
 */
async function make(key: string, width: number, height: number): Promise<ImageBitmap | undefined> {
  const f = frames.get(key);
  if (!f) return undefined;
  canvas = sized(canvas, width, height);
  let image: ImageData;
  if (f.format === 'RGBA') image = new ImageData(new Uint8ClampedArray(f.data), f.width, f.height);
  else {
    const vf = new VideoFrame(f.data, { format: 'I420', codedWidth: f.width, codedHeight: f.height, timestamp: 0, ...(f.colorSpace ? { colorSpace: f.colorSpace } : {}) });
    try {
      const n = f.width * f.height * 4;
      if (rgba?.length !== n) rgba = new Uint8ClampedArray(n);
      if (!(await toRGBA(vf, rgba))) {
        canvas.getContext('2d')!.drawImage(vf, 0, 0, width, height);
        return canvas.transferToImageBitmap();
      }
      image = new ImageData(rgba, f.width, f.height);
    } finally {
      vf.close();
    }
  }
  if (width === f.width && height === f.height) {
    canvas.getContext('2d')!.putImageData(image, 0, 0);
    return canvas.transferToImageBitmap();
  }
  full = sized(full, f.width, f.height);
  full.getContext('2d')!.putImageData(image, 0, 0);
  canvas.getContext('2d')!.drawImage(full, 0, 0, width, height);
  return canvas.transferToImageBitmap();
}

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
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = await make(req.key, req.width, req.height);
  } catch {
    /* an unreadable frame: the main thread shows the next one it gets */
  }
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
      for (const r of queue) if (drop.has(r.id)) r.done({ id: r.id });
      queue = queue.filter((r) => !drop.has(r.id));
    }
    if (!req) return Promise.resolve(undefined);
    return new Promise((done) => {
      queue.push({ ...req, done });
      pump();
    });
  },
};

export type PaintWorkerApi = typeof api;
expose(api);
