import { releaseProxy, wrap, type Remote } from 'comlink';
import type { DecodeWorkerApi } from './decode-worker.js';
import { createDecodeWorker } from './create-decode-worker.js';

/** The only way the element reaches a decode worker: lazy start, release and terminate on dispose. */
export class WorkerBridge {
  private worker: Worker | undefined;
  private remote: Remote<DecodeWorkerApi> | undefined;
  private onCrash: (message: string) => void;

  constructor(onCrash: (message: string) => void) {
    this.onCrash = onCrash;
  }

  get api(): Remote<DecodeWorkerApi> {
    if (!this.remote) {
      this.worker = createDecodeWorker();
      this.worker.addEventListener('error', (e) => this.onCrash(e.message || 'worker error'));
      this.remote = wrap<DecodeWorkerApi>(this.worker);
    }
    return this.remote;
  }

  dispose(): void {
    if (this.remote) {
      void this.remote.dispose().catch(() => undefined);
      this.remote[releaseProxy]();
    }
    this.worker?.terminate();
    this.worker = undefined;
    this.remote = undefined;
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
