/**
 * The process-tour job: source video → clips, thumbnail and video info → tour PROCESSED (or FAILED with a reason).
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
import { topics } from '../events/event-bus.js';
import type { TourProgressEvent } from '../core/events.js';
import type * as Media from '../media/process-video.js';
import type { Services } from '../services/services.js';
import { sweepAbandonedUploads } from '../services/uploads.js';
import { QUEUES } from './queue.js';
import { PROCESS_TOUR_FAILED_QUEUE, ensureProcessingQueues, startSegments, type ProcessTourJob } from './enqueue.js';
import { tourFailedWebhook } from '../services/developer/webhook-payloads.js';
import { makeWorkDir, sweepWorkDirs } from '../media/work-dir.js';
import { finishProcessedTour, removeAttemptFolders, versionPrefix, type ClipRow } from './finish-processed-tour.js';

/** Where jobs whose retries are exhausted (by errors or by dying workers) land, so the tour is marked FAILED. */

const UPLOADS_SWEEP_QUEUE = 'uploads-sweep';

/** What the user reads when processing failed for a reason that is not the video's fault. */
export const PROCESSING_FAILED_TEXT = 'We could not process this video. Please try again, or upload another file.';

export type ProcessVideo = typeof Media.processVideo;

/** The media core, loaded on first use: API-only nodes never load the ffmpeg side. */
export const loadMedia = (): Promise<typeof Media> => import('../media/process-video.js');

/** A video refused for a reason the owner can act on (too short, too small, not a video): FAILED at once, no retry. */
export async function rejectionMessage(err: unknown): Promise<string | null> {
  const media = await loadMedia().catch(() => null);
  if (media && err instanceof media.VideoRejectedError) return err.userMessage;
  return null;
}

/** Minimum gap between two progress writes and events, unless the stage text changes. */
const PROGRESS_INTERVAL_MS = 750;

/** Progress bands of the job's stages, in percent. */
export const BAND = { download: [0, 5], process: [5, 90], store: [90, 99] } as const;

/** Registers the processing worker and the worker that marks tours FAILED once retries are exhausted. */
export async function registerProcessTourWorkers(services: Services, deps: { processVideo?: ProcessVideo } = {}): Promise<void> {
  await ensureProcessingQueues(services);
  await sweepWorkDirs(workDirMaxAgeMs(services));
  await services.queue.work<ProcessTourJob>(QUEUES.processTour, (job) => processTourJob(services, job.data.tourId, deps.processVideo, job.signal), {
    lease: processingLease(services, (data) => `process-tour:${data.tourId}`),
  });
  await services.queue.work<ProcessTourJob>(PROCESS_TOUR_FAILED_QUEUE, (job) => markProcessingFailed(services, job.data.tourId));
  // Every quarter hour: forget uploads that were never submitted (pg-boss runs a schedule once across all nodes).
  await services.queue.boss.createQueue(UPLOADS_SWEEP_QUEUE, { name: UPLOADS_SWEEP_QUEUE } as never);
  await services.queue.boss.schedule(UPLOADS_SWEEP_QUEUE, '*/15 * * * *');
  await services.queue.work(UPLOADS_SWEEP_QUEUE, async () => {
    await sweepAbandonedUploads(services);
  });
}

/**
 * Crash recovery (jobs/queue.ts JobLease): a worker killed mid-job loses its lease within PROCESSING_LEASE_SECONDS and
 * the job is retried elsewhere, instead of waiting out PROCESSING_EXPIRE_SECONDS; one attempt per key runs at a time.
 */
export function processingLease<T>(services: Services, key: (data: T) => string) {
  const c = services.config;
  return { seconds: Math.min(c.PROCESSING_LEASE_SECONDS, c.PROCESSING_EXPIRE_SECONDS), heartbeatSeconds: c.PROCESSING_HEARTBEAT_SECONDS, maxSeconds: c.PROCESSING_EXPIRE_SECONDS, key };
}

/** Work folders older than any attempt may run are swept whatever their process (see media/work-dir.ts). */
const workDirMaxAgeMs = (services: Services) => (services.config.PROCESSING_EXPIRE_SECONDS + 600) * 1000;

