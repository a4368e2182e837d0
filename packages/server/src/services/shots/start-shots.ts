/**
 * The service side of Professional Photos: whether a generation runs, and starting one (generateTourShots) or an
 * enhance / a staging of one photo (regenerateShot, generateStagedShot) under the availability rules (services/shots/); services/shots/run-shots.ts does
 * the work.
 */
import { DEFAULT_STAGING_PROMPT, ERROR_CODES, ERROR_TEXTS, SHOT_STATUS, TOUR_STATUS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import type { Services } from '../services.js';
import type { ShotRow } from '../../db/tables/ai.js';
import { AI_NOT_CONFIGURED_TEXT } from '../ai/ai-worker.js';
import { shotsGenerateKey, shotsQueue } from '../../jobs/shots-job.js';

const SHOT_BUSY_TEXT = 'This photo is still processing.';
const ENHANCE_UNAVAILABLE_TEXT = 'This photo is already enhanced.';
const STAGE_UNAVAILABLE_TEXT = 'Enhance the photo first; a staged photo cannot be staged again.';

/**
 * Whether a photo generation of the tour is queued or running: its pg-boss job (one per tour, by singleton key) is not
 * yet completed, failed, expired or cancelled. The console keeps refreshing while it is.
 */
export async function shotsGenerating(services: Services, tourId: string): Promise<boolean> {
  return services.queue.pending(shotsQueue.queue, shotsGenerateKey(tourId));
}

/** Refuses a tour that is not processed, then queues one generation per tour at a time. */
export async function startShots(services: Services, tourId: string): Promise<void> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['status', 'video_key'])
    .where('id', '=', tourId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  if (tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key)
    throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, ERROR_TEXTS.shotsNotReady);
  await shotsQueue.enqueue(services, { kind: 'generate', tourId });
}

/** Marks a shot PROCESSING for an enhance or a staging, enforcing the availability rules. */
export async function startShotWork(
  services: Services,
  shotId: string,
  kind: 'enhance' | 'stage',
  prompt = DEFAULT_STAGING_PROMPT,
): Promise<ShotRow> {
  const db = services.db;
  if (kind === 'stage' && !services.config.AI_WORKER_URL) {
    // Still recorded on the shot, so the card shows why.
    const row = await db
      .updateTable('shots')
      .set({ status: SHOT_STATUS.FAILED, error_message: AI_NOT_CONFIGURED_TEXT, updated_at: new Date() })
      .where('id', '=', shotId)
      .where('status', '!=', SHOT_STATUS.PROCESSING)
      .where('enhanced_key', 'is not', null)
      .where('staged_key', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (row) return row;
  }
  const row = await db.transaction().execute(async (trx) => {
    const shot = await trx.selectFrom('shots').selectAll().where('id', '=', shotId).forUpdate().executeTakeFirst();
    if (!shot) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
    if (shot.status === SHOT_STATUS.PROCESSING) throw new AppError(ERROR_CODES.CONFLICT, SHOT_BUSY_TEXT);
    // Enhance: when there is no enhanced image (or the last try failed: re-enhance). Stage: enhanced, not yet staged.
    if (kind === 'enhance' && shot.enhanced_key && shot.status !== SHOT_STATUS.FAILED)
      throw new AppError(ERROR_CODES.CONFLICT, ENHANCE_UNAVAILABLE_TEXT);
    if (kind === 'stage' && (!shot.enhanced_key || shot.staged_key))
      throw new AppError(ERROR_CODES.CONFLICT, STAGE_UNAVAILABLE_TEXT);
    return trx
      .updateTable('shots')
      .set({
        status: SHOT_STATUS.PROCESSING,
        error_message: null,
        ...(kind === 'stage' ? { staging_prompt: prompt } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', shotId)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  await shotsQueue.enqueue(services, kind === 'enhance' ? { kind, shotId } : { kind, shotId, prompt });
  return row;
}
