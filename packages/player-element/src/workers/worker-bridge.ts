import { proxy, type Remote, wrap } from 'comlink';
import type { DecodeWorkerApi } from './decode-worker.js';
import type { DecodedFrame, DecodeRequest } from './decode-types.js';
import { createDecodeWorker } from './create-decode-worker.js';
import { abortable } from '../abortable.js';

type OnBatch = (frames: DecodedFrame[]) => void | Promise<void>;

/**
 * The only way the element reaches a decode worker: comlink on both sides (decode-worker.ts `expose`s its API; the
 * frames' buffers and bitmaps are transferred, not copied), started lazily, terminated on dispose. A decode's batches
 * come through a proxied callback: the worker awaits each call, so it sends no faster than the main thread takes them.
 * Disposing ends the bridge's tour: every call still running rejects with an AbortError (abortable.ts), none starts
 * after, and a batch that comes late is dropped.
 */
export class WorkerBridge {
  private worker: Worker | undefined;
  private remote: Remote<DecodeWorkerApi> | undefined;
  private readonly ended = new AbortController();

  /** Where a crash of the worker is reported; set again when a started (warm) bridge is taken by a tour. */
  constructor(public onCrash: (message: string) => void) {}

  get api(): Remote<DecodeWorkerApi> {
    if (!this.remote) {
      const w = createDecodeWorker();
      this.worker = w;
      w.addEventListener('error', (e) => this.onCrash(e.message || 'worker error'));
      this.remote = wrap<DecodeWorkerApi>(w);
    }
    return this.remote;
  }

  /**
   * Decodes frames [from, to] of a clip; `onBatch` gets them as they are ready. Resolves with the count decoded. When
   * `signal` aborts, the worker stops the decode (the frames copied so far still come) and it resolves then.
   */
  decode(req: DecodeRequest, onBatch: OnBatch, signal?: AbortSignal): Promise<number> {
    return this.run('decode', req, onBatch, signal);
  }

  /** Decodes a clip's keyframe alone (a thumbnail placeholder, the first frame); `signal` as for decode. */
  keyframe(req: DecodeRequest, onBatch: OnBatch, signal?: AbortSignal): Promise<number> {
    return this.run('keyframe', req, onBatch, signal);
  }

  /** The finger rests on a frame of a running decode: that frame first (decode-worker.ts rush). */
  rush(...args: Parameters<DecodeWorkerApi['rush']>): void {
    if (!this.ended.signal.aborted) void this.api.rush(...args).catch(() => undefined);
  }

  /** Downloads and demuxes a clip without decoding it (decode-worker.ts prefetch). */
  prefetch(...args: Parameters<DecodeWorkerApi['prefetch']>): Promise<number> {
    return abortable(this.ended.signal, () => this.api.prefetch(...args));
  }

  /** A clip's keyframe as a small bitmap (decode-worker.ts thumbnail); one that comes after dispose is closed. */
  thumbnail(...args: Parameters<DecodeWorkerApi['thumbnail']>): Promise<ImageBitmap> {
    return abortable(
      this.ended.signal,
      () => this.api.thumbnail(...args),
      (late) => late.close(),
    );
  }

  /** Batches reach `onBatch` until the bridge is disposed. */
  private untilEnded(onBatch: OnBatch): OnBatch {
    const { signal } = this.ended;
    return (frames) => (signal.aborted ? undefined : onBatch(frames));
  }

  /**
   * Runs a decode whose request id the worker can cancel, cancelling it when `signal` aborts (one cancelled before it
   * starts decodes nothing); rejects with an AbortError once the bridge is disposed.
   */
  private run(
    method: 'decode' | 'keyframe',
    req: DecodeRequest,
    onBatch: OnBatch,
    signal?: AbortSignal,
  ): Promise<number> {
    const { id } = req;
    const cancellable = signal !== undefined && id !== undefined;
    if (cancellable && signal.aborted && !this.ended.signal.aborted) return Promise.resolve(0);
    const cancel = () => void this.api.cancel(id!).catch(() => undefined);
    if (cancellable) signal.addEventListener('abort', cancel, { once: true });
    const call = abortable(this.ended.signal, () => this.api[method](req, proxy(this.untilEnded(onBatch))));
    return cancellable ? call.finally(() => signal.removeEventListener('abort', cancel)) : call;
  }

  dispose(): void {
    this.ended.abort();
    this.worker?.terminate();
    this.worker = undefined;
    this.remote = undefined;
  }
}

/** Worker-side counters (open VideoFrames, decoded frames, decode time) summed over a pool's workers. */
export function sumWorkerStats(
  all: readonly {
    openFrames: number;
    maxOpenFrames: number;
    decodedFrames: number;
    decodeMs: number;
    framesThroughDecoder: number;
    stallFlushes: number;
    resumedPasses: number;
    resumedSamples: number;
    resumedSingles: number;
  }[],
) {
  const through = all.reduce((a, s) => a + s.framesThroughDecoder, 0);
  return {
    decodeMsPerFrame: through ? all.reduce((a, s) => a + s.decodeMs, 0) / through : 0,
    framesThroughDecoder: through,
    openFrames: all.reduce((a, s) => a + s.openFrames, 0),
    maxOpenFrames: Math.max(0, ...all.map((s) => s.maxOpenFrames)),
    decodedFrames: all.reduce((a, s) => a + s.decodedFrames, 0),
    stallFlushes: all.reduce((a, s) => a + s.stallFlushes, 0),
    resumedPasses: all.reduce((a, s) => a + s.resumedPasses, 0),
    resumedSamples: all.reduce((a, s) => a + s.resumedSamples, 0),
    resumedSingles: all.reduce((a, s) => a + s.resumedSingles, 0),
  };
}
