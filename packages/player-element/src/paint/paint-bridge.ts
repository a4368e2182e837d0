import { type Remote, transfer, wrap } from 'comlink';
import type { PaintMessage, PaintOp, PaintReply } from '../workers/paint-types.js';
import type { PaintWorkerApi } from '../workers/paint-worker.js';
import { createPaintWorker } from '../workers/create-paint-worker.js';

import { PaintLead } from './paint-lead.js';

interface Ready {
  bitmap?: ImageBitmap;
  frame: number;
}

/** A bitmap the canvas wants: the decoded frame's key, the playhead frame it is for, its size, and whether it is urgent. */
export type BitmapWant = [key: string, frame: number, width: number, height: number, urgent: boolean];

/**
 * The main thread's side of the paint worker (src/workers/paint-worker.ts), owned by the canvas controller: forwards
 * decoded pixels to it (transferred, in order with the cache's evictions), asks it for ImageBitmaps of the frames around the playhead at the canvas's
 * size and keeps the few that came back until the canvas shows them. No pixel is touched on the main thread.
 */
export class PaintBridge {
  private worker: Worker | undefined;
  private remote: Remote<PaintWorkerApi> | undefined;
  /** The worker was sent something (it holds a tour's pixels); an unused one is clean and can serve the next tour. */
  private used = false;
  private ops: PaintOp[] = [];
  private transfers: Transferable[] = [];
  private ready = new Map<string, Ready>();
  /** Request id → the bitmap's key and tour frame. */
  private pending = new Map<number, Ready & { k: string }>();
  private nextId = 1;
  /** The canvas's backing size (set by the canvas controller): a jump's frame is made as a bitmap this size at once. */
  canvas: { width: number; height: number } | undefined;
  /**
   * Bytes of the ready bitmaps (RGBA) and their peak (the player's peak of bytes held counts it), and the worker's time
   * making them.
   */
  bitmapBytes = 0;
  peakBitmapBytes = 0;
  workerMsTotal = 0;
  made = 0;
  /**
   * Frames ahead of the playhead asked for (paint-lead.ts): as many bitmap requests in the worker at once (more would
   * only queue frames the playhead has passed), and two more ready bitmaps kept (the farthest is closed first).
   */
  readonly lead = new PaintLead();

  constructor(private readonly onReady: () => void) {}

  /** Starts the worker ahead of the first frame (a tour starts loading). */
  start(): Remote<PaintWorkerApi> {
    if (!this.worker || !this.remote) {
      this.worker = createPaintWorker();
      this.remote = wrap<PaintWorkerApi>(this.worker);
    }
    return this.remote;
  }

  /** Sends a message (its pixels transferred); a request's bitmap comes back as the answer. */
  private post(message: PaintMessage, transfers: Transferable[] = []): void {
    this.used = true;
    void this.start()
      .run(transfer(message, transfers))
      .then((reply) => reply && this.received(reply));
  }

  /** Queues an op; all queued ops go in one message at the end of the task (or before the next request). */
  op(op: PaintOp, transfer?: Transferable): void {
    if (!this.ops.length) queueMicrotask(() => this.flush());
    this.ops.push(op);
    if (transfer) this.transfers.push(transfer);
  }

  private flush(make?: PaintMessage['make'], cancel?: number[]): void {
    if (!this.ops.length && !make && !cancel) return;
    const ops = this.ops;
    const transfers = this.transfers;
    this.ops = [];
    this.transfers = [];
    this.post({ ...(ops.length ? { ops } : {}), ...(make ? { make } : {}), ...(cancel ? { cancel } : {}) }, transfers);
  }

  private key(key: string, width: number, height: number): string {
    return `${key}@${width}x${height}`;
  }

  /** The ready bitmap of `key` at this size, handed over (the caller shows and so consumes it). */
  take(key: string, width: number, height: number): ImageBitmap | undefined {
    const k = this.key(key, width, height);
    const r = this.ready.get(k);
    if (!r) return undefined;
    this.ready.delete(k);
    this.bitmapBytes -= r.bitmap!.width * r.bitmap!.height * 4;
    return r.bitmap;
  }

