/**
 * A long video in segments: the process-tour job probes the source and, for a video longer than 1.5
 * segments, records one `tour_segments` row and sends one `process-tour-segment` job per segment
 * (jobs/processing-jobs.ts enqueueSegments). Any worker takes a segment: it downloads the source, decodes from the
 * keyframe before the segment's first tour frame (media/source-frames.ts: the frames are exactly the whole video's),
 * encodes the segment's clips and stores them under the attempt's folder with their place in the tour. The segment that
 * finds itself the last one done (counted under the tour row's lock) enqueues `process-tour-join`, which writes the
 * clip rows and marks the tour PROCESSED as the one-piece job does.
 *
 * - A segment that fails or whose worker dies is retried alone (its own pg-boss job, lease and retries); its clip keys
 *   are fixed, so a retry overwrites what a dead run left. Retries spent: the dead-letter queue fails the tour.
 * - A video fault found in a segment (VideoRejectedError) fails the tour at once, like the one-piece job.
 * - Progress: each segment writes its own share to its row; the tour's percentage is their sum over the frames.
 * - A segment or join of a superseded attempt (the tour was reprocessed, deleted or failed) does nothing; the
 *   attempt's files go with the usual tidying (removeAttemptFolders / tidyFinishedTour).
 */
import os from 'node:os';
import path from 'node:path';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { SegmentResultJson, VideoInfoJson } from '../db/types.js';
import { CLIP_FRAMES } from '../media/encoding.js';
import { PROGRESS_TEXT } from '../media/progress-text.js';
import { makeWorkDir } from '../media/work-dir.js';
import type { Services } from '../services/services.js';
import { cutOffOf, mailCutOff, type CutOff } from './cut-off-recording.js';
import { failTour, finishProcessedTour, tidyFinishedTour, versionPrefix } from './finish-processed-tour.js';
import { processTourJoinQueue, type ProcessTourJoinJob, type ProcessTourSegmentJob } from './processing-jobs.js';
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

/** True while `attempt` is the tour's live processing attempt. */
async function attemptIsLive(services: Services, tourId: string, attempt: number): Promise<boolean> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['status', 'deleted_at', 'processing_attempt'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  return !!tour && !tour.deleted_at && tour.status === TOUR_STATUS.PROCESSING && tour.processing_attempt === attempt;
}

/** Records this segment's share done, and answers the tour's percent: the segments' shares summed over their frames. */
function segmentShare(services: Services, job: ProcessTourSegmentJob) {
  return async (fraction: number): Promise<number> => {
    const { db } = services;
    await db
      .updateTable('tour_segments')
      .set({ progress: fraction })
      .where('tour_id', '=', job.tourId)
      .where('attempt', '=', job.attempt)
      .where('index', '=', job.index)
      .execute();
    const segs = await db
      .selectFrom('tour_segments')
      .select(['first_frame', 'end_frame', 'progress'])
      .where('tour_id', '=', job.tourId)
      .where('attempt', '=', job.attempt)
      .execute();
    const total = Math.ceil(job.probe.durationSeconds * 15);
    const frames = (s: { first_frame: number; end_frame: number | null }) =>
      Math.max(1, (s.end_frame ?? total) - s.first_frame);
    const done =
      segs.reduce((n, s) => n + frames(s) * s.progress, 0) /
      Math.max(
        1,
        segs.reduce((n, s) => n + frames(s), 0),
      );
    return band([BAND.process[0], BAND.store[1]], done);
  };
}

