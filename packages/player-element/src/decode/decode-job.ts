import { isAbortError } from '../abortable.js';
import type { DecodedFrames } from '../frames/decoded-frames.js';
import type { DecodedFrame, DecodeRequest, Rendition } from '../workers/decode-types.js';
import type { WorkerBridge } from '../workers/worker-bridge.js';
import type { Job } from './decode-planner.js';

/** High frames are four times the size of low ones, so they travel in quarter-size batches (same bytes per message). */
export function batchFor(r: Rendition, batch: number): number {
  return r === 'high' ? Math.max(1, Math.ceil(batch / 4)) : batch;
}

/** Bytes of one decoded I420 frame of a rendition (720p or 360p). */
function frameBytes(r: Rendition): number {
  return r === 'high' ? 1280 * 720 * 1.5 : 640 * 360 * 1.5;
}

/** A decode pass running on one worker (startJob), as the scheduler that started it sees it. */
export interface DecodeJob {
  readonly pass: Job;
  readonly worker: number;
  /**
   * Its tour frames (of its pass's rendition) that have not come yet: the planner does not plan them again meanwhile
   * (the scheduler takes one out when it gives that frame a pass of its own: DecodeScheduler.hurry).
   */
  readonly waiting: Set<number>;
  /** The tour frame it hands back first, as a bitmap too where asked (its request's `urgent`), if any. */
  readonly urgent: number | undefined;
  /** Bytes its frames may hold at once (one batch), for the bench's peak. */
  readonly inflight: number;
  /** The scheduler aborts it when it goes stale: the worker stops it (WorkerBridge.decode) and it ends as finished. */
  readonly abort: AbortController;
  /**
   * The finger rests on `tourFrame`, waiting in this pass: that frame first, as a bitmap of `canvas`'s size where given;
   * the frames before it are no longer waited for (the worker does not copy those it has not copied yet).
   */
  rush(tourFrame: number, canvas?: { width: number; height: number }): void;
}

/** What a running pass tells the scheduler that started it (decode-scheduler.ts). */
export interface JobOwner {
  /** A batch of its frames is kept. */
  arrived(): void;
  /**
   * It ended: finished or cancelled (no `failure`), or failed. Not called when its tour ended first (the bridge rejects
   * with an AbortError): nothing of it touches the next tour's state.
   */
  ended(job: DecodeJob, failure?: { error: unknown }): void;
}

/**
 * Starts one decode pass on one worker and keeps it to its end: the frames it will still hand back, the bytes its
 * frames may hold at once, its batches put into the frames kept as they come (at `start`, the clip's first tour frame),
 * and its end told to `owner`. Which pass runs where, and which goes stale, the scheduler decides.
 */
export function startJob(
  bridge: WorkerBridge,
  pass: Job,
  worker: number,
  req: DecodeRequest,
  start: number,
  frames: Pick<DecodedFrames, 'put'>,
  owner: JobOwner,
): DecodeJob {
  const waiting = new Set<number>();
  for (let f = start + pass.from; f <= start + pass.to; f++) waiting.add(f);
  const inflight = frameBytes(pass.rendition) * Math.min(pass.to - pass.from + 1, req.batchSize);
  const urgent = req.urgent === undefined ? undefined : start + req.urgent;
  const rush = (tourFrame: number, canvas?: { width: number; height: number }) => {
    if (req.id === undefined) return;
    for (const f of waiting) if (f < tourFrame) waiting.delete(f);
    bridge.rush(req.id, { frame: tourFrame - start, ...(canvas ? { canvas } : {}) });
  };
  const job: DecodeJob = { pass, worker, waiting, urgent, inflight, abort: new AbortController(), rush };
  const onBatch = (batch: DecodedFrame[]) => {
    for (const f of batch) {
      const tourFrame = start + f.frame;
      frames.put(tourFrame, f);
      waiting.delete(tourFrame);
    }
    owner.arrived();
  };
  const { signal } = job.abort;
  (pass.keyframe ? bridge.keyframe(req, onBatch, signal) : bridge.decode(req, onBatch, signal)).then(
    () => owner.ended(job),
    (error: unknown) => {
      if (!isAbortError(error)) owner.ended(job, { error });
    },
  );
  return job;
}