  /**
   * The bitmaps the canvas wants now, in order (the frame to show, then the frames ahead), each asked for unless ready
   * or asked for already; then what the playhead at `position`, moving in `direction`, has passed or is too far from
   * goes (trim).
   */
  ask(wanted: BitmapWant[], position: number, reach: number, direction = 0): void {
    // What the playhead has left goes first: the queue's room is for the frames ahead.
    this.trim(position, reach, direction);
    for (const w of wanted) this.request(...w);
  }

  /**
   * Asks for a bitmap unless it is ready or asked for; `urgent` (the frame to show now) is asked even when the queue is
   * full.
   */
  private request(key: string, frame: number, width: number, height: number, urgent: boolean): void {
    const k = this.key(key, width, height);
    if (this.ready.has(k) || [...this.pending.values()].some((p) => p.k === k)) return;
    if (!urgent && this.pending.size >= this.lead.frames) return;
    const id = this.nextId++;
    this.pending.set(id, { k, frame });
    this.flush({ id, key, width, height, ...(urgent ? { urgent } : {}) });
  }

  /** A bitmap the decode worker made (the frame a jump waits for). */
  addReady(key: string, frame: number, bitmap: ImageBitmap): void {
    this.keep(this.key(key, bitmap.width, bitmap.height), frame, bitmap);
  }

  private keep(k: string, frame: number, bitmap: ImageBitmap): void {
    const old = this.ready.get(k)?.bitmap;
    if (old) {
      this.bitmapBytes -= old.width * old.height * 4;
      old.close();
    }
    this.ready.set(k, { bitmap, frame });
    this.bitmapBytes += bitmap.width * bitmap.height * 4;
    this.peakBitmapBytes = Math.max(this.peakBitmapBytes, this.bitmapBytes);
    this.onReady();
  }

  private received(reply: PaintReply): void {
    const p = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    const bitmap = reply.bitmap;
    if (!bitmap) return;
    if (!p) {
      bitmap.close();
      return;
    }
    this.made++;
    this.workerMsTotal += reply.ms ?? 0;
    this.lead.cost(reply.ms ?? 0);
    this.keep(p.k, p.frame, bitmap);
  }

  /**
   * Cancels the requests for frames more than `reach` from `position` or behind it in the direction of travel
   * (`direction` 1 or -1; 0: none), and closes the ready bitmaps farthest from it beyond the few kept. A request the
   * playhead has passed is never shown, and an urgent one (asked when the frame was reached before its bitmap was
   * asked ahead) would be made before the frame the playhead rests on, asked ahead and not urgent: the worker takes
   * the urgent ones first, the latest first, at a refresh or more a bitmap in Firefox ESR and WebKitGTK beside a busy
   * core (issue 44, the engines bench's rest breakdown).
   */
  private trim(position: number, reach: number, direction = 0): void {
    const cancel: number[] = [];
    for (const [id, p] of this.pending)
      if (Math.abs(p.frame - position) > reach || (p.frame - position) * direction < 0) cancel.push(id);
    if (cancel.length) {
      for (const id of cancel) this.pending.delete(id);
      this.flush(undefined, cancel);
    }
    while (this.ready.size > this.lead.frames + 2) {
      let victim = '';
      let worst = -1;
      for (const [k, r] of this.ready) {
        const d = Math.abs(r.frame - position);
        if (d > worst) {
          worst = d;
          victim = k;
        }
      }
      const r = this.ready.get(victim)!;
      this.ready.delete(victim);
      this.bitmapBytes -= r.bitmap!.width * r.bitmap!.height * 4;
      r.bitmap!.close();
    }
  }

  /**
   * A new tour (or none): every frame and bitmap goes; the worker ends, unless `keepUnused` and it was
   * never sent anything (started ahead of a tour: it is clean and serves that tour).
   */
  dispose(keepUnused = false): void {
    for (const r of this.ready.values()) r.bitmap?.close();
    this.ready.clear();
    this.pending.clear();
    this.bitmapBytes = 0;
    this.ops = [];
    this.transfers = [];
    if (keepUnused && !this.used) return;
    this.worker?.terminate();
    this.worker = undefined;
    this.remote = undefined;
    this.used = false;
  }
}
