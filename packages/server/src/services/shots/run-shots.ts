/**
 * Professional photos: generateTourShots (pick the best frames per room from the uploaded source video at full
 * resolution), regenerateShot (Enhance) and generateStagedShot (virtual staging through the AI image service).
 * All three run as pg-boss jobs; the mutations mark shots PROCESSING after checking what is available: Enhance
 * while a shot has no enhanced image, Stage only once it has one and no staged image, neither while PROCESSING.
 * A new generation replaces the tour's earlier shots (their files are removed after the new set is stored).
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { CLIP_FRAMES } from '../../media/encoding.js';
import { SHOT_STATUS, TOUR_STATUS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import { encodeId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { analyseRooms } from '../ai/rooms.js';
import { extractStill, sampleFrames } from '../ai/ffmpeg.js';
import { scoreFrame } from './score-frame.js';
import { enhanceImage } from './enhance.js';
import { blurShotFaces } from './blur.js';
import { callInpainting } from '../ai/ai-worker.js';
import type { ShotsJob } from '../../jobs/shots-job.js';
import { attachPhotoSourceJob } from './attach-photo-source.js';
import { photoSourceOf } from '../photo-source.js';
import { tourScopedWebhook } from '../developer/webhook-payloads.js';

const SHOTS_PER_ROOM = 2;
const SHOTS_MAX = 12;
const SCORE_SIZE = { width: 320, height: 180 } as const;
const SHOT_FAILED_TEXT = 'Could not process this photo. Please try again.';

const shotPrefix = (tourId: string, shotId: string) => `tours/${tourId}/shots/${shotId}/`;

type Pick = { t: number; score: number; room: string };
type StoredShot = { id: string; key: string; pick: Pick };

export async function generateShotsJob(
  services: Services,
  tourId: string,
  deps: { analyse?: typeof analyseRooms } = {},
): Promise<void> {
  const tour = await services.db
    .selectFrom('tours')
    .select(['video_key', 'fps', 'status', 'deleted_at'])
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (!tour || tour.deleted_at || tour.status !== TOUR_STATUS.PROCESSED || !tour.video_key) return;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-shots-'));
  const stored: string[] = [];
  try {
    const source = path.join(work, `source${path.extname(tour.video_key) || '.mp4'}`);
    await services.storage.download(tour.video_key, source);
    // Where the tour was made from a device-converted mezzanine and its original followed, the stills come from the
    // original at full resolution; rooms and scores are read from the lighter mezzanine (the same timeline).
    const original = await photoSourceOf(services, tourId);
    const stillsFrom = original ? path.join(work, 'photo-source') : source;
    if (original) await services.storage.download(original, stillsFrom);
    const rooms = await (deps.analyse ?? analyseRooms)(source, { framesPerRoom: 1 });
    const frames = await sampleFrames(source, { fps: 2, ...SCORE_SIZE });
    const best = bestStills(rooms, frames);
    const rows = await storeStills(services, tourId, stillsFrom, best, work, stored);
    const old = await replaceShots(services, tourId, rows, tour.fps ?? 15);
    if (old === null) {
      for (const k of stored) await services.storage.delete(k);
      return;
    }
    for (const s of old) await services.storage.deletePrefix(shotPrefix(tourId, s.id));
    await tourScopedWebhook(services, 'shots.completed', tourId, {
      shots: rows.map(({ id, pick }) => ({ id: encodeId('Shot', id), roomType: pick.room, score: pick.score })),
    });
  } catch (err) {
    for (const k of stored) await services.storage.delete(k).catch(() => undefined);
    services.log.warn({ err, tourId }, 'photo generation failed');
    throw err;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/**
 * The stills to take (pure): in each room, away from its edges, the best-scored sampled frames at least a second
 * apart (SHOTS_PER_ROOM at most); then the best SHOTS_MAX of all, in the tour's order.
 */
function bestStills(
  rooms: Array<{ name: string; start: number; end: number }>,
  frames: Array<{ t: number; data: Uint8Array | Buffer }>,
): Pick[] {
  const picks: Pick[] = [];
  for (const room of rooms) {
    const margin = Math.min(0.5, (room.end - room.start) / 4);
    const scored = frames
      .filter((f) => f.t >= room.start + margin && f.t <= room.end - margin)
      .map((f) => ({ t: f.t, score: scoreFrame(f.data, SCORE_SIZE.width, SCORE_SIZE.height).score }))
      .sort((a, b) => b.score - a.score);
    const chosen: typeof scored = [];
    for (const s of scored) {
      if (chosen.length >= SHOTS_PER_ROOM) break;
      if (chosen.every((c) => Math.abs(c.t - s.t) >= 1)) chosen.push(s);
    }
    picks.push(...chosen.map((c) => ({ ...c, room: room.name })));
  }
  return picks
    .sort((a, b) => b.score - a.score)
    .slice(0, SHOTS_MAX)
    .sort((a, b) => a.t - b.t);
}