/** Writes progress to the tour row and publishes it, at most every PROGRESS_INTERVAL_MS (ffmpeg reports far more often). */
function progressReporter(services: Services, tourId: string, attempt: number, startAt: number) {
  // A retry starts from where the tour already stood: the progress users see never goes backwards. It goes on moving
  // at once: the retry's own 0–100 % is spread over what is left above that point (a retry after a worker died at 90 %
  // shows 91 % after a ninth of its work, not only once it passes 90 %).
  let last = { percent: startAt, text: '', at: 0 };
  let chain: Promise<void> = Promise.resolve();
  const scale = (percent: number) => (startAt > 0 ? startAt + ((99 - startAt) * Math.min(100, Math.max(0, percent))) / 100 : percent);
  const report = (percent: number, text: string, force = false): Promise<void> => {
    const p = Math.max(last.percent, Math.min(99, Math.floor(scale(percent))));
    const now = Date.now();
    if (!force && text === last.text && (p <= last.percent || now - last.at < PROGRESS_INTERVAL_MS)) return chain;
    last = { percent: p, text, at: now };
    chain = chain
      .then(async () => {
        // Only the attempt that owns the tour writes; a superseded one stays quiet.
        const res = await services.db
          .updateTable('tours')
          .set({ progress: p, progress_text: text, updated_at: new Date() })
          .where('id', '=', tourId)
          .where('processing_attempt', '=', attempt)
          .where('status', '=', TOUR_STATUS.PROCESSING)
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) > 0) {
          await services.events.publish(topics.tourProgress(tourId), { progress: p, status: TOUR_STATUS.PROCESSING, text, thumbnailURL: null } satisfies TourProgressEvent);
        }
      })
      .catch((err) => services.log.warn({ err, tourId }, 'progress update failed'));
    return chain;
  };
  return { report, flush: () => chain };
}

export const band = (b: readonly [number, number], fraction: number) => b[0] + (b[1] - b[0]) * Math.min(1, Math.max(0, fraction));

