/**
 * Seller reports' jobs (handlers: services/seller-reports/runs.ts): one PDF run (download or digest), and the digest
 * sweep.
 */
import { defineJob } from './queue.js';

/** Attempts of one run: the queue retries it twice (an SMTP server that was down). */
export const SELLER_RUN_ATTEMPTS = 3;

export interface SellerReportJob {
  runId: string;
  /** A download made from a report filtered by audience link: only that link's visits (its id). */
  audienceLinkId?: string | null;
}

export const sellerReportQueue = defineJob<SellerReportJob>('seller-report', {
  options: { retryLimit: SELLER_RUN_ATTEMPTS - 1, retryDelay: 5, expireInSeconds: 10 * 60 },
});

/** Starts the digests that are due (scheduled in jobs/workers.ts). */
export const sellerDigestSweepQueue = defineJob<object>('seller-digest-sweep');
