/**
 * The last step of processing, shared by the one-piece job (process-tour.ts) and the segment join
 * (process-tour-segments.ts): in one transaction under the tour's row lock, swap in the attempt's clip rows, mark the
 * tour PROCESSED and log it; then remove older attempts' folders, tell subscribers and send the Pro webhook. Or the
 * other end: the tour FAILED with a reason (failTour), and the tidying of a tour no attempt writes to any more.
 *
 * Only the attempt that owns the tour commits: a tour deleted meanwhile loses every file, and an attempt overtaken by
 * a later one (a retry, or a reprocess after the privacy setting changed) or by one that already finished removes
 * its own files and changes nothing.
 */
import { TOUR_STATUS } from '@roomwalk/shared';
import type { Transaction } from 'kysely';
import type { TourProgressEvent } from '../core/events.js';
import type { Database, VideoInfoJson } from '../db/types.js';
import { topics } from '../events/event-bus.js';
import { tourFailedWebhook, tourProcessedWebhook } from '../services/developer/webhook-payloads.js';
import type { Services } from '../services/services.js';
import { recordProcessingRate } from '../services/processing-metrics.js';
import { sharePreviewQueue } from './share-preview-job.js';

interface ClipRow {
  index: number;
  frame_count: number;
  duration: number;
  high_key: string;
  low_key: string;
  blurred_frames: number;
}

export interface FinishedAttempt {
  tourId: string;
  attempt: number;
  clips: ClipRow[];
  videoInfo: VideoInfoJson;
  fps: number;
  /** This attempt's thumbnail; a thumbnail the owner chose meanwhile is kept instead. */
  thumbnailKey: string;
  /** More writes in the same transaction (the join drops older attempts' segment rows). */
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<unknown>;
}

export type FinishOutcome = 'processed' | 'deleted' | 'superseded';

/**
 * Commits `done` as the tour's clips (see the module comment); the caller tidies its own files when not 'processed'.
 */
export async function finishProcessedTour(services: Services, done: FinishedAttempt): Promise<FinishOutcome> {
  const { db, storage } = services;
  const { tourId, attempt } = done;
  const outcome = await db.transaction().execute(async (trx) => {
    const tour = await trx
      .selectFrom('tours')
      .select(['status', 'deleted_at', 'thumbnail_key', 'processing_attempt'])
      .where('id', '=', tourId)
      .forUpdate()
      .executeTakeFirst();
    if (!tour || tour.deleted_at) return 'deleted' as const;
    if (tour.status !== TOUR_STATUS.PROCESSING || tour.processing_attempt !== attempt) return 'superseded' as const;
    await trx.deleteFrom('clips').where('tour_id', '=', tourId).execute();
    if (done.clips.length > 0)
      await trx
        .insertInto('clips')
        .values(done.clips.map((c) => ({ ...c, tour_id: tourId })))
        .execute();
    // Keep a thumbnail the owner chose meanwhile; replace one from an earlier attempt.
    const keepThumb = tour.thumbnail_key && !/^tours\/[^/]+\/v\d+\//.test(tour.thumbnail_key);
    await trx
      .updateTable('tours')
      .set({
        status: TOUR_STATUS.PROCESSED,
        progress: 100,
        progress_text: null,
        video_info: JSON.stringify(done.videoInfo),
        fps: done.fps,
        clips_version: attempt,
        ...(keepThumb ? {} : { thumbnail_key: done.thumbnailKey }),
        updated_at: new Date(),
      })
      .where('id', '=', tourId)
      .execute();
    await trx.insertInto('tour_logs').values({ tour_id: tourId, status: TOUR_STATUS.PROCESSED, error: null }).execute();
    await done.alsoInTransaction?.(trx);
    return { thumbnailKey: keepThumb ? tour.thumbnail_key! : done.thumbnailKey };
  });
  if (typeof outcome === 'string') return outcome;
  await recordProcessingRate(services, tourId, done.clips);
  await removeAttemptFolders(services, tourId, attempt - 1, attempt);
  await services.events.publish(topics.tourProgress(tourId), {
    progress: 100,
    status: TOUR_STATUS.PROCESSED,
    text: null,
    thumbnailURL: storage.publicUrl(outcome.thumbnailKey),
  } satisfies TourProgressEvent);
  await tourProcessedWebhook(services, tourId);
  await sharePreviewQueue.enqueue(services, { tourId });
  return 'processed';
}

/** Where attempt `attempt` of a tour writes its files. */
export const versionPrefix = (tourId: string, attempt: number) => `tours/${tourId}/v${attempt}/`;

/** Removes the folders of attempts 1..upTo except `keep` (later attempts, possibly still running, remove their own). */
async function removeAttemptFolders(
  services: Services,
  tourId: string,
  upTo: number,
  keep: number | null,
): Promise<void> {
  for (let a = 1; a <= upTo; a++) if (a !== keep) await services.storage.deletePrefix(versionPrefix(tourId, a));
}

/** What the user reads when processing failed for a reason that is not the video's fault. */
export const PROCESSING_FAILED_TEXT = 'We could not process this video. Please try again, or upload another file.';

/** Marks a still-processing tour FAILED with a reason the owner can read, and tells subscribers. */
export async function failTour(services: Services, tourId: string, reason: string): Promise<boolean> {
  const failed = await services.db.transaction().execute(async (trx) => {
    const tour = await trx
      .selectFrom('tours')
      .select(['status', 'deleted_at'])
      .where('id', '=', tourId)
      .forUpdate()
      .executeTakeFirst();
    if (!tour || tour.deleted_at || tour.status !== TOUR_STATUS.PROCESSING) return false;
    await trx
      .updateTable('tours')
      .set({ status: TOUR_STATUS.FAILED, progress_text: reason, updated_at: new Date() })
      .where('id', '=', tourId)
      .execute();
    await trx.insertInto('tour_logs').values({ tour_id: tourId, status: TOUR_STATUS.FAILED, error: reason }).execute();
    return true;
  });
  if (failed) {
    const row = await services.db
      .selectFrom('tours')
      .select(['progress', 'video_key'])
      .where('id', '=', tourId)
      .executeTakeFirst();
    // Nothing reads a failed tour's source again (a new upload makes a new tour): it stops being downloadable at once.
    if (row?.video_key)
      await services.storage
        .delete(row.video_key)
        .catch((err) => services.log.warn({ err, tourId }, 'could not remove the source of a failed tour'));
    await services.events.publish(topics.tourProgress(tourId), {
      progress: row?.progress ?? 0,
      status: TOUR_STATUS.FAILED,
      text: reason,
      thumbnailURL: null,
    } satisfies TourProgressEvent);
    await tourFailedWebhook(services, tourId, reason);
  }
  return failed;
}

/** Dead-letter handler: every retry failed (or every worker died): the tour fails with a generic reason. */
export async function markProcessingFailed(services: Services, tourId: string): Promise<void> {
  await failTour(services, tourId, PROCESSING_FAILED_TEXT);
  await tidyFinishedTour(services, tourId);
}

/** For a tour no attempt will write to any more: remove every attempt folder except the live one. */
export async function tidyFinishedTour(services: Services, tourId: string): Promise<void> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['status', 'deleted_at', 'clips_version', 'processing_attempt'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (!tour) return;
  if (tour.deleted_at) return services.storage.deletePrefix(`tours/${tourId}/`);
  if (tour.status === TOUR_STATUS.PROCESSING) return;
  await removeAttemptFolders(services, tourId, tour.processing_attempt, tour.clips_version);
}
