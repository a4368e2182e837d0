/** Processing speed for operators (core/metrics.ts): recorded once per tour that reaches PROCESSED. */
import { processingSecondsPerVideoSecond } from '../core/metrics.js';
import { processTourQueue } from '../jobs/processing-jobs.js';
import type { Services } from './services.js';

/**
 * Seconds from the tour's processing job being queued (its newest process-tour job: a reprocess queues a new one) to
 * now, per second of video. Never throws: a metric must not fail the tour.
 */
export async function recordProcessingRate(
  services: Services,
  tourId: string,
  clips: ReadonlyArray<{ duration: number }>,
): Promise<void> {
  const videoSeconds = clips.reduce((sum, c) => sum + c.duration, 0);
  if (!(videoSeconds > 0)) return;
  try {
    const queued = await services.queue.queuedAt(processTourQueue.queue, 'tourId', tourId);
    if (queued) processingSecondsPerVideoSecond.observe((Date.now() - queued.getTime()) / 1000 / videoSeconds);
  } catch (err) {
    services.log.warn({ err }, 'processing speed not recorded');
  }
}
