/**
 * A long video in segments (issue 22): the process-tour job probes the source and, for a video longer than 1.5
 * segments, records one `tour_segments` row and sends one `process-tour-segment` job per segment (jobs/enqueue.ts
 * startSegments). Any worker takes a segment: it downloads the source, decodes from the keyframe before the segment's
 * first tour frame (media/source-frames.ts: the frames are exactly the whole video's), encodes the segment's clips
 * and stores them under the attempt's folder with their place in the tour. The segment that finds itself the last one
 * done (counted under the tour row's lock) enqueues `process-tour-join`, which writes the clip rows and marks the tour
 * PROCESSED as the one-piece job does.
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
import type { VideoInfoJson } from '../db/types.js';
import type { SegmentResultJson } from '../db/migrations/0130-tour-segments.js';
import { topics } from '../events/event-bus.js';
import type { TourProgressEvent } from '../core/events.js';
import type { Services } from '../services/services.js';
import { QUEUES } from './queue.js';
import { enqueueJoin, ensureProcessingQueues, type ProcessTourJoinJob, type ProcessTourSegmentJob } from './enqueue.js';
import { BAND, band, failTour, loadMedia, processingLease, rejectionMessage, tidyFinishedTour } from './process-tour.js';
import { makeWorkDir } from '../media/work-dir.js';
import { finishProcessedTour, versionPrefix } from './finish-processed-tour.js';

/** Minimum gap between two progress writes of one segment. */
const PROGRESS_INTERVAL_MS = 750;

export async function registerProcessTourSegmentWorkers(services: Services): Promise<void> {
  await ensureProcessingQueues(services);
  await services.queue.work<ProcessTourSegmentJob>(QUEUES.processTourSegment, (job) => processSegmentJob(services, job.data, job.signal), {
    lease: processingLease(services, (data) => `process-tour-segment:${data.tourId}:${data.attempt}:${data.index}`),
  });
  await services.queue.work<ProcessTourJoinJob>(QUEUES.processTourJoin, (job) => joinSegmentsJob(services, job.data));
}

/** True while `attempt` is the tour's live processing attempt. */
async function attemptIsLive(services: Services, tourId: string, attempt: number): Promise<boolean> {
  const tour = await services.db.selectFrom('tours').select(['status', 'deleted_at', 'processing_attempt']).where('id', '=', tourId).executeTakeFirst();
  return !!tour && !tour.deleted_at && tour.status === TOUR_STATUS.PROCESSING && tour.processing_attempt === attempt;
}

/** Writes this segment's progress and the tour's (sum of the segments over their frames), never lowering the tour's. */
function segmentProgress(services: Services, job: ProcessTourSegmentJob) {
  let last = { at: 0, value: -1 };
  let chain: Promise<void> = Promise.resolve();
  const report = (fraction: number, text: string, force = false): Promise<void> => {
    const now = Date.now();
    if (!force && (fraction <= last.value || now - last.at < PROGRESS_INTERVAL_MS)) return chain;
    last = { at: now, value: fraction };
    chain = chain
      .then(async () => {
        const { db } = services;
        await db.updateTable('tour_segments').set({ progress: fraction }).where('tour_id', '=', job.tourId).where('attempt', '=', job.attempt).where('index', '=', job.index).execute();
        const segs = await db.selectFrom('tour_segments').select(['first_frame', 'end_frame', 'progress']).where('tour_id', '=', job.tourId).where('attempt', '=', job.attempt).execute();
        const total = Math.ceil(job.probe.durationSeconds * 15);
        const frames = (s: { first_frame: number; end_frame: number | null }) => Math.max(1, (s.end_frame ?? total) - s.first_frame);
        const done =
          segs.reduce((n, s) => n + frames(s) * s.progress, 0) /
          Math.max(
            1,
            segs.reduce((n, s) => n + frames(s), 0),
          );
        const percent = Math.min(99, Math.floor(band([BAND.process[0], BAND.store[1]], done)));
        const res = await db
          .updateTable('tours')
          .set({ progress: percent, progress_text: text, updated_at: new Date() })
          .where('id', '=', job.tourId)
          .where('processing_attempt', '=', job.attempt)
          .where('status', '=', TOUR_STATUS.PROCESSING)
          .where('progress', '<', percent)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) {
          await services.events.publish(topics.tourProgress(job.tourId), { progress: percent, status: TOUR_STATUS.PROCESSING, text, thumbnailURL: null } satisfies TourProgressEvent);
        }
      })
      .catch((err) => services.log.warn({ err, tourId: job.tourId }, 'segment progress update failed'));
    return chain;
  };
  return { report, flush: () => chain };
}

