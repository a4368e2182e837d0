/** Seller reports on worker nodes: the PDF job (download or digest) and the sweep that starts due digests. */
import type { Services } from '../services/services.js';
import { SELLER_DIGEST_SWEEP_CRON, SELLER_DIGEST_SWEEP_QUEUE, SELLER_REPORT_QUEUE, runSellerReport, sweepDueDigests, type SellerReportJob } from '../services/seller-reports/runs.js';

export async function registerSellerReportWorkers(services: Services): Promise<void> {
  await services.queue.work<SellerReportJob>(SELLER_REPORT_QUEUE, (job) => runSellerReport(services, job.data.runId));
  await services.queue.work<object>(SELLER_DIGEST_SWEEP_QUEUE, async () => {
    const n = await sweepDueDigests(services);
    if (n > 0) services.log.info({ digests: n }, 'seller digests started');
  });
  await services.queue.boss.schedule(SELLER_DIGEST_SWEEP_QUEUE, SELLER_DIGEST_SWEEP_CRON, {});
}
