/**
 * Professional photos' jobs (handler: jobs/shots.ts): a generation per tour at a time, an enhance or a staging of one
 * photo.
 */
import { defineJob } from './queue.js';

export type ShotsJob =
  | { kind: 'generate'; tourId: string }
  | { kind: 'enhance'; shotId: string }
  | { kind: 'stage'; shotId: string; prompt: string }
  /** The original of a tour made from a device-converted mezzanine, uploaded after it (services/photo-source.ts). */
  | { kind: 'photo-source'; tourId: string; key: string };

/**
 * One generation per tour at a time: its pg-boss singleton key (services/shots/start-shots.ts asks whether it runs).
 */
export const shotsGenerateKey = (tourId: string) => `shots-generate-${tourId}`;

export const shotsQueue = defineJob<ShotsJob>('shots', {
  options: { retryLimit: 1 },
  perJob: (job) =>
    job.kind === 'generate'
      ? { singletonKey: shotsGenerateKey(job.tourId), expireInSeconds: 30 * 60 }
      : { expireInSeconds: 10 * 60 },
});