/** Processes one segment and stores its clips; the last segment done enqueues the join. */
async function processSegmentJob(services: Services, job: ProcessTourSegmentJob, signal: AbortSignal): Promise<void> {
  const { db, storage, log } = services;
  const { tourId, attempt } = job;
  if (!(await attemptIsLive(services, tourId, attempt))) return;
  const seg = await db.selectFrom('tour_segments').select(['done_at']).where('tour_id', '=', tourId).where('attempt', '=', attempt).where('index', '=', job.index).executeTakeFirst();
  if (!seg || seg.done_at) return;
  const tour = await db.selectFrom('tours').select(['video_key', 'blur_faces']).where('id', '=', tourId).executeTakeFirstOrThrow();
  const prefix = versionPrefix(tourId, attempt);
  const progress = segmentProgress(services, job);
  const workDir = await makeWorkDir('segment');
  const work = workDir.path;
  try {
    if (!tour.video_key) throw new Error(`tour ${tourId} has no source video`);
    const input = path.join(work, `source${path.extname(tour.video_key) || '.mp4'}`);
    await storage.download(tour.video_key, input);
    const media = await loadMedia();
    const frameFilter = tour.blur_faces ? (await import('../media/blur-faces.js')).faceBlurFilter() : undefined;
    const result = await media.processVideoSegment({
      input,
      workDir: path.join(work, 'out'),
      signal,
      probe: job.probe,
      range: job.range,
      ...(frameFilter ? { frameFilter } : {}),
      onProgress: (p) => void progress.report(p.progress * 0.9, p.text),
    });

    // Clips keep their place in the tour: segment k's clip i is the tour's clip first/36 + i.
    const offset = Math.round(job.range.first / media.CLIP_FRAMES);
    const clips: SegmentResultJson['clips'] = [];
    for (const clip of result.clips) {
      const index = offset + clip.index;
      const name = String(index).padStart(4, '0');
      const highKey = `${prefix}clips/${name}-high.mp4`;
      const lowKey = `${prefix}clips/${name}-low.mp4`;
      const highSize = (await storage.putFile(highKey, clip.highPath, 'video/mp4')).size;
      const lowSize = (await storage.putFile(lowKey, clip.lowPath, 'video/mp4')).size;
      clips.push({ index, frameCount: clip.frameCount, highKey, lowKey, highSize, lowSize, blurredFrames: clip.changedFrames ?? 0 });
    }
    let thumbnail: SegmentResultJson['thumbnail'] = null;
    if (result.thumbnailPath) {
      const key = `${prefix}thumbnail.jpg`;
      thumbnail = { key, size: (await storage.putFile(key, result.thumbnailPath, 'image/jpeg')).size };
    }
    await progress.report(1, media.PROGRESS_TEXT.processing, true);
    await progress.flush();
    const outcome: SegmentResultJson = { clips, thumbnail, width: result.videoInfo.width, height: result.videoInfo.height, fps: result.fps, worker: `${os.hostname()}:${process.pid}` };

    // Done: recorded under the tour row's lock, so of two segments finishing together exactly one sees all done.
    await db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('tours').select(['status', 'deleted_at', 'processing_attempt']).where('id', '=', tourId).forUpdate().executeTakeFirst();
      if (!row || row.deleted_at || row.status !== TOUR_STATUS.PROCESSING || row.processing_attempt !== attempt) return;
      await trx
        .updateTable('tour_segments')
        .set({ done_at: new Date(), result: JSON.stringify(outcome), progress: 1 })
        .where('tour_id', '=', tourId)
        .where('attempt', '=', attempt)
        .where('index', '=', job.index)
        .execute();
      const open = await trx.selectFrom('tour_segments').select('index').where('tour_id', '=', tourId).where('attempt', '=', attempt).where('done_at', 'is', null).execute();
      if (open.length === 0) await enqueueJoin(services, { tourId, attempt }, trx);
    });
  } catch (err) {
    await progress.flush();
    const rejected = await rejectionMessage(err);
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

/** Turns the finished segments of `attempt` into the tour's clips and marks it PROCESSED (once; later joins do nothing). */
async function joinSegmentsJob(services: Services, job: ProcessTourJoinJob): Promise<void> {
  const { db, storage } = services;
  const { tourId, attempt } = job;
  const segs = await db.selectFrom('tour_segments').selectAll().where('tour_id', '=', tourId).where('attempt', '=', attempt).orderBy('index').execute();
  if (segs.length === 0 || segs.some((s) => !s.done_at || !s.result)) return;
  const results = segs.map((s) => s.result!);
  const first = results[0]!;
  const clips = results.flatMap((r) => r.clips).sort((a, b) => a.index - b.index);
  if (!first.thumbnail || clips.some((c, i) => c.index !== i)) throw new Error(`segments of tour ${tourId} attempt ${attempt} do not join (clips ${clips.map((c) => c.index).join(',')})`);
  const videoInfo: VideoInfoJson = {
    width: first.width,
    height: first.height,
    fullSize: clips.reduce((n, c) => n + c.highSize, 0),
    mediumSize: clips.reduce((n, c) => n + c.lowSize, 0),
    smallSize: first.thumbnail.size,
  };
  const outcome = await finishProcessedTour(services, {
    tourId,
    attempt,
    clips: clips.map((c) => ({ index: c.index, frame_count: c.frameCount, duration: c.frameCount / first.fps, high_key: c.highKey, low_key: c.lowKey, blurred_frames: c.blurredFrames })),
    videoInfo,
    fps: first.fps,
    thumbnailKey: first.thumbnail.key,
    // This attempt's rows stay as the record of which worker made which clips; older attempts' go.
    alsoInTransaction: (trx) => trx.deleteFrom('tour_segments').where('tour_id', '=', tourId).where('attempt', '!=', attempt).execute(),
  });
  if (outcome === 'deleted') return storage.deletePrefix(`tours/${tourId}/`);
  if (outcome === 'superseded') return tidyFinishedTour(services, tourId);
}
