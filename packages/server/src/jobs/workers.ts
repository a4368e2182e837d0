/** Job handlers for nodes with the worker role. Each domain adds its queue here. */
import type { MailMessage } from '../mail/mailer.js';
import type { Services } from '../services/services.js';
import { QUEUES } from './queue.js';
import { registerProcessTourWorkers } from './process-tour.js';
import { registerProcessTourSegmentWorkers } from './process-tour-segments.js';
import { registerAiMarkersWorker } from './ai-markers.js';
import { registerReelWorker } from './reel.js';
import { registerShotsWorker } from './shots.js';
import { registerBillingWorkers } from './billing.js';
import { registerWebhookWorker } from './webhooks.js';
import { registerSellerReportWorkers } from './seller-reports.js';
import { registerRoomAnalyticsWorker } from './room-analytics.js';

export async function registerWorkers(services: Services): Promise<void> {
  await services.queue.work<MailMessage>(QUEUES.mail, async (job) => {
    await services.mailer.send(job.data);
  });
  const accounts = await import('../services/accounts.js');
  await services.queue.work<import('../services/accounts.js').AccountMailRequest>(accounts.ACCOUNT_MAIL_REQUEST_QUEUE, (job) => accounts.handleAccountMailRequest(services, job.data));
  await registerProcessTourWorkers(services);
  await registerProcessTourSegmentWorkers(services);
  await registerBillingWorkers(services);
  await registerAiMarkersWorker(services);
  await registerReelWorker(services);
  await registerShotsWorker(services);
  await registerWebhookWorker(services);
  await registerSellerReportWorkers(services);
  await registerRoomAnalyticsWorker(services);
}
