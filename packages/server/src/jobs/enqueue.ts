/**
 * What services may start: the jobs they enqueue and the queues those need. Services import this module only, never a
 * job's implementation (jobs/*.ts import services; this file imports nothing above it).
 */
import { CompiledQuery, type Transaction } from 'kysely';
import type { Database } from '../db/types.js';
import type { MailMessage } from '../mail/mailer.js';
import type { Services } from '../services/services.js';
import { QUEUES } from './queue.js';

/** Where a processing job goes once its retries are spent (its worker marks the tour FAILED). */
export const PROCESS_TOUR_FAILED_QUEUE = `${QUEUES.processTour}-failed`;

export interface ProcessTourJob {
  tourId: string;
}

const queuesReady = new WeakSet<Services>();

/** Creates the processing queue and its dead-letter queue (idempotent; once per process). */
export async function ensureProcessingQueues(services: Services): Promise<void> {
  if (queuesReady.has(services)) return;
  const { boss } = services.queue;
  await boss.createQueue(PROCESS_TOUR_FAILED_QUEUE, { name: PROCESS_TOUR_FAILED_QUEUE, retryLimit: 5, retryDelay: 5, retryBackoff: true } as never);
  await boss.createQueue(QUEUES.processTour, { name: QUEUES.processTour, ...jobOptions(services) } as never);
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

/** Enqueues processing inside the caller's transaction (pg-boss runs its insert on that connection). */
export async function enqueueProcessTour(services: Services, tourId: string, trx: Transaction<Database>): Promise<void> {
  const db = {
    executeSql: async (text: string, values?: unknown[]) => ({ rows: (await trx.executeQuery(CompiledQuery.raw(text, values ?? []))).rows as unknown[] }),
  };
  await services.queue.boss.send(QUEUES.processTour, { tourId } satisfies ProcessTourJob, { ...jobOptions(services), db } as never);
}

/** Queues a mail for the worker to send (retried by pg-boss when SMTP fails). */
export async function enqueueMail(services: Services, message: MailMessage): Promise<void> {
  await services.queue.send(QUEUES.mail, message, { retryLimit: 5, retryDelay: 10, retryBackoff: true });
}
