/**
 * The link preview picture job (handler: services/share-preview/preview-image.ts): queued when a tour is processed
 * and when its cover or rooms change; one per tour at a time.
 */
import { defineJob } from './queue.js';

export interface SharePreviewJob {
  tourId: string;
}

export const sharePreviewQueue = defineJob<SharePreviewJob>('share-preview', {
  options: { retryLimit: 2, retryDelay: 5, expireInSeconds: 5 * 60 },
  perJob: (job) => ({ singletonKey: `share-preview-${job.tourId}` }),
});
