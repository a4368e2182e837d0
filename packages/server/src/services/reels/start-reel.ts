/**
 * tourGenerateReel's service side: a reel row (PROCESSING) and its render job (services/reels/run-reel.ts); failing a reel and
 * publishing its progress, which the job does too.
 */
import { randomInt } from 'node:crypto';
import { ERROR_CODES, ERROR_TEXTS, REEL_STATUS, REELS_MAX, TOUR_STATUS, VALIDATION } from '@roomwalk/shared';
import { sql } from 'kysely';
import { topics } from '../../events/event-bus.js';
import { AppError } from '../../core/errors.js';
import type { ReelProgressEvent } from '../../core/events.js';
import type { Services } from '../services.js';
import type { ReelRow } from '../../db/tables/ai.js';
import { REEL_PROVIDER } from './render-reel.js';
import { reelQueue } from '../../jobs/reel-job.js';

const REEL_NOT_PROCESSED_TEXT = 'Tour must be fully processed before generating reels.';
export const REEL_FAILED_TEXT = 'Could not generate reel';

const slug = (s: string | null) =>
  (s ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'tour';

/** Creates a reel for a tour (raw id) and queues its render; enforces the five non-failed reels. */
export async function startReel(
  services: Services,
  userId: string,
  tourId: string,
  seed = randomInt(1, 2 ** 31 - 1),
): Promise<ReelRow> {
  const db = services.db;
  const reel = await db.transaction().execute(async (trx) => {
    const tour = await trx
      .selectFrom('tours')
      .select(['id', 'status', 'title', 'video_key'])
      .where('id', '=', tourId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
    if (tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key)
      throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, REEL_NOT_PROCESSED_TEXT);
    const counted = await trx
      .selectFrom('reels')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tour_id', '=', tourId)
      .where('status', '!=', REEL_STATUS.FAILED)
      .executeTakeFirstOrThrow();
    if (Number(counted.n) >= REELS_MAX) throw new AppError(ERROR_CODES.REELS_LIMIT, VALIDATION.reelsMax);
    const all = await trx
      .selectFrom('reels')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('tour_id', '=', tourId)
      .executeTakeFirstOrThrow();
    return trx
      .insertInto('reels')
      .values({
        tour_id: tourId,
        created_by: userId,
        key: `${slug(tour.title)}-${Number(all.n) + 1}`,
        seed,
        provider: REEL_PROVIDER,
        progress_text: 'Queued',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  try {
    await reelQueue.enqueue(services, { reelId: reel.id });
  } catch (err) {
    await failReel(services, reel.id, REEL_FAILED_TEXT);
    throw err;
  }
  return reel;
}

export async function publishReelProgress(services: Services, reelId: string, e: ReelProgressEvent) {
  await services.events.publish(topics.reelProgress(reelId), e);
}

export async function failReel(services: Services, reelId: string, reason: string): Promise<void> {
  const db = services.db;
  const row = await db
    .updateTable('reels')
    .set({ status: REEL_STATUS.FAILED, error: reason, progress_text: reason, updated_at: new Date() })
    .where('id', '=', reelId)
    .where('status', '=', REEL_STATUS.PROCESSING)
    .returning(['progress'])
    .executeTakeFirst();
  if (row)
    await publishReelProgress(services, reelId, {
      progress: row.progress,
      status: REEL_STATUS.FAILED,
      text: reason,
      thumbnailURL: null,
    });
}
