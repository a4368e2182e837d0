/**
 * A person's data (handlers: services/personal-data/): the export job (one ZIP per request) and the sweep that deletes
 * the accounts whose grace period has ended and removes export files whose link expired.
 */
import { defineJob } from './queue.js';

/** Attempts of one export: the queue retries it twice (storage or SMTP that was down). */
export const EXPORT_ATTEMPTS = 3;

export interface DataExportJob {
  exportId: string;
}

export const dataExportQueue = defineJob<DataExportJob>('data-export', {
  options: { retryLimit: EXPORT_ATTEMPTS - 1, retryDelay: 5, expireInSeconds: 10 * 60 },
});

/** Due account deletions and expired export files (scheduled in jobs/workers.ts). */
export const personalDataSweepQueue = defineJob<object>('personal-data-sweep', {
  options: { retryLimit: 1, expireInSeconds: 30 * 60 },
});
