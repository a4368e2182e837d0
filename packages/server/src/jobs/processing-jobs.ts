/**
 * Processing's jobs (handlers: jobs/process-tour.ts, jobs/process-tour-segments.ts): a tour's processing, one segment
 * of a long video, the join of its segments, and the dead-letter queue that marks the tour FAILED once retries are
 * spent. They share their options (from settings), their lease and their dead-letter queue.
 */
import type { Kysely, Transaction } from 'kysely';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import type { FrameRange, ProbeResult } from '../media/process-video.js';
import type { Services } from '../services/services.js';
import { defineJob } from './queue.js';

export interface ProcessTourJob {
  tourId: string;
}

/** One segment of a long video: tour frames [first, end) of processing attempt `attempt`. */
export interface ProcessTourSegmentJob {
  tourId: string;
  attempt: number;
  index: number;
  range: FrameRange;
  /** The whole source's probe, made once by the job that planned the segments. */
  probe: ProbeResult;
}

export interface ProcessTourJoinJob {
  tourId: string;
  attempt: number;
  /** What the source's probe said of its end (a cut-off recording, jobs/cut-off-recording.ts); absent in older jobs. */
  source?: Pick<ProbeResult, 'partial' | 'headerDurationSeconds'>;
}

const options = (c: Config) => ({
  retryLimit: c.PROCESSING_RETRY_LIMIT,
  retryDelay: c.PROCESSING_RETRY_DELAY_SECONDS,
  retryBackoff: true,
  expireInSeconds: c.PROCESSING_EXPIRE_SECONDS,
});

/**
 * Crash recovery (jobs/job-lease.ts JobLease): a worker killed mid-job loses its lease within PROCESSING_LEASE_SECONDS
 * and the job is retried elsewhere, instead of waiting out PROCESSING_EXPIRE_SECONDS; one attempt per key runs at a
 * time.
 */
const leased =
  <T>(key: (data: T) => string) =>
  (c: Config) => ({
    lease: {
      seconds: Math.min(c.PROCESSING_LEASE_SECONDS, c.PROCESSING_EXPIRE_SECONDS),
      heartbeatSeconds: c.PROCESSING_HEARTBEAT_SECONDS,
      maxSeconds: c.PROCESSING_EXPIRE_SECONDS,
      key,
    },
  });

/** Where jobs whose retries are exhausted (by errors or by dying workers) land, so the tour is marked FAILED. */
export const processTourFailedQueue = defineJob<ProcessTourJob>('process-tour-failed', {
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
});

export const processTourQueue = defineJob<ProcessTourJob>('process-tour', {
  options,
  deadLetter: processTourFailedQueue,
  work: leased((data) => `process-tour:${data.tourId}`),
});

export const processTourSegmentQueue = defineJob<ProcessTourSegmentJob>('process-tour-segment', {
  options,
  deadLetter: processTourFailedQueue,
  work: leased((data) => `process-tour-segment:${data.tourId}:${data.attempt}:${data.index}`),
});

/** Joins a tour's finished segments into its clips; enqueued by the transaction that records the last segment done. */
export const processTourJoinQueue = defineJob<ProcessTourJoinJob>('process-tour-join', {
  options,
  deadLetter: processTourFailedQueue,
});

/**
 * Creates the processing queues (before a transaction that enqueues: creating one inside it would wait for its
 * connection).
 */
export async function createProcessingQueues(services: Pick<Services, 'queue' | 'config'>): Promise<void> {
  for (const q of [processTourQueue, processTourSegmentQueue, processTourJoinQueue]) await q.create(services);
}

/**
 * Fair scheduling across companies: pg-boss fetches the highest priority first (then the oldest), and a tour's
 * processing gets minus the number of its company's other tours still processing. A company's first video thus goes
 * ahead of every company's second, its second ahead of every third, and so on, while each company's own videos keep
 * their order; one agency uploading a batch no longer holds everyone else back. Counted when the job is sent.
 */
async function fairPriority(db: Kysely<Database> | Transaction<Database>, tourId: string): Promise<number> {
  const row = await db
    .selectFrom('tours as t')
    .innerJoin('tours as o', 'o.company_id', 't.company_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('t.id', '=', tourId)
    .where('o.id', '!=', tourId)
    .where('o.status', '=', TOUR_STATUS.PROCESSING)
    .where('o.deleted_at', 'is', null)
    .executeTakeFirst();
  return -Number(row?.n ?? 0);
}

/**
 * Enqueues processing inside the caller's transaction, at its company's fair priority (call createProcessingQueues
 * first).
 */
export async function enqueueProcessTour(
  services: Pick<Services, 'queue' | 'config'>,
  data: ProcessTourJob,
  trx: Transaction<Database>,
): Promise<void> {
  await processTourQueue.enqueue(services, data, trx, { priority: await fairPriority(trx, data.tourId) });
}

/**
 * Sends a long video out in segments: one row and one job per segment, in one transaction. Segment k gets the tour's
 * fair priority minus k, so another company's video waiting behind this one goes after its first segments, not after
 * all of them.
 */
export async function enqueueSegments(
  services: Services,
  o: { tourId: string; attempt: number; probe: ProbeResult; ranges: FrameRange[] },
): Promise<void> {
  await createProcessingQueues(services);
  await services.db.transaction().execute(async (trx) => {
    const base = await fairPriority(trx, o.tourId);
    await trx.deleteFrom('tour_segments').where('tour_id', '=', o.tourId).where('attempt', '=', o.attempt).execute();
    await trx
      .insertInto('tour_segments')
      .values(
        o.ranges.map((r, index) => ({
          tour_id: o.tourId,
          attempt: o.attempt,
          index,
          first_frame: r.first,
          end_frame: r.end ?? null,
        })),
      )
      .execute();
    for (const [index, range] of o.ranges.entries()) {
      await processTourSegmentQueue.enqueue(
        services,
        { tourId: o.tourId, attempt: o.attempt, index, range, probe: o.probe },
        trx,
        { priority: base - index },
      );
    }
  });
}
