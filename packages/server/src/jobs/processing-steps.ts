/**
 * The steps both processing paths take (the whole video in jobs/process-tour.ts, a segment in
 * jobs/process-tour-segments.ts): the media core they call, the source download, their progress (the jobs' one
 * reporter writing the tour's row) and the one loop that stores clips under an attempt's folder.
 */
import path from 'node:path';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { TourProgressEvent } from '../core/events.js';
import { topics } from '../events/event-bus.js';
import type {
  ProcessSegmentOptions,
  ProcessSegmentResult,
  ProcessVideoOptions,
  ProcessVideoResult,
  ProbeResult,
  ProcessedClip,
} from '../media/process-video.js';
import { VideoRejectedError } from '../media/video-rejected-error.js';
import type { Services } from '../services/services.js';
import { progressReporter } from './progress-reporter.js';

/**
 * The media core as processing calls it. The real one (realMedia) loads on first use, so API-only nodes never load the
 * ffmpeg side; tests of the jobs' bookkeeping pass a stand-in (test/fixtures/fake-media.ts). Either way the job probes
 * first and decides from the probe whether the video goes out in segments.
 */
export interface ProcessingMedia {
  /** Probes the source; refuses one under 10 s, over 10 minutes or below 1280x720 / 720x1280 (VideoRejectedError). */
  probe(input: string, signal: AbortSignal): Promise<ProbeResult>;
  processVideo(opts: ProcessVideoOptions & { probe: ProbeResult; blurFaces: boolean }): Promise<ProcessVideoResult>;
  processVideoSegment(opts: ProcessSegmentOptions & { blurFaces: boolean }): Promise<ProcessSegmentResult>;
}

/** The real media core, with the privacy pass (media/blur-faces.ts) when the tour asks for it; loaded on first call. */
export function realMedia(): ProcessingMedia {
  const load = async () => ({
    media: await import('../media/process-video.js'),
    blur: await import('../media/blur-faces.js'),
  });
  return {
    async probe(input, signal) {
      const { media } = await load();
      const probe = await media.probeVideo(input, { signal });
      media.assertAcceptable(probe);
      return probe;
    },
    async processVideo(opts) {
      const { media, blur } = await load();
      return blur.withFaceBlur(media.processVideo)(opts);
    },
    async processVideoSegment({ blurFaces, ...opts }) {
      const { media, blur } = await load();
      return media.processVideoSegment(blurFaces ? { ...opts, frameFilter: blur.faceBlurFilter() } : opts);
    },
  };
}

/** A video refused for a reason the owner can act on (too short, too small, not a video): FAILED at once, no retry. */
export const rejectionMessage = (err: unknown): string | null =>
  err instanceof VideoRejectedError ? err.userMessage : null;

/** Downloads the tour's source into `workDir`, keeping its extension (the probe reads it as a hint). */
export async function downloadSource(
  services: Services,
  tourId: string,
  videoKey: string | null,
  workDir: string,
): Promise<string> {
  if (!videoKey) throw new Error(`tour ${tourId} has no source video`);
  const input = path.join(workDir, `source${path.extname(videoKey) || '.mp4'}`);
  await services.storage.download(videoKey, input);
  return input;
}

/** Progress bands of processing's stages, in percent of the tour's bar. */
export const BAND = { download: [0, 5], process: [5, 90], store: [90, 99] } as const;

export const band = (b: readonly [number, number], fraction: number) =>
  b[0] + (b[1] - b[0]) * Math.min(1, Math.max(0, fraction));

/**
 * Processing's progress through the one reporter (jobs/progress-reporter.ts): only the attempt that owns the tour
 * writes, the tour's percent never goes down in its row, and every write is published on tourProgressUpdated.
 * `percentOf` turns the caller's measure (the whole video's percent, a segment's fraction) into the tour's percent.
 */
export function tourProgressReporter(
  services: Services,
  tour: { tourId: string; attempt: number },
  percentOf: (value: number) => number | Promise<number>,
) {
  return progressReporter(services, {
    percentOf,
    logContext: { tourId: tour.tourId },
    async write(percent, text) {
      const res = await services.db
        .updateTable('tours')
        .set({ progress: percent, progress_text: text, updated_at: new Date() })
        .where('id', '=', tour.tourId)
        .where('processing_attempt', '=', tour.attempt)
        .where('status', '=', TOUR_STATUS.PROCESSING)
        .where('progress', '<=', percent)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await services.events.publish(topics.tourProgress(tour.tourId), {
        progress: percent,
        status: TOUR_STATUS.PROCESSING,
        text,
        thumbnailURL: null,
      } satisfies TourProgressEvent);
      return true;
    },
  });
}

/** A clip as stored: its place in the tour, its two files and their sizes. */
export interface StoredClip {
  index: number;
  frameCount: number;
  duration: number;
  highKey: string;
  lowKey: string;
  highSize: number;
  lowSize: number;
  blurredFrames: number;
}

/**
 * Stores an attempt's clips under its folder (`prefix`), in tour order: clip i of a piece starting at tour clip
 * `offset` is the tour's clip offset + i, so a retry of the same piece overwrites the same keys.
 */
export async function storeClips(
  services: Services,
  prefix: string,
  clips: readonly ProcessedClip[],
  o: { offset?: number; onStored?: (done: number, total: number) => void } = {},
): Promise<StoredClip[]> {
  const stored: StoredClip[] = [];
  const sorted = [...clips].sort((a, b) => a.index - b.index);
  for (const [i, clip] of sorted.entries()) {
    const index = (o.offset ?? 0) + clip.index;
    const name = String(index).padStart(4, '0');
    const highKey = `${prefix}clips/${name}-high.mp4`;
    const lowKey = `${prefix}clips/${name}-low.mp4`;
    const highSize = (await services.storage.putFile(highKey, clip.highPath, 'video/mp4')).size;
    const lowSize = (await services.storage.putFile(lowKey, clip.lowPath, 'video/mp4')).size;
    stored.push({
      index,
      frameCount: clip.frameCount,
      duration: clip.duration,
      highKey,
      lowKey,
      highSize,
      lowSize,
      blurredFrames: clip.changedFrames ?? 0,
    });
    o.onStored?.(i + 1, sorted.length);
  }
  return stored;
}

/** Stores the attempt's thumbnail. */
export async function storeThumbnail(
  services: Services,
  prefix: string,
  file: string,
): Promise<{ key: string; size: number }> {
  const key = `${prefix}thumbnail.jpg`;
  return { key, size: (await services.storage.putFile(key, file, 'image/jpeg')).size };
}