export async function processTourJob(
  services: Services,
  tourId: string,
  processVideo?: ProcessVideo,
  // A job running past its expiry is presumed dead and retried elsewhere; the work stops rather than race that retry.
  signal: AbortSignal = AbortSignal.timeout(services.config.PROCESSING_EXPIRE_SECONDS * 1000),
): Promise<void> {
  const { db, storage, log } = services;
  // The real media core runs with the privacy pass (media/blur-faces.ts); injected stand-ins run as given.
  const run = processVideo ?? (await import('../media/blur-faces.js')).withFaceBlur((await loadMedia()).processVideo);
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
  const progress = progressReporter(services, tourId, attempt, claimed.progress);
  const workDir = await makeWorkDir('tour');
  const work = workDir.path;
  try {
    if (!claimed.video_key) throw new Error(`tour ${tourId} has no source video`);
    await progress.report(BAND.download[0], 'Preparing video', true);
    const input = path.join(work, `source${path.extname(claimed.video_key) || '.mp4'}`);
    await storage.download(claimed.video_key, input);
    await fs.mkdir(path.join(work, 'out'));

    // The real media core: probe here, and a long video goes out in segments that any worker takes
    // (jobs/process-tour-segments.ts); this job is then done.
    let probe: Media.ProbeResult | undefined;
    if (!processVideo) {
      const media = await loadMedia();
      probe = await media.probeVideo(input, { signal });
      media.assertAcceptable(probe);
      const ranges = media.planSegments(probe, services.config.PROCESSING_SEGMENT_SECONDS);
      if (ranges.length > 1) {
        await startSegments(services, { tourId, attempt, probe, ranges });
        await progress.report(BAND.process[0], media.PROGRESS_TEXT.processing, true);
        await progress.flush();
        return;
      }
    }

    const privacy = { blurFaces: claimed.blur_faces };
    const result = await run({
      ...privacy,
      ...(probe ? { probe } : {}),
      input,
      workDir: path.join(work, 'out'),
      signal,
      // The media core reports a fraction 0..1 and its stage; it already drops repeats, not bursts.
      onProgress: (p) => void progress.report(band(BAND.process, p.progress), p.text),
    });

    // Store this attempt's files under its own folder.
    await progress.report(BAND.store[0], 'Saving tour', true);
    const clips = [...result.clips].sort((a, b) => a.index - b.index);
    let fullSize = 0;
    let mediumSize = 0;
    const rows: ClipRow[] = [];
    for (const [i, clip] of clips.entries()) {
      const name = String(clip.index).padStart(4, '0');
      const highKey = `${prefix}clips/${name}-high.mp4`;
      const lowKey = `${prefix}clips/${name}-low.mp4`;
      fullSize += (await storage.putFile(highKey, clip.highPath, 'video/mp4')).size;
      mediumSize += (await storage.putFile(lowKey, clip.lowPath, 'video/mp4')).size;
      rows.push({ index: clip.index, frame_count: clip.frameCount, duration: clip.duration, high_key: highKey, low_key: lowKey, blurred_frames: clip.changedFrames ?? 0 });
      void progress.report(band(BAND.store, (i + 1) / clips.length), 'Saving tour');
    }
    const thumbnailKey = `${prefix}thumbnail.jpg`;
    const smallSize = (await storage.putFile(thumbnailKey, result.thumbnailPath, 'image/jpeg')).size;
    await progress.flush();

    // Sizes as stored (the media core reports the same files' sizes).
    const videoInfo: VideoInfoJson = { width: result.videoInfo.width, height: result.videoInfo.height, fullSize, mediumSize, smallSize };
    const outcome = await finishProcessedTour(services, { tourId, attempt, clips: rows, videoInfo, fps: result.fps, thumbnailKey });
    if (outcome === 'deleted') await storage.deletePrefix(`tours/${tourId}/`);
    if (outcome === 'superseded') await storage.deletePrefix(prefix);
  } catch (err) {
    await progress.flush();
    await storage.deletePrefix(prefix).catch((e) => log.warn({ err: e, tourId }, 'could not remove attempt files'));
    const rejected = await rejectionMessage(err);
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

/** Marks a still-processing tour FAILED with a reason the owner can read, and tells subscribers. */
export async function failTour(services: Services, tourId: string, reason: string): Promise<boolean> {
  const failed = await services.db.transaction().execute(async (trx) => {
    const tour = await trx.selectFrom('tours').select(['status', 'deleted_at']).where('id', '=', tourId).forUpdate().executeTakeFirst();
    if (!tour || tour.deleted_at || tour.status !== TOUR_STATUS.PROCESSING) return false;
    await trx.updateTable('tours').set({ status: TOUR_STATUS.FAILED, progress_text: reason, updated_at: new Date() }).where('id', '=', tourId).execute();
    await trx.insertInto('tour_logs').values({ tour_id: tourId, status: TOUR_STATUS.FAILED, error: reason }).execute();
    return true;
  });
  if (failed) {
    const row = await services.db.selectFrom('tours').select(['progress', 'video_key']).where('id', '=', tourId).executeTakeFirst();
    // Nothing reads a failed tour's source again (a new upload makes a new tour): it stops being downloadable at once.
    if (row?.video_key) await services.storage.delete(row.video_key).catch((err) => services.log.warn({ err, tourId }, 'could not remove the source of a failed tour'));
    await services.events.publish(topics.tourProgress(tourId), { progress: row?.progress ?? 0, status: TOUR_STATUS.FAILED, text: reason, thumbnailURL: null } satisfies TourProgressEvent);
    await tourFailedWebhook(services, tourId, reason);
  }
  return failed;
}

/** Dead-letter handler: every retry failed (or every worker died): the tour fails with a generic reason. */
async function markProcessingFailed(services: Services, tourId: string): Promise<void> {
  await failTour(services, tourId, PROCESSING_FAILED_TEXT);
  await tidyFinishedTour(services, tourId);
}

/** For a tour no attempt will write to any more: remove every attempt folder except the live one. */
export async function tidyFinishedTour(services: Services, tourId: string): Promise<void> {
  const tour = await services.db.selectFrom('tours').select(['status', 'deleted_at', 'clips_version', 'processing_attempt']).where('id', '=', tourId).executeTakeFirst();
  if (!tour) return;
  if (tour.deleted_at) return services.storage.deletePrefix(`tours/${tourId}/`);
  if (tour.status === TOUR_STATUS.PROCESSING) return;
  await removeAttemptFolders(services, tourId, tour.processing_attempt, tour.clips_version);
}
