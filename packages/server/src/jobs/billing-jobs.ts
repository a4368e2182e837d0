/**
 * Billing's jobs (handlers: services/billing/sync.ts): a recorded event's sync, and the scheduled licence expiry sweep.
 */
import { defineJob } from './queue.js';

export const billingSyncQueue = defineJob<{ eventId: string }>('billing-sync', {
  // Batches keep a burst of webhooks quick; a failure retries the batch, which is harmless: processed events are
  // skipped.
  work: { batchSize: 20 },
});

export const billingExpireQueue = defineJob<object>('billing-expire');
