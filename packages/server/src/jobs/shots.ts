/**
 * Professional photos: generateTourShots (pick the best frames per room from the uploaded source video at full
 * resolution), regenerateShot (Enhance) and generateStagedShot (virtual staging through the AI image service).
 * All three run as pg-boss jobs; the mutations check the tours §4 availability rules and mark shots PROCESSING.
 * A new generation replaces the tour's earlier shots (their files are removed after the new set is stored).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { sql } from 'kysely';
import { CLIP_FRAMES } from '../media/encoding.js';
import { DEFAULT_STAGING_PROMPT, ERROR_CODES, ERROR_TEXTS, SHOT_STATUS, TOUR_STATUS } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';
import type { Services } from '../services/services.js';
import { aiDb, type ShotRow } from '../services/ai/tables.js';
import { analyseRooms } from '../services/ai/rooms.js';
import { extractStill, sampleFrames } from '../services/ai/ffmpeg.js';
import { scoreFrame } from '../services/shots/score-frame.js';
import { enhanceImage } from '../services/shots/enhance.js';
import { blurShotFaces } from '../services/shots/blur.js';
import { AI_NOT_CONFIGURED_TEXT, callInpainting } from '../services/ai/ai-worker.js';

export const SHOTS_QUEUE = 'shots';
export const SHOTS_PER_ROOM = 2;
export const SHOTS_MAX = 12;
export const SCORE_SIZE = { width: 320, height: 180 } as const;
export const SHOT_BUSY_TEXT = 'This photo is still processing.';
export const ENHANCE_UNAVAILABLE_TEXT = 'This photo is already enhanced.';
export const STAGE_UNAVAILABLE_TEXT = 'Enhance the photo first; a staged photo cannot be staged again.';
export const SHOT_FAILED_TEXT = 'Could not process this photo. Please try again.';

export type ShotsJob = { kind: 'generate'; tourId: string } | { kind: 'enhance'; shotId: string } | { kind: 'stage'; shotId: string; prompt: string };

const generateKey = (tourId: string) => `shots-generate-${tourId}`;

/**
 * Whether a photo generation of the tour is queued or running: its pg-boss job (one per tour, by singleton key) is not
 * yet completed, failed, expired or cancelled. The console keeps refreshing while it is (tours §4).
 */
export async function shotsGenerating(services: Services, tourId: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`select 1 as one from pgboss.job where name = ${SHOTS_QUEUE} and singleton_key = ${generateKey(tourId)} and state in ('created', 'retry', 'active') limit 1`.execute(services.db);
  return rows.length > 0;
}

/** Refuses a tour that is not processed, then queues one generation per tour at a time. */
export async function startShots(services: Services, tourId: string): Promise<void> {
  const tour = await services.db.selectFrom('tours').select(['status', 'video_key']).where('id', '=', tourId).where('deleted_at', 'is', null).executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  if (tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key) throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, ERROR_TEXTS.shotsNotReady);
  await services.queue.send(SHOTS_QUEUE, { kind: 'generate', tourId } satisfies ShotsJob, { singletonKey: generateKey(tourId), retryLimit: 1, expireInSeconds: 30 * 60 });
}

/** Marks a shot PROCESSING for an enhance or a staging, enforcing the availability rules of tours §4. */
export async function startShotWork(services: Services, shotId: string, kind: 'enhance' | 'stage', prompt = DEFAULT_STAGING_PROMPT): Promise<ShotRow> {
  const db = aiDb(services.db);
  if (kind === 'stage' && !services.config.AI_WORKER_URL) {
    // Still recorded on the shot, so the card shows why.
    const row = await db.updateTable('shots').set({ status: SHOT_STATUS.FAILED, error_message: AI_NOT_CONFIGURED_TEXT, updated_at: new Date() })
      .where('id', '=', shotId).where('status', '!=', SHOT_STATUS.PROCESSING).where('enhanced_key', 'is not', null).where('staged_key', 'is', null).returningAll().executeTakeFirst();
    if (row) return row;
  }
  const row = await db.transaction().execute(async (trx) => {
    const shot = await trx.selectFrom('shots').selectAll().where('id', '=', shotId).forUpdate().executeTakeFirst();
    if (!shot) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
    if (shot.status === SHOT_STATUS.PROCESSING) throw new AppError(ERROR_CODES.CONFLICT, SHOT_BUSY_TEXT);
    // Enhance: when there is no enhanced image (or the last try failed: re-enhance). Stage: enhanced, not yet staged.
    if (kind === 'enhance' && shot.enhanced_key && shot.status !== SHOT_STATUS.FAILED) throw new AppError(ERROR_CODES.CONFLICT, ENHANCE_UNAVAILABLE_TEXT);
    if (kind === 'stage' && (!shot.enhanced_key || shot.staged_key)) throw new AppError(ERROR_CODES.CONFLICT, STAGE_UNAVAILABLE_TEXT);
    return trx.updateTable('shots').set({ status: SHOT_STATUS.PROCESSING, error_message: null, ...(kind === 'stage' ? { staging_prompt: prompt } : {}), updated_at: new Date() })
      .where('id', '=', shotId).returningAll().executeTakeFirstOrThrow();
  });
  await services.queue.send(SHOTS_QUEUE, (kind === 'enhance' ? { kind, shotId } : { kind, shotId, prompt }) satisfies ShotsJob, { retryLimit: 1, expireInSeconds: 10 * 60 });
  return row;
}

