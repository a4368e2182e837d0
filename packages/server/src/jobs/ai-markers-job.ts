/** The AI markers job (handler: jobs/ai-markers.ts): one run of tourGenerateAIMarkers. */
import { defineJob } from './queue.js';

/** A RUNNING run older than this is taken as dead (its job expired too). */
export const AI_RUN_STALE_MINUTES = 15;

export interface AiMarkersJob {
  runId: string;
}

export const aiMarkersQueue = defineJob<AiMarkersJob>('ai-markers', {
  options: { retryLimit: 1, retryDelay: 2, expireInSeconds: AI_RUN_STALE_MINUTES * 60 },
});