/** Each still taken at full resolution, its faces blurred, stored (its key pushed to `stored` for cleanup). */
async function storeStills(
  services: Services,
  tourId: string,
  stillsFrom: string,
  best: Pick[],
  work: string,
  stored: string[],
): Promise<StoredShot[]> {
  const rows: StoredShot[] = [];
  for (const pick of best) {
    const { randomUUID } = await import('node:crypto');
    const id = randomUUID();
    const file = path.join(work, `${id}.jpg`);
    await extractStill(stillsFrom, pick.t, file);
    await fs.writeFile(file, await blurShotFaces(services, tourId, await fs.readFile(file)));
    const key = `${shotPrefix(tourId, id)}original.jpg`;
    await services.storage.putFile(key, file, 'image/jpeg');
    stored.push(key);
    rows.push({ id, key, pick });
  }
  return rows;
}

/** The new shots replace the tour's earlier ones (returned, for their files); null when the tour went meanwhile. */
function replaceShots(services: Services, tourId: string, rows: StoredShot[], fps: number) {
  return services.db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom('tours')
      .select(['deleted_at'])
      .where('id', '=', tourId)
      .forUpdate()
      .executeTakeFirst();
    if (!t || t.deleted_at) return null;
    const earlier = await trx.selectFrom('shots').select(['id']).where('tour_id', '=', tourId).execute();
    await trx.deleteFrom('shots').where('tour_id', '=', tourId).execute();
    if (rows.length) {
      await trx
        .insertInto('shots')
        .values(
          rows.map(({ id, key, pick }) => {
            const frameIndex = Math.round(pick.t * fps);
            return {
              id,
              tour_id: tourId,
              status: SHOT_STATUS.COMPLETED,
              room_type: pick.room,
              frame_score: pick.score,
              source_clip_index: Math.floor(frameIndex / CLIP_FRAMES),
              source_frame_position: frameIndex % CLIP_FRAMES,
              original_key: key,
            };
          }),
        )
        .execute();
    }
    return earlier;
  });
}

async function readObject(services: Services, key: string): Promise<Buffer> {
  const obj = await services.storage.get(key);
  if (!obj) throw new Error(`missing ${key}`);
  const parts: Buffer[] = [];
  for await (const c of obj.stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Labels a staged picture in its corner, so it is never taken for a photograph of the real room. */
async function labelVirtuallyStaged(image: Buffer): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 1280;
  const h = meta.height ?? 720;
  const fs2 = Math.max(14, Math.round(w / 40));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect x="${fs2}" y="${h - fs2 * 2.6}" width="${fs2 * 10.5}" height="${fs2 * 1.8}" rx="${fs2 / 3}" fill="black" fill-opacity="0.55"/><text x="${fs2 * 1.5}" y="${h - fs2 * 1.25}" font-family="DejaVu Sans, sans-serif" font-size="${fs2}" fill="white">Virtually staged</text></svg>`;
  return sharp(image)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

export async function shotWorkJob(services: Services, job: Exclude<ShotsJob, { kind: 'generate' }>): Promise<void> {
  if (job.kind === 'photo-source') return attachPhotoSourceJob(services, job);
  const db = services.db;
  const shot = await db.selectFrom('shots').selectAll().where('id', '=', job.shotId).executeTakeFirst();
  if (!shot || shot.status !== SHOT_STATUS.PROCESSING) return;
  const n = Date.now().toString(36);
  const key = `${shotPrefix(shot.tour_id, shot.id)}${job.kind === 'enhance' ? `enhanced-${n}` : `virtually-staged-${n}`}.jpg`;
  try {
    if (job.kind === 'enhance') {
      if (!shot.original_key) throw new Error('no original image');
      const { image } = await enhanceImage(
        await blurShotFaces(services, shot.tour_id, await readObject(services, shot.original_key)),
      );
      await services.storage.put(key, image, 'image/jpeg');
      await db
        .updateTable('shots')
        .set({ status: SHOT_STATUS.COMPLETED, enhanced_key: key, error_message: null, updated_at: new Date() })
        .where('id', '=', shot.id)
        .execute();
      if (shot.enhanced_key) await services.storage.delete(shot.enhanced_key);
    } else {
      if (!shot.enhanced_key) throw new Error('no enhanced image');
      const input = await readObject(services, shot.enhanced_key);
      const meta = await sharp(input).metadata();
      const { body } = await callInpainting(services.config.AI_WORKER_URL, {
        image: input,
        prompt: job.prompt,
        width: meta.width ?? 0,
        height: meta.height ?? 0,
      });
      const staged = await labelVirtuallyStaged(await blurShotFaces(services, shot.tour_id, body));
      await services.storage.put(key, staged, 'image/jpeg');
      await db
        .updateTable('shots')
        .set({ status: SHOT_STATUS.COMPLETED, staged_key: key, error_message: null, updated_at: new Date() })
        .where('id', '=', shot.id)
        .execute();
    }
  } catch (err) {
    services.log.warn({ err, shotId: shot.id }, `shot ${job.kind} failed`);
    await services.storage.delete(key).catch(() => undefined);
    const message =
      err instanceof AppError
        ? err.message
        : job.kind === 'stage' && /AI service/.test(String((err as Error)?.message))
          ? `Staging failed: ${(err as Error).message}`
          : SHOT_FAILED_TEXT;
    await db
      .updateTable('shots')
      .set({ status: SHOT_STATUS.FAILED, error_message: message, updated_at: new Date() })
      .where('id', '=', shot.id)
      .execute();
  }
}
