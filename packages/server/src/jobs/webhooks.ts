/** Webhook deliveries (issue 20): one job per attempt; retries are scheduled by the handler itself (services/developer/webhooks.ts). */
import type { Services } from '../services/services.js';
import { WEBHOOK_DELIVERY_QUEUE, deliverWebhook, type WebhookDeliveryJob } from '../services/developer/webhooks.js';

/** Parallel deliveries per worker node: one endpoint that hangs for the whole timeout holds up only one of them. */
const CONCURRENT_DELIVERIES = 4;

export async function registerWebhookWorker(services: Services): Promise<void> {
  for (let i = 0; i < CONCURRENT_DELIVERIES; i++) {
    await services.queue.work<WebhookDeliveryJob>(WEBHOOK_DELIVERY_QUEUE, (job) => deliverWebhook(services, job.data), { pollingIntervalSeconds: 0.5 });
  }
}