/** Processes one segment and stores its clips; the last segment done enqueues the join. */
export async function processSegmentJob(
  services: Services,
  job: ProcessTourSegmentJob,
  media: ProcessingMedia,
  signal: AbortSignal,
): Promise<void> {
  const { db, log } = services;
  const { tourId, attempt } = job;
  if (!(await attemptIsLive(services, tourId, attempt))) return;
  const seg = await db
    .selectFrom('tour_segments')
    .select(['done_at'])
    .where('tour_id', '=', tourId)
    .where('attempt', '=', attempt)
    .where('index', '=', job.index)
    .executeTakeFirst();
  if (!seg || seg.done_at) return;
  const tour = await db
    .selectFrom('tours')
    .select(['video_key', 'blur_faces'])
    .where('id', '=', tourId)
    .executeTakeFirstOrThrow();
  const prefix = versionPrefix(tourId, attempt);
  const progress = tourProgressReporter(services, job, segmentShare(services, job));
  const workDir = await makeWorkDir('segment');
  try {
    const input = await downloadSource(services, tourId, tour.video_key, workDir.path);
    const result = await media.processVideoSegment({
      blurFaces: tour.blur_faces,
      input,
      workDir: path.join(workDir.path, 'out'),
      signal,
      probe: job.probe,
      range: job.range,
      onProgress: (p) => void progress.report(p.progress * 0.9, p.text),
    });

    // Clips keep their place in the tour: segment k's clip i is the tour's clip first/36 + i.
    const stored = await storeClips(services, prefix, result.clips, {
      offset: Math.round(job.range.first / CLIP_FRAMES),
    });
    const clips = stored.map(({ duration: _, ...c }) => c);
    const thumbnail = result.thumbnailPath ? await storeThumbnail(services, prefix, result.thumbnailPath) : null;
    await progress.report(1, PROGRESS_TEXT.processing, true);
    await progress.flush();
    const outcome: SegmentResultJson = {
      clips,
      thumbnail,
      width: result.videoInfo.width,
      height: result.videoInfo.height,
      fps: result.fps,
      worker: `${os.hostname()}:${process.pid}`,
    };

    // Done: recorded under the tour row's lock, so of two segments finishing together exactly one sees all done.
    await db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('tours')
        .select(['status', 'deleted_at', 'processing_attempt'])
        .where('id', '=', tourId)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.deleted_at || row.status !== TOUR_STATUS.PROCESSING || row.processing_attempt !== attempt) return;
      await trx
        .updateTable('tour_segments')
        .set({ done_at: new Date(), result: JSON.stringify(outcome), progress: 1 })
        .where('tour_id', '=', tourId)
        .where('attempt', '=', attempt)
        .where('index', '=', job.index)
        .execute();
      const open = await trx
        .selectFrom('tour_segments')
        .select('index')
        .where('tour_id', '=', tourId)
        .where('attempt', '=', attempt)
        .where('done_at', 'is', null)
        .execute();
      if (open.length === 0) {
        const source = { partial: job.probe.partial, headerDurationSeconds: job.probe.headerDurationSeconds };
        await processTourJoinQueue.enqueue(services, { tourId, attempt, source }, trx, { priority: 1 });
      }
    });
  } catch (err) {
    await progress.flush();
    const rejected = rejectionMessage(err);
    if (rejected) {
      await failTour(services, tourId, rejected);
      await tidyFinishedTour(services, tourId);
      return;
    }
    log.warn({ err, tourId, attempt, segment: job.index }, 'segment failed; pg-boss retries it');
    throw err;
  } finally {
    await workDir.remove();
  }
}

/**
 * Turns the finished segments of `attempt` into the tour's clips and marks it PROCESSED (once; later joins do nothing).
 */
export async function joinSegmentsJob(services: Services, job: ProcessTourJoinJob): Promise<void> {
  const { db, storage } = services;
  const { tourId, attempt } = job;
  const segs = await db
    .selectFrom('tour_segments')
    .selectAll()
    .where('tour_id', '=', tourId)
    .where('attempt', '=', attempt)
    .orderBy('index')
    .execute();
  if (segs.length === 0 || segs.some((s) => !s.done_at || !s.result)) return;
  const results = segs.map((s) => s.result!);
  const first = results[0]!;
  const clips = results.flatMap((r) => r.clips).sort((a, b) => a.index - b.index);
  if (!first.thumbnail || clips.some((c, i) => c.index !== i))
    throw new Error(
      `segments of tour ${tourId} attempt ${attempt} do not join (clips ${clips.map((c) => c.index).join(',')})`,
    );
  // A cut-off recording keeps what was decoded; the video info says how much of what the file declares.
  const cut = job.source ? cutOffOf(job.source, clips.reduce((n, c) => n + c.frameCount, 0) / first.fps) : null;
  const videoInfo: VideoInfoJson & Partial<CutOff> = {
    width: first.width,
    height: first.height,
    fullSize: clips.reduce((n, c) => n + c.highSize, 0),
    mediumSize: clips.reduce((n, c) => n + c.lowSize, 0),
    smallSize: first.thumbnail.size,
    ...cut,
  };
  const outcome = await finishProcessedTour(services, {
    tourId,
    attempt,
    clips: clips.map((c) => ({
      index: c.index,
      frame_count: c.frameCount,
      duration: c.frameCount / first.fps,
      high_key: c.highKey,
      low_key: c.lowKey,
      blurred_frames: c.blurredFrames,
    })),
    videoInfo,
    fps: first.fps,
    thumbnailKey: first.thumbnail.key,
    // This attempt's rows stay as the record of which worker made which clips; older attempts' go.
    alsoInTransaction: (trx) =>
      trx.deleteFrom('tour_segments').where('tour_id', '=', tourId).where('attempt', '!=', attempt).execute(),
  });
  if (outcome === 'processed' && cut) await mailCutOff(services, tourId, cut);
  if (outcome === 'deleted') return storage.deletePrefix(`tours/${tourId}/`);
  if (outcome === 'superseded') return tidyFinishedTour(services, tourId);
}
