/** The reel render job (handler: jobs/reel.ts), queued by tourGenerateReel (services/reels/start-reel.ts). */
import { defineJob } from './queue.js';

export interface ReelJob {
  reelId: string;
}

export const reelQueue = defineJob<ReelJob>('reel-render', {
  options: { retryLimit: 1, retryDelay: 5, expireInSeconds: 30 * 60 },
});
