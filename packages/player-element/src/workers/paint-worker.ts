/// <reference lib="webworker" />
/**
 * Paint worker: holds the decoded I420 frames (the main thread's FrameCache keeps only their metadata) and turns the
 * ones the canvas needs into ImageBitmaps of the canvas's size: colour conversion and
 * scaling happen here, the main thread only shows the bitmap (ImageBitmapRenderingContext.transferFromImageBitmap).
 * Plain messages (no comlink): this worker is inlined into the main bundle.
 */
import type { PaintMessage, PaintReply } from './paint-types.js';

interface Pixels {
  width: number;
  height: number;
  data: ArrayBuffer;
}
const frames = new Map<string, Pixels>();
const scope = self as unknown as DedicatedWorkerGlobalScope;

/** Drawn on an OffscreenCanvas and taken off it as a bitmap: measured faster than createImageBitmap(frame, resize). */
let canvas: OffscreenCanvas | undefined;

function make(key: string, width: number, height: number): ImageBitmap | undefined {
  const f = frames.get(key);
  if (!f) return undefined;
  const vf = new VideoFrame(f.data, { format: 'I420', codedWidth: f.width, codedHeight: f.height, timestamp: 0 });
  try {
    if (canvas?.width !== width || canvas.height !== height) canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d')!.drawImage(vf, 0, 0, width, height);
    return canvas.transferToImageBitmap();
  } finally {
    vf.close();
  }
}

type Request = NonNullable<PaintMessage['make']>;
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

tick.port1.onmessage = () => {
  scheduled = false;
  const i = queue.findLastIndex((r) => r.urgent);
  const [req] = queue.splice(Math.max(i, 0), 1);
  if (!req) return;
  const t0 = performance.now();
  let bitmap: ImageBitmap | undefined;
  try {
    bitmap = make(req.key, req.width, req.height);
  } catch {
    /* an unreadable frame: the main thread shows the next one it gets */
  }
  const reply: PaintReply = { id: req.id, ms: performance.now() - t0, ...(bitmap ? { bitmap } : {}) };
  scope.postMessage(reply, bitmap ? [bitmap] : []);
  pump();
};

scope.onmessage = (e: MessageEvent<PaintMessage>) => {
  const { ops, make: req, cancel } = e.data;
  for (const op of ops ?? []) {
    if ('put' in op) frames.set(op.put, op);
    else frames.delete(op.drop);
  }
  if (cancel?.length) {
    const drop = new Set(cancel);
    for (const r of queue) if (drop.has(r.id)) scope.postMessage({ id: r.id } satisfies PaintReply);
    queue = queue.filter((r) => !drop.has(r.id));
  }
  if (req) queue.push(req);
  pump();
};
