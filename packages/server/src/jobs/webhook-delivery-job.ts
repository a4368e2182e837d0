/**
 * Webhook deliveries: one job per attempt; retries are scheduled by the handler itself
 * (services/developer/webhook-deliveries.ts).
 */
import { defineJob } from './queue.js';

export interface WebhookDeliveryJob {
  deliveryId: string;
}

/**
 * Parallel deliveries per worker node, shared by company (services/developer/webhook-slots.ts): a company whose
 * endpoint hangs for the whole timeout holds at most WEBHOOK_COMPANY_SLOTS of them, and the last free ones are kept for
 * companies with nothing in flight.
 */
export const WEBHOOK_NODE_SLOTS = 8;

export const webhookDeliveryQueue = defineJob<WebhookDeliveryJob>('webhook-delivery', {
  options: { retryLimit: 2, retryDelay: 5 },
  work: { concurrency: WEBHOOK_NODE_SLOTS, pollingIntervalSeconds: 0.5 },
});
