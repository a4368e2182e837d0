/**
 * Job handlers for nodes with the worker role: every job module (jobs/*-job.ts, jobs/*-jobs.ts: queue name, payload,
 * options, enqueue, register) with the handler that does its work, and every scheduled job in SCHEDULES. The work is a
 * service's (services/<domain>/; a job's own run in `run-*.ts`), except processing's pipeline (jobs/process-*.ts).
 */
import type { Config } from '../config.js';
import { sweepWorkDirs } from '../media/work-dir.js';
import { handleAccountMailRequest } from '../services/accounts.js';
import { expireLicenses, processBillingEvent } from '../services/billing/sync.js';
import { runExport } from '../services/personal-data/exports.js';
import { sweepPersonalData } from '../services/personal-data/purge.js';
import { webhookDeliverer } from '../services/developer/webhook-deliveries.js';
import { rollupRoomAnalytics } from '../services/reports/room-rollup.js';
import { runSellerReport, sweepDueDigests } from '../services/seller-reports/runs.js';
import type { Services } from '../services/services.js';
import { makeSharePreview } from '../services/share-preview/preview-image.js';
import { sweepAbandonedUploads } from '../services/uploads.js';
import { accountMailRequestQueue } from './account-mail-job.js';
import { aiMarkersJob } from '../services/ai/run-ai-markers.js';
import { aiMarkersQueue } from './ai-markers-job.js';
import { billingExpireQueue, billingSyncQueue } from './billing-jobs.js';
import { markProcessingFailed } from './finish-processed-tour.js';
import { mailQueue } from './mail-job.js';
import { dataExportQueue, personalDataSweepQueue } from './personal-data-jobs.js';
import { joinSegmentsJob, processSegmentJob } from './process-tour-segments.js';
import { processTourJob } from './process-tour.js';
import {
  processTourFailedQueue,
  processTourJoinQueue,
  processTourQueue,
  processTourSegmentQueue,
} from './processing-jobs.js';
import { realMedia, type ProcessingMedia } from './processing-steps.js';
import type { JobDefinition } from './queue.js';
import { reelJob } from '../services/reels/run-reel.js';
import { reelQueue } from './reel-job.js';
import { sellerDigestSweepQueue, sellerReportQueue } from './seller-report-jobs.js';
import { sharePreviewQueue } from './share-preview-job.js';
import { generateShotsJob, shotWorkJob } from '../services/shots/run-shots.js';
import { shotsQueue } from './shots-job.js';
import { roomAnalyticsRollupQueue, uploadsSweepQueue } from './sweep-jobs.js';
import { webhookDeliveryQueue } from './webhook-delivery-job.js';
import { serverNow } from '../core/clock.js';

/** The scheduled jobs and their cron (pg-boss runs a schedule once across all nodes). */
const SCHEDULES = (c: Config): Array<[JobDefinition<object>, string]> => [
  // Licences whose end date passed fall back to the Free Trial within this period.
  [billingExpireQueue, '*/15 * * * *'],
  // Digests are due at 07:00 in their time zone, so they go out by 07:15.
  [sellerDigestSweepQueue, '*/15 * * * *'],
  // Forget uploads that were never submitted.
  [uploadsSweepQueue, '*/15 * * * *'],
  // Accounts whose grace period ended, and export files whose link expired.
  [personalDataSweepQueue, '*/15 * * * *'],
  // Whole days of visits into daily aggregates, hourly by default.
  [roomAnalyticsRollupQueue, c.ROOM_ANALYTICS_ROLLUP_CRON],
];

export async function registerWorkers(services: Services): Promise<void> {
  const { log } = services;
  await mailQueue.register(services, (message) => services.mailer.send(message));
  await accountMailRequestQueue.register(services, (request) => handleAccountMailRequest(services, request));
  await registerProcessing(services);
  await billingSyncQueue.register(services, (job) => processBillingEvent(services, job.eventId));
  await billingExpireQueue.register(services, async () => {
    const n = await expireLicenses(services, serverNow(services));
    if (n > 0) log.info({ licences: n }, 'expired licences ended');
  });
  await aiMarkersQueue.register(services, (job) => aiMarkersJob(services, job.runId));
  await reelQueue.register(services, (job) => reelJob(services, job.reelId));
  await sharePreviewQueue.register(services, (job) => makeSharePreview(services, job.tourId));
  await shotsQueue.register(services, (job) =>
    job.kind === 'generate' ? generateShotsJob(services, job.tourId) : shotWorkJob(services, job),
  );
  await webhookDeliveryQueue.register(services, webhookDeliverer(services));
  await sellerReportQueue.register(services, (job) =>
    runSellerReport(services, job.runId, serverNow(services), job.audienceLinkId ?? null),
  );
  await sellerDigestSweepQueue.register(services, async () => {
    const n = await sweepDueDigests(services, serverNow(services));
    if (n > 0) log.info({ digests: n }, 'seller digests started');
  });
  // Abandoned uploads go by the system clock, the one their rows' created_at, the store's signed upload URLs and the
  // staged files' times are written by: moving a development server's clock must not sweep uploads under way.
  await uploadsSweepQueue.register(services, () => sweepAbandonedUploads(services, new Date()));
  await dataExportQueue.register(services, (job) => runExport(services, job.exportId));
  await personalDataSweepQueue.register(services, async () => {
    const done = await sweepPersonalData(services, serverNow(services));
    if (done.accounts || done.exports) log.info(done, 'personal data swept');
  });
  await roomAnalyticsRollupQueue.register(services, async () => {
    // Days are final by the clock the visits are recorded by (the system's), not the server's calendar clock: a
    // development clock moved ahead must not seal days that are still receiving visits.
    const done = await rollupRoomAnalytics(services.db, new Date());
    if (done) log.info(done, 'room analytics rolled up');
  });
  for (const [job, cron] of SCHEDULES(services.config)) await services.queue.schedule(job.queue, cron);
}

/**
 * Processing's four queues with their handlers; `media` is the media core (a stand-in in tests of the bookkeeping).
 * Work folders older than any attempt may run are swept first, whatever their process (see media/work-dir.ts).
 */
export async function registerProcessing(services: Services, media: ProcessingMedia = realMedia()): Promise<void> {
  await sweepWorkDirs((services.config.PROCESSING_EXPIRE_SECONDS + 600) * 1000);
  await processTourQueue.register(services, (job, signal) => processTourJob(services, job.tourId, media, signal));
  await processTourFailedQueue.register(services, (job) => markProcessingFailed(services, job.tourId));
  await processTourSegmentQueue.register(services, (job, signal) => processSegmentJob(services, job, media, signal));
  await processTourJoinQueue.register(services, (job) => joinSegmentsJob(services, job));
}
