/**
 * The process-tour job's handler (queue: jobs/processing-jobs.ts): source video → clips, thumbnail and video info →
 * tour PROCESSED (or FAILED with a reason). A long video goes out in segments instead (jobs/process-tour-segments.ts).
 *
 * At-least-once safe. Every attempt claims a number and writes only under tours/<id>/v<attempt>/; the commit swaps the
 * clip rows in one transaction and names the live attempt, then older attempt folders are removed. An attempt that
 * finds the tour already finished (or deleted) removes its own files. So however many times a job runs or dies, the
 * tour ends with one set of clips and no orphan files.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { VideoInfoJson } from '../db/types.js';
import { PROGRESS_TEXT } from '../media/progress-text.js';
import { planSegments } from '../media/source-frames.js';
import { makeWorkDir } from '../media/work-dir.js';
import type { Services } from '../services/services.js';
import { finishProcessedTour, failTour, tidyFinishedTour, versionPrefix } from './finish-processed-tour.js';
import { cutOffOf, mailCutOff, type CutOff } from './cut-off-recording.js';
import { enqueueSegments } from './processing-jobs.js';
import {
  BAND,
  band,
  downloadSource,
  tourProgressReporter,
  rejectionMessage,
  storeClips,
  storeThumbnail,
  type ProcessingMedia,
} from './processing-steps.js';

/**
 * Processes one tour. `media` is the media core (jobs/processing-steps.ts); `signal` aborts the work: a job running
 * past its expiry is presumed dead and retried elsewhere, so the work stops rather than race that retry.
 */
export async function processTourJob(
  services: Services,
  tourId: string,
  media: ProcessingMedia,
  signal: AbortSignal = AbortSignal.timeout(services.config.PROCESSING_EXPIRE_SECONDS * 1000),
): Promise<void> {
  const { db, storage, log } = services;
  const claimed = await db
    .updateTable('tours')
    .set({ processing_attempt: sql`processing_attempt + 1`, progress_text: 'Starting', updated_at: new Date() })
    .where('id', '=', tourId)
    .where('deleted_at', 'is', null)
    .where('status', '=', TOUR_STATUS.PROCESSING)
    .returning(['processing_attempt', 'video_key', 'progress', 'blur_faces'])
    .executeTakeFirst();
  if (!claimed) {
    // Finished, failed or deleted meanwhile (a duplicate or late delivery): just make sure no stray files remain.
    await tidyFinishedTour(services, tourId);
    return;
  }
  const attempt = claimed.processing_attempt;
  const prefix = versionPrefix(tourId, attempt);
  // A retry starts from where the tour already stood: the progress users see never goes backwards. It goes on moving
  // at once: the retry's own 0–100 % is spread over what is left above that point (a retry after a worker died at 90 %
  // shows 91 % after a ninth of its work, not only once it passes 90 %).
  const startAt = claimed.progress;
  const progress = tourProgressReporter(services, { tourId, attempt }, (percent) =>
    Math.max(startAt, startAt > 0 ? startAt + ((99 - startAt) * Math.min(100, Math.max(0, percent))) / 100 : percent),
  );
  const workDir = await makeWorkDir('tour');
  try {
    await progress.report(BAND.download[0], PROGRESS_TEXT.preparing, true);
    const input = await downloadSource(services, tourId, claimed.video_key, workDir.path);
    await fs.mkdir(path.join(workDir.path, 'out'));

    // A long video goes out in segments that any worker takes (jobs/process-tour-segments.ts); this job is then done.
    const probe = await media.probe(input, signal);
    const ranges = planSegments(probe, services.config.PROCESSING_SEGMENT_SECONDS);
    if (ranges.length > 1) {
      await enqueueSegments(services, { tourId, attempt, probe, ranges });
      await progress.report(BAND.process[0], PROGRESS_TEXT.processing, true);
      await progress.flush();
      return;
    }

    const result = await media.processVideo({
      blurFaces: claimed.blur_faces,
      probe,
      input,
      workDir: path.join(workDir.path, 'out'),
      signal,
      // The media core reports a fraction 0..1 and its stage; it already drops repeats, not bursts.
      onProgress: (p) => void progress.report(band(BAND.process, p.progress), p.text),
    });

    // Store this attempt's files under its own folder.
    await progress.report(BAND.store[0], PROGRESS_TEXT.savingTour, true);
    const clips = await storeClips(services, prefix, result.clips, {
      onStored: (done, total) => void progress.report(band(BAND.store, done / total), PROGRESS_TEXT.savingTour),
    });
    const thumbnail = await storeThumbnail(services, prefix, result.thumbnailPath);
    await progress.flush();

    // Sizes as stored (the media core reports the same files' sizes).
    const fullSize = clips.reduce((n, c) => n + c.highSize, 0);
    const mediumSize = clips.reduce((n, c) => n + c.lowSize, 0);
    // A cut-off recording keeps what was decoded; the video info says how much of what the file declares.
    const cut = cutOffOf(probe, clips.reduce((n, c) => n + c.frameCount, 0) / result.fps);
    const videoInfo: VideoInfoJson & Partial<CutOff> = {
      width: result.videoInfo.width,
      height: result.videoInfo.height,
      fullSize,
      mediumSize,
      smallSize: thumbnail.size,
      ...cut,
    };
    const outcome = await finishProcessedTour(services, {
      tourId,
      attempt,
      clips: clips.map((c) => ({
        index: c.index,
        frame_count: c.frameCount,
        duration: c.duration,
        high_key: c.highKey,
        low_key: c.lowKey,
        blurred_frames: c.blurredFrames,
      })),
      videoInfo,
      fps: result.fps,
      thumbnailKey: thumbnail.key,
    });
    if (outcome === 'processed' && cut) await mailCutOff(services, tourId, cut);
    if (outcome === 'deleted') await storage.deletePrefix(`tours/${tourId}/`);
    if (outcome === 'superseded') await storage.deletePrefix(prefix);
  } catch (err) {
    await progress.flush();
    await storage.deletePrefix(prefix).catch((e) => log.warn({ err: e, tourId }, 'could not remove attempt files'));
    const rejected = rejectionMessage(err);
    if (rejected) {
      // The video's fault: tell the owner why, and do not retry.
      await failTour(services, tourId, rejected);
      return;
    }
    log.warn({ err, tourId, attempt }, 'tour processing attempt failed; pg-boss retries it');
    throw err;
  } finally {
    await workDir.remove();
  }
}
