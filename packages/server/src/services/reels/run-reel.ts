/**
 * tourGenerateReel: a reel row (PROCESSING) and a job (queue: jobs/reel-job.ts) that renders it
 * (services/reels/render-reel.ts), stores the MP4 and thumbnail under tours/<tourId>/reels/ and publishes progress on
 * reelProgressUpdated.
 *
 * A failure marks the reel FAILED with a reason and removes its files; Retry in the console calls tourGenerateReel
 * again, which creates a new reel (failed reels do not count towards the five). A worker that dies mid-render has
 * its job delivered again by pg-boss after expiry; every attempt writes under its own name and removes it on failure.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { Services } from '../services.js';
import { renderReel, type ReelClips } from './render-reel.js';
import { REEL_STATUS, TOUR_STATUS } from '@roomwalk/shared';
import { REEL_FAILED_TEXT, failReel, publishReelProgress } from './start-reel.js';
import { reelWebhook } from '../developer/webhook-payloads.js';
import { PROGRESS_TEXT } from '../../media/progress-text.js';
import { progressReporter } from '../../jobs/progress-reporter.js';

export interface ReelJobDeps {
  render?: typeof renderReel;
  preset?: string;
}

export async function reelJob(services: Services, reelId: string, deps: ReelJobDeps = {}): Promise<void> {
  const claimed = await claimReel(services, reelId);
  if (!claimed) return;
  const prefix = `tours/${claimed.tour_id}/reels/${reelId}-a${claimed.attempt}`;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-reel-'));
  const progress = reelProgress(services, reelId);
  try {
    const tour = await reelSubject(services, claimed.tour_id);
    if (!tour || tour.deleted_at || !tour.video_key) throw new Error('tour is gone or has no source video');
    await progress.report(0, PROGRESS_TEXT.preparing);
    const fps = tour.fps ?? 15;
    const input = await reelInputs(services, claimed.tour_id, { ...tour, video_key: tour.video_key }, fps, work);
    await progress.report(5, PROGRESS_TEXT.renderingReel);
    const out = await fs.mkdtemp(path.join(work, 'out-'));
    const result = await (deps.render ?? renderReel)({
      source: input.source,
      workDir: out,
      seed: claimed.seed,
      markers: input.markers.map((m) => ({ time: m.frame_index / fps, name: m.name })),
      agent: {
        name: [tour.name, tour.surname].filter(Boolean).join(' ') || null,
        contact: [tour.contact_number, tour.username].filter(Boolean).join('  ·  ') || null,
        company: tour.company,
        logoFile: input.logoFile,
      },
      onProgress: (f) => void progress.report(5 + f * 85, PROGRESS_TEXT.renderingReel),
      preset: deps.preset ?? services.config.REEL_X264_PRESET,
      // Privacy: the owner's per-tour switch, read when the render starts; the clips are blurred already when it is on.
      blurFaces: tour.blur_faces && typeof input.source === 'string',
    });
    await progress.report(92, PROGRESS_TEXT.savingReel);
    if (!(await storeReel(services, reelId, claimed.attempt, prefix, result))) return;
    await reelWebhook(services, reelId, true);
  } catch (err) {
    await progress.flush();
    await endFailed(services, reelId, prefix, err);
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The reel, one attempt more, while it is still PROCESSING (null: deleted, failed or done meanwhile). */
function claimReel(services: Services, reelId: string) {
  return services.db
    .updateTable('reels')
    .set({ attempt: sql`attempt + 1`, updated_at: new Date() })
    .where('id', '=', reelId)
    .where('status', '=', REEL_STATUS.PROCESSING)
    .returningAll()
    .executeTakeFirst();
}

/** The reel's progress: its row and reelProgressUpdated, while the reel is still PROCESSING. */
function reelProgress(services: Services, reelId: string) {
  return progressReporter(services, {
    logContext: { reelId },
    async write(percent, text) {
      const res = await services.db
        .updateTable('reels')
        .set({ progress: percent, progress_text: text, updated_at: new Date() })
        .where('id', '=', reelId)
        .where('status', '=', REEL_STATUS.PROCESSING)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) return false;
      await publishReelProgress(services, reelId, {
        progress: percent,
        status: REEL_STATUS.PROCESSING,
        text,
        thumbnailURL: null,
      });
      return true;
    },
  });
}

/** The tour and what the end card names: its owner, their profile, the company and its logo. */
function reelSubject(services: Services, tourId: string) {
  return services.db
    .selectFrom('tours')
    .innerJoin('users', 'users.id', 'tours.owner_id')
    .innerJoin('companies', 'companies.id', 'tours.company_id')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select([
      'tours.video_key',
      'tours.fps',
      'tours.deleted_at',
      'tours.blur_faces',
      'tours.status',
      'users.username',
      'companies.name as company',
      'companies.logo_key',
      'user_profiles.name',
      'user_profiles.surname',
      'user_profiles.contact_number',
    ])
    .where('tours.id', '=', tourId)
    .executeTakeFirst();
}

