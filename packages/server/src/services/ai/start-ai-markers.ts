/**
 * tourGenerateAIMarkers' service side: the checks of the spec and one run per user at a time; services/ai/run-ai-markers.ts
 * analyses.
 */
import { ERROR_CODES, ERROR_TEXTS, TOUR_STATUS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import type { Services } from '../services.js';
import { AI_RUN_STALE_MINUTES, aiMarkersQueue } from '../../jobs/ai-markers-job.js';

const AI_NOT_PROCESSED_TEXT = 'Tour must be fully processed before generating AI markers.';

/** Validates and starts a generation for `userId` on `tourId` (a raw id); throws the spec's errors. */
export async function startAiMarkers(services: Services, userId: string, tourId: string): Promise<void> {
  const db = services.db;
  const tour = await db
    .selectFrom('tours')
    .select(['id', 'status', 'video_key'])
    .where('id', '=', tourId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  if (tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key)
    throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, AI_NOT_PROCESSED_TEXT);
  // Forget runs whose worker died long ago, so the user is not locked out for ever.
  await db
    .updateTable('ai_marker_runs')
    .set({ status: 'FAILED', error: 'abandoned', finished_at: new Date() })
    .where('status', '=', 'RUNNING')
    .where('created_at', '<', new Date(Date.now() - AI_RUN_STALE_MINUTES * 60_000))
    .execute();
  const runId = await db
    .transaction()
    .execute(async (trx) => {
      await trx.selectFrom('tours').select('id').where('id', '=', tourId).forUpdate().executeTakeFirst();
      const hasAi = await trx
        .selectFrom('markers')
        .select('id')
        .where('tour_id', '=', tourId)
        .where('source', '=', 'AI')
        .executeTakeFirst();
      if (hasAi) throw new AppError(ERROR_CODES.AI_ALREADY_CREATED, ERROR_TEXTS.aiAlreadyCreated);
      const running = await trx
        .selectFrom('ai_marker_runs')
        .select('id')
        .where('user_id', '=', userId)
        .where('status', '=', 'RUNNING')
        .executeTakeFirst();
      if (running) throw new AppError(ERROR_CODES.AI_ALREADY_GENERATING, ERROR_TEXTS.aiAlreadyGenerating);
      const busyTour = await trx
        .selectFrom('ai_marker_runs')
        .select('id')
        .where('tour_id', '=', tourId)
        .where('status', '=', 'RUNNING')
        .executeTakeFirst();
      if (busyTour) throw new AppError(ERROR_CODES.AI_ALREADY_GENERATING, ERROR_TEXTS.aiAlreadyGenerating);
      const row = await trx
        .insertInto('ai_marker_runs')
        .values({ tour_id: tourId, user_id: userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    })
    .catch((err: unknown) => {
      // Two calls at once: the unique index lets one through.
      if (err instanceof AppError) throw err;
      if (/unique|duplicate/i.test(String((err as Error)?.message)))
        throw new AppError(ERROR_CODES.AI_ALREADY_GENERATING, ERROR_TEXTS.aiAlreadyGenerating);
      throw err;
    });
  try {
    await aiMarkersQueue.enqueue(services, { runId });
  } catch (err) {
    await db
      .updateTable('ai_marker_runs')
      .set({ status: 'FAILED', error: 'could not queue', finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
    throw err;
  }
}
