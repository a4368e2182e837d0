import type { DecodeWorkerApi } from './decode-worker.js';
import { createDecodeWorker } from './create-decode-worker.js';

/** The worker's API as the main thread calls it: every method returns a promise (rpc-worker.ts is the other side). */
export type Remote<T> = { [K in keyof T]: T[K] extends (...a: infer A) => infer R ? (...a: A) => Promise<Awaited<R>> : never };

interface Call {
  resolve: (r: unknown) => void;
  reject: (e: Error) => void;
  cb?: (b: unknown) => unknown;
}

/** The only way the element reaches a decode worker: lazy start, calls and callbacks (rpc-worker.ts), terminate on dispose. */
export class WorkerBridge {
  private worker: Worker | undefined;
  private remote: Remote<DecodeWorkerApi> | undefined;
  private calls = new Map<number, Call>();
  private nextId = 1;

  /** Where a crash of the worker is reported; set again when a started (warm) bridge is taken by a tour. */
  constructor(public onCrash: (message: string) => void) {}

  get api(): Remote<DecodeWorkerApi> {
    if (!this.remote) {
      const w = createDecodeWorker();
      this.worker = w;
      w.addEventListener('error', (e) => this.onCrash(e.message || 'worker error'));
      w.onmessage = ({ data: { id, r, e, b, s } }) => {
        const c = this.calls.get(id);
        if (!c) return;
        if (s !== undefined) {
          // A callback: acknowledged once it has run (its promise settled), so the worker sends no faster.
          void (async () => c.cb?.(b))().finally(() => w.postMessage({ ack: id, s }));
          return;
        }
        this.calls.delete(id);
        if (e !== undefined) c.reject(new Error(e));
        else c.resolve(r);
      };
      this.remote = new Proxy({} as Remote<DecodeWorkerApi>, {
        get:
          (_, m) =>
          (...a: unknown[]) =>
            new Promise((resolve, reject) => {
              const id = this.nextId++;
              const cb = a.findIndex((x) => typeof x === 'function');
              this.calls.set(id, { resolve, reject, cb: a[cb] as Call['cb'] });
              if (cb >= 0) a[cb] = null;
              w.postMessage({ id, m, a, cb: cb >= 0 ? cb : undefined });
            }),
      });
    }
    return this.remote;
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.remote = undefined;
    this.calls.clear();
  }
}

/** Worker-side counters (open VideoFrames, decoded frames, decode time) summed over a pool's workers. */
export function sumWorkerStats(all: readonly { openFrames: number; maxOpenFrames: number; decodedFrames: number; decodeMs: number; framesThroughDecoder: number }[]) {
  const through = all.reduce((a, s) => a + s.framesThroughDecoder, 0);
  return {
    decodeMsPerFrame: through ? all.reduce((a, s) => a + s.decodeMs, 0) / through : 0,
    framesThroughDecoder: through,
    openFrames: all.reduce((a, s) => a + s.openFrames, 0),
    maxOpenFrames: Math.max(0, ...all.map((s) => s.maxOpenFrames)),
    decodedFrames: all.reduce((a, s) => a + s.decodedFrames, 0),
  };
}