/**
 * What the render reads, fetched into `work`: the tour's own clips when they are current (a processed tour: they
 * carry the owner's blur choice), else the upload; the company's logo (none when it cannot be fetched); the markers.
 */
async function reelInputs(
  services: Services,
  tourId: string,
  tour: { status: string; video_key: string; logo_key: string | null },
  fps: number,
  work: string,
) {
  const clips = await tourClips(services, tourId, tour.status, fps, work);
  let source: string | ReelClips;
  if (clips) source = clips;
  else {
    source = path.join(work, `source${path.extname(tour.video_key) || '.mp4'}`);
    await services.storage.download(tour.video_key, source);
  }
  let logoFile: string | null = null;
  if (tour.logo_key) {
    logoFile = path.join(work, 'logo-source');
    await services.storage.download(tour.logo_key, logoFile).catch(() => (logoFile = null));
  }
  const markers = await services.db
    .selectFrom('markers')
    .select(['name', 'frame_index'])
    .where('tour_id', '=', tourId)
    .orderBy('frame_index')
    .execute();
  return { source, logoFile, markers };
}

/**
 * Stores the MP4 and thumbnail and marks the reel CREATED if this attempt still owns it; false (files removed) when it
 * was deleted, failed or superseded meanwhile.
 */
async function storeReel(
  services: Services,
  reelId: string,
  attempt: number,
  prefix: string,
  result: { videoPath: string; thumbnailPath: string },
): Promise<boolean> {
  const videoKey = `${prefix}.mp4`;
  const thumbKey = `${prefix}.jpg`;
  await services.storage.putFile(videoKey, result.videoPath, 'video/mp4');
  await services.storage.putFile(thumbKey, result.thumbnailPath, 'image/jpeg');
  const done = await services.db
    .updateTable('reels')
    .set({
      status: REEL_STATUS.CREATED,
      progress: 100,
      progress_text: null,
      error: null,
      video_key: videoKey,
      thumbnail_key: thumbKey,
      updated_at: new Date(),
    })
    .where('id', '=', reelId)
    .where('status', '=', REEL_STATUS.PROCESSING)
    .where('attempt', '=', attempt)
    .returning('id')
    .executeTakeFirst();
  if (!done) {
    // Deleted, failed or superseded meanwhile: leave nothing behind.
    await services.storage.delete(videoKey);
    await services.storage.delete(thumbKey);
    return false;
  }
  await publishReelProgress(services, reelId, {
    progress: 100,
    status: REEL_STATUS.CREATED,
    text: null,
    thumbnailURL: services.storage.publicUrl(thumbKey),
  });
  return true;
}

/** A failed attempt: its files removed, the reel FAILED with a reason (a missing font says so), the webhook told. */
async function endFailed(services: Services, reelId: string, prefix: string, err: unknown): Promise<void> {
  services.log.warn({ err, reelId }, 'reel render failed');
  await services.storage.delete(`${prefix}.mp4`).catch(() => undefined);
  await services.storage.delete(`${prefix}.jpg`).catch(() => undefined);
  const reason = /font/i.test(String((err as Error)?.message))
    ? `${REEL_FAILED_TEXT}: ${(err as Error).message}`
    : REEL_FAILED_TEXT;
  await failReel(services, reelId, reason);
  await reelWebhook(services, reelId, false, reason);
}

/** The processed tour's high-rendition clips, downloaded on demand into `work`; null when there are none to read. */
async function tourClips(
  services: Services,
  tourId: string,
  status: string,
  fps: number,
  work: string,
): Promise<ReelClips | null> {
  if (status !== TOUR_STATUS.PROCESSED) return null;
  const rows = await services.db
    .selectFrom('clips')
    .select(['index', 'frame_count', 'high_key'])
    .where('tour_id', '=', tourId)
    .orderBy('index')
    .execute();
  if (rows.length === 0 || !(await services.storage.head(rows[0]!.high_key))) return null;
  const fetched = new Map<number, Promise<string>>();
  return {
    fps,
    frameCounts: rows.map((r) => r.frame_count),
    file(index) {
      let file = fetched.get(index);
      if (!file) {
        const local = path.join(work, `clip-${String(index).padStart(5, '0')}.mp4`);
        file = services.storage.download(rows[index]!.high_key, local).then(() => local);
        fetched.set(index, file);
      }
      return file;
    },
  };
}
