/**
 * Webhook deliveries: one job per attempt; retries are scheduled by the handler itself
 * (services/developer/webhooks.ts).
 */
import { defineJob } from './queue.js';

export interface WebhookDeliveryJob {
  deliveryId: string;
}

export const webhookDeliveryQueue = defineJob<WebhookDeliveryJob>('webhook-delivery', {
  options: { retryLimit: 2, retryDelay: 5 },
  /**
   * Parallel deliveries per worker node. A company has at most WEBHOOK_COMPANY_SLOTS in flight across all workers (see
   * services/developer/webhooks.ts), so a company whose endpoint hangs for the whole timeout holds that many of these,
   * never all: two such companies at once still leave room for everyone else.
   */
  work: { concurrency: 8, pollingIntervalSeconds: 0.5 },
});
