/** Processing speed for operators (core/metrics.ts): recorded once per tour that reaches PROCESSED. */
import { sql } from 'kysely';
import { processingSecondsPerVideoSecond } from '../core/metrics.js';
import { QUEUES } from '../jobs/queue.js';
import type { Services } from './services.js';

/**
 * Seconds from the tour's processing job being queued (its newest process-tour job: a reprocess queues a new one) to
 * now, per second of video. Never throws: a metric must not fail the tour.
 */
export async function recordProcessingRate(services: Services, tourId: string, clips: ReadonlyArray<{ duration: number }>): Promise<void> {
  const videoSeconds = clips.reduce((sum, c) => sum + c.duration, 0);
  if (!(videoSeconds > 0)) return;
  try {
    const { rows } = await sql<{ queued: Date | string | null }>`select max(created_on) as queued from pgboss.job where name = ${QUEUES.processTour} and data->>'tourId' = ${tourId}`.execute(
      services.db,
    );
    const queued = rows[0]?.queued;
    if (queued) processingSecondsPerVideoSecond.observe((Date.now() - new Date(queued).getTime()) / 1000 / videoSeconds);
  } catch (err) {
    services.log.warn({ err }, 'processing speed not recorded');
  }
}
