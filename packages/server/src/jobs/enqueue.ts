/**
 * What services may start: the jobs they enqueue and the queues those need. Services import this module only, never a
 * job's implementation (jobs/*.ts import services; this file imports nothing above it).
 */
import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { Database } from '../db/types.js';
import type { FrameRange, ProbeResult } from '../media/process-video.js';
import type { MailMessage } from '../mail/mailer.js';
import type { Services } from '../services/services.js';
import { QUEUES } from './queue.js';

/** Where a processing job goes once its retries are spent (its worker marks the tour FAILED). */
export const PROCESS_TOUR_FAILED_QUEUE = `${QUEUES.processTour}-failed`;

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
}

const queuesReady = new WeakSet<Services>();

/** Creates the processing queue and its dead-letter queue (idempotent; once per process). */
export async function ensureProcessingQueues(services: Services): Promise<void> {
  if (queuesReady.has(services)) return;
  const { boss } = services.queue;
  await boss.createQueue(PROCESS_TOUR_FAILED_QUEUE, { name: PROCESS_TOUR_FAILED_QUEUE, retryLimit: 5, retryDelay: 5, retryBackoff: true } as never);
  await boss.createQueue(QUEUES.processTour, { name: QUEUES.processTour, ...jobOptions(services) } as never);
  await boss.createQueue(QUEUES.processTourSegment, { name: QUEUES.processTourSegment, ...jobOptions(services) } as never);
  await boss.createQueue(QUEUES.processTourJoin, { name: QUEUES.processTourJoin, ...jobOptions(services) } as never);
  queuesReady.add(services);
}

function jobOptions(services: Services) {
  const c = services.config;
  return {
    retryLimit: c.PROCESSING_RETRY_LIMIT,
    retryDelay: c.PROCESSING_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: c.PROCESSING_EXPIRE_SECONDS,
    deadLetter: PROCESS_TOUR_FAILED_QUEUE,
  };
}

/** pg-boss's `db` option: its insert runs on the caller's transaction, so the job exists exactly when the rows do. */
const onTransaction = (trx: Transaction<Database>) => ({
  executeSql: async (text: string, values?: unknown[]) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values ?? []))).rows as unknown[] }),
});

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

/** Enqueues processing inside the caller's transaction (pg-boss runs its insert on that connection). */
export async function enqueueProcessTour(services: Services, tourId: string, trx: Transaction<Database>): Promise<void> {
  const priority = await fairPriority(trx, tourId);
  await services.queue.boss.send(QUEUES.processTour, { tourId } satisfies ProcessTourJob, { ...jobOptions(services), priority, db: onTransaction(trx) } as never);
}

/**
 * Sends a long video out in segments: one row and one job per segment, in one transaction. Segment k gets the tour's
 * fair priority minus k, so another company's video waiting behind this one goes after its first segments, not after
 * all of them.
 */
export async function startSegments(services: Services, o: { tourId: string; attempt: number; probe: ProbeResult; ranges: FrameRange[] }): Promise<void> {
  await ensureProcessingQueues(services);
  await services.db.transaction().execute(async (trx) => {
    const base = await fairPriority(trx, o.tourId);
    await trx.deleteFrom('tour_segments').where('tour_id', '=', o.tourId).where('attempt', '=', o.attempt).execute();
    await trx
      .insertInto('tour_segments')
      .values(o.ranges.map((r, index) => ({ tour_id: o.tourId, attempt: o.attempt, index, first_frame: r.first, end_frame: r.end ?? null })))
      .execute();
    for (const [index, range] of o.ranges.entries()) {
      const job: ProcessTourSegmentJob = { tourId: o.tourId, attempt: o.attempt, index, range, probe: o.probe };
      await services.queue.boss.send(QUEUES.processTourSegment, job, { ...jobOptions(services), priority: base - index, db: onTransaction(trx) } as never);
    }
  });
}

/** Enqueues the join of a tour's segments, inside the transaction that recorded the last segment as done. */
export async function enqueueJoin(services: Services, job: ProcessTourJoinJob, trx: Transaction<Database>): Promise<void> {
  await services.queue.boss.send(QUEUES.processTourJoin, job, { ...jobOptions(services), priority: 1, db: onTransaction(trx) } as never);
}

/** Queues a mail for the worker to send (retried by pg-boss when SMTP fails). */
export async function enqueueMail(services: Services, message: MailMessage): Promise<void> {
  await services.queue.send(QUEUES.mail, message, { retryLimit: 5, retryDelay: 10, retryBackoff: true });
}