const shotPrefix = (tourId: string, shotId: string) => `tours/${tourId}/shots/${shotId}/`;

export async function generateShotsJob(services: Services, tourId: string, deps: { analyse?: typeof analyseRooms } = {}): Promise<void> {
  const db = aiDb(services.db);
  const tour = await db.selectFrom('tours').select(['video_key', 'fps', 'status', 'deleted_at']).where('id', '=', tourId).executeTakeFirst();
  if (!tour || tour.deleted_at || tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key) return;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-shots-'));
  const stored: string[] = [];
  try {
    const source = path.join(work, `source${path.extname(tour.video_key) || '.mp4'}`);
    await services.storage.download(tour.video_key, source);
    const rooms = await (deps.analyse ?? analyseRooms)(source, { framesPerRoom: 1 });
    const frames = await sampleFrames(source, { fps: 2, ...SCORE_SIZE });
    const fps = tour.fps ?? 15;
    const picks: Array<{ t: number; score: number; room: string }> = [];
    for (const room of rooms) {
      const margin = Math.min(0.5, (room.end - room.start) / 4);
      const scored = frames.filter((f) => f.t >= room.start + margin && f.t <= room.end - margin)
        .map((f) => ({ t: f.t, score: scoreFrame(f.data, SCORE_SIZE.width, SCORE_SIZE.height).score }))
        .sort((a, b) => b.score - a.score);
      const chosen: typeof scored = [];
      for (const s of scored) {
        if (chosen.length >= SHOTS_PER_ROOM) break;
        if (chosen.every((c) => Math.abs(c.t - s.t) >= 1)) chosen.push(s);
      }
      picks.push(...chosen.map((c) => ({ ...c, room: room.name })));
    }
    const best = picks.sort((a, b) => b.score - a.score).slice(0, SHOTS_MAX).sort((a, b) => a.t - b.t);
    const rows: Array<{ id: string; key: string; pick: (typeof best)[number] }> = [];
    for (const pick of best) {
      const { randomUUID } = await import('node:crypto');
      const id = randomUUID();
      const file = path.join(work, `${id}.jpg`);
      await extractStill(source, pick.t, file);
      await fs.writeFile(file, await blurShotFaces(services, tourId, await fs.readFile(file)));
      const key = `${shotPrefix(tourId, id)}original.jpg`;
      await services.storage.putFile(key, file, 'image/jpeg');
      stored.push(key);
      rows.push({ id, key, pick });
    }
    const old = await db.transaction().execute(async (trx) => {
      const t = await trx.selectFrom('tours').select(['deleted_at']).where('id', '=', tourId).forUpdate().executeTakeFirst();
      if (!t || t.deleted_at) return null;
      const earlier = await trx.selectFrom('shots').select(['id']).where('tour_id', '=', tourId).execute();
      await trx.deleteFrom('shots').where('tour_id', '=', tourId).execute();
      if (rows.length) {
        await trx.insertInto('shots').values(rows.map(({ id, key, pick }) => {
          const frameIndex = Math.round(pick.t * fps);
          return {
            id, tour_id: tourId, status: SHOT_STATUS.COMPLETED, room_type: pick.room, frame_score: pick.score,
            source_clip_index: Math.floor(frameIndex / CLIP_FRAMES), source_frame_position: frameIndex % CLIP_FRAMES, original_key: key,
          };
        })).execute();
      }
      return earlier;
    });
    if (old === null) {
      for (const k of stored) await services.storage.delete(k);
      return;
    }
    for (const s of old) await services.storage.deletePrefix(shotPrefix(tourId, s.id));
  } catch (err) {
    for (const k of stored) await services.storage.delete(k).catch(() => undefined);
    services.log.warn({ err, tourId }, 'photo generation failed');
    throw err;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function readObject(services: Services, key: string): Promise<Buffer> {
  const obj = await services.storage.get(key);
  if (!obj) throw new Error(`missing ${key}`);
  const parts: Buffer[] = [];
  for await (const c of obj.stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Labels a staged picture in its corner, so it is never taken for a photograph of the real room. */
export async function labelVirtuallyStaged(image: Buffer): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 1280;
  const h = meta.height ?? 720;
  const fs2 = Math.max(14, Math.round(w / 40));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect x="${fs2}" y="${h - fs2 * 2.6}" width="${fs2 * 10.5}" height="${fs2 * 1.8}" rx="${fs2 / 3}" fill="black" fill-opacity="0.55"/><text x="${fs2 * 1.5}" y="${h - fs2 * 1.25}" font-family="DejaVu Sans, sans-serif" font-size="${fs2}" fill="white">Virtually staged</text></svg>`;
  return sharp(image).composite([{ input: Buffer.from(svg), top: 0, left: 0 }]).jpeg({ quality: 92 }).toBuffer();
}

export async function shotWorkJob(services: Services, job: Extract<ShotsJob, { shotId: string }>): Promise<void> {
  const db = aiDb(services.db);
  const shot = await db.selectFrom('shots').selectAll().where('id', '=', job.shotId).executeTakeFirst();
  if (!shot || shot.status !== SHOT_STATUS.PROCESSING) return;
  const n = Date.now().toString(36);
  const key = `${shotPrefix(shot.tour_id, shot.id)}${job.kind === 'enhance' ? `enhanced-${n}` : `virtually-staged-${n}`}.jpg`;
  try {
    if (job.kind === 'enhance') {
      if (!shot.original_key) throw new Error('no original image');
      const { image } = await enhanceImage(await blurShotFaces(services, shot.tour_id, await readObject(services, shot.original_key)));
      await services.storage.put(key, image, 'image/jpeg');
      await db.updateTable('shots').set({ status: SHOT_STATUS.COMPLETED, enhanced_key: key, error_message: null, updated_at: new Date() }).where('id', '=', shot.id).execute();
      if (shot.enhanced_key) await services.storage.delete(shot.enhanced_key);
    } else {
      if (!shot.enhanced_key) throw new Error('no enhanced image');
      const input = await readObject(services, shot.enhanced_key);
      const meta = await sharp(input).metadata();
      const { body } = await callInpainting(services.config.AI_WORKER_URL, { image: input, prompt: job.prompt, width: meta.width ?? 0, height: meta.height ?? 0 });
      const staged = await labelVirtuallyStaged(await blurShotFaces(services, shot.tour_id, body));
      await services.storage.put(key, staged, 'image/jpeg');
      await db.updateTable('shots').set({ status: SHOT_STATUS.COMPLETED, staged_key: key, error_message: null, updated_at: new Date() }).where('id', '=', shot.id).execute();
    }
  } catch (err) {
    services.log.warn({ err, shotId: shot.id }, `shot ${job.kind} failed`);
    await services.storage.delete(key).catch(() => undefined);
    const message = err instanceof AppError ? err.message : job.kind === 'stage' && /AI service/.test(String((err as Error)?.message)) ? `Staging failed: ${(err as Error).message}` : SHOT_FAILED_TEXT;
    await db.updateTable('shots').set({ status: SHOT_STATUS.FAILED, error_message: message, updated_at: new Date() }).where('id', '=', shot.id).execute();
  }
}

export async function registerShotsWorker(services: Services): Promise<void> {
  await services.queue.work<ShotsJob>(SHOTS_QUEUE, (job) => (job.data.kind === 'generate' ? generateShotsJob(services, job.data.tourId) : shotWorkJob(services, job.data)));
}
