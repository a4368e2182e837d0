/** Webhook deliveries (issue 20): one job per attempt; retries are scheduled by the handler itself (services/developer/webhooks.ts). */
import type { Services } from '../services/services.js';
import { WEBHOOK_DELIVERY_QUEUE, deliverWebhook, type WebhookDeliveryJob } from '../services/developer/webhooks.js';

/**
 * Parallel deliveries per worker node. A company has at most WEBHOOK_COMPANY_SLOTS in flight across all workers (see
 * services/developer/webhooks.ts), so a company whose endpoint hangs for the whole timeout holds that many of these,
 * never all: two such companies at once still leave room for everyone else.
 */
const CONCURRENT_DELIVERIES = 8;

export async function registerWebhookWorker(services: Services): Promise<void> {
  for (let i = 0; i < CONCURRENT_DELIVERIES; i++) {
    await services.queue.work<WebhookDeliveryJob>(WEBHOOK_DELIVERY_QUEUE, (job) => deliverWebhook(services, job.data), { pollingIntervalSeconds: 0.5 });
  }
}
