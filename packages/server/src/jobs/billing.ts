/** Billing jobs on worker nodes: event processing and the scheduled expiry sweep (services/billing/sync.ts). */
import type { Services } from '../services/services.js';
import { expireLicenses, processBillingEvent } from '../services/billing/sync.js';
import { BILLING_QUEUES, EXPIRY_SWEEP_CRON } from '../services/billing/billing-events.js';

export async function registerBillingWorkers(services: Services): Promise<void> {
  // Batches keep a burst of webhooks quick; a failure retries the batch, which is harmless: processed events are skipped.
  await services.queue.work<{ eventId: string }>(
    BILLING_QUEUES.sync,
    async (job) => {
      await processBillingEvent(services, job.data.eventId);
    },
    { batchSize: 20 },
  );
  await services.queue.work<object>(BILLING_QUEUES.expire, async () => {
    const n = await expireLicenses(services);
    if (n > 0) services.log.info({ licences: n }, 'expired licences ended');
  });
  await services.queue.boss.schedule(BILLING_QUEUES.expire, EXPIRY_SWEEP_CRON, {});
}
