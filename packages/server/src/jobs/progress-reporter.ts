/**
 * The one progress reporter of the jobs that show a bar: processing a tour (whole video or a segment), rendering a
 * reel, proposing AI markers. Each job says only how a step is recorded (`write`: its row and its event); the
 * reporter decides when. `report(value, text)` takes the job's measure and `percentOf` turns it into the percent
 * shown (a retry's head start, a segment's share). Writes come at most every PROGRESS_INTERVAL_MS (ffmpeg reports far
 * more often) unless forced or the stage text changes; they run one after another in order, below 100 (the job's
 * own last event says done), never lower than the last one written, and a failed write is logged, never thrown: a
 * progress bar does not fail the job.
 */
import type { Services } from '../services/services.js';

/** Minimum gap between two progress writes and events, unless the stage text changes. */
const PROGRESS_INTERVAL_MS = 750;

export interface ProgressSink {
  /**
   * Records one step (its row, its event); false when the job no longer owns what it reports (nothing was published).
   */
  write(percent: number, text: string): Promise<boolean>;
  /** Turns the job's measure into the percent shown; the measure itself when absent. */
  percentOf?: (value: number) => number | Promise<number>;
  /** What the warning of a failed write names (the tour, the reel). */
  logContext: Record<string, unknown>;
}

export interface ProgressReporter {
  /** Reports a step; resolves when it (and every earlier one) is written or skipped. */
  report(value: number, text: string, force?: boolean): Promise<void>;
  /** Resolves when every step reported so far is written. */
  flush(): Promise<void>;
}

export function progressReporter(services: Services, sink: ProgressSink): ProgressReporter {
  let last = { value: Number.NEGATIVE_INFINITY, text: '', at: 0 };
  let written = { percent: -1, text: '' };
  let chain: Promise<void> = Promise.resolve();
  const report = (value: number, text: string, force = false): Promise<void> => {
    const now = Date.now();
    if (!force && text === last.text && (value <= last.value || now - last.at < PROGRESS_INTERVAL_MS)) return chain;
    last = { value, text, at: now };
    chain = chain
      .then(async () => {
        const percent = Math.min(99, Math.floor(sink.percentOf ? await sink.percentOf(value) : value));
        if (percent < written.percent || (!force && percent === written.percent && text === written.text)) return;
        if (await sink.write(percent, text)) written = { percent, text };
      })
      .catch((err) => services.log.warn({ err, ...sink.logContext }, 'progress update failed'));
    return chain;
  };
  return { report, flush: () => chain };
}
