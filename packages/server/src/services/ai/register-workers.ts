/** Workers of the AI and media-product jobs: AI markers, reels and professional photos. */
import type { Services } from '../services.js';
import { registerAiMarkersWorker } from '../../jobs/ai-markers.js';
import { registerReelWorker } from '../../jobs/reel.js';
import { registerShotsWorker } from '../../jobs/shots.js';

export async function registerAiMediaWorkers(services: Services): Promise<void> {
  await registerAiMarkersWorker(services);
  await registerReelWorker(services);
  await registerShotsWorker(services);
}
