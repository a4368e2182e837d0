/**
 * The link preview picture (issue 41): a 1200x630 JPEG made by the share-preview job when a tour is processed and when
 * its cover changes, from the tour's real frame (compared with the poster), with faces blurred (the privacy tests'
 * real face photographs, test/support/faces.ts): BlazeFace finds the face in the poster and none in the preview.
 */
import { execFile } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOUR_STATUS } from '@roomwalk/shared';
import { finishProcessedTour } from '../src/jobs/finish-processed-tour.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { detectFaces } from '../src/media/faces.js';
import { makeSharePreview } from '../src/services/share-preview/preview-image.js';
import { updateThumbnail } from '../src/services/tours.js';
import { seedProcessedTour, waitFor } from './fixtures/tours.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { energy, faceVideo } from './support/faces.js';
import { makeTempDir, removeDir } from './support/media-videos.js';

const run = promisify(execFile);
const FACE = { size: 200, x: 700, y: 220 } as const;

/** Where the face was, with a margin, in the 1200x630 crop (the 1280x720 frame scaled by 1200/1280, 11 rows cut). */
const SCALE = 1200 / 1280;
const faceArea = (margin = 60) => ({
  x: Math.round((FACE.x - margin) * SCALE),
  y: Math.round((FACE.y - margin) * SCALE) - 11,
  w: Math.round((FACE.size + 2 * margin) * SCALE),
  h: Math.round((FACE.size + 2 * margin) * SCALE),
});

/** Packed RGB of an image at 1200x630 (a poster cropped as the preview is). */
const rgb1200 = (image: Buffer) =>
  sharp(image).resize(1200, 630, { fit: 'cover', position: 'centre' }).removeAlpha().raw().toBuffer();

/** Mean absolute difference of two packed RGB 1200-wide pictures, outside `skip` (where a face was blurred). */
function meanDifference(a: Buffer, b: Buffer, skip?: { x: number; y: number; w: number; h: number }): number {
  let sum = 0;
  let n = 0;
  for (let p = 0; p < a.length / 3; p++) {
    const x = p % 1200;
    const y = Math.floor(p / 1200);
    if (skip && x >= skip.x && x < skip.x + skip.w && y >= skip.y && y < skip.y + skip.h) continue;
    for (let c = 0; c < 3; c++) sum += Math.abs(a[p * 3 + c]! - b[p * 3 + c]!);
    n += 3;
  }
  return sum / n;
}

describe('link preview picture', { timeout: 240_000 }, () => {
  let t: TestApp;
  let owner: SeededUser;
  let dir: string;
  /** A real frame of a generated walkthrough (testsrc2 room, a real face in it), as processing keeps its poster. */
  let poster: Buffer;
  /** Another frame of it, a second later (the camera moved). */
  let otherFrame: Buffer;

  const ownerAuth = () => ({
    userId: owner.user.id,
    companyId: owner.company.id,
    roles: [],
    isCompanyAdmin: true,
    isSuperAdmin: false,
  });
  const tourRow = (id: string) =>
    t.app.services.db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const read = async (key: string) => buffer((await t.app.services.storage.get(key))!.stream);

  beforeAll(async () => {
    dir = await makeTempDir('share-preview');
    const source = join(dir, 'walk.mp4');
    await faceVideo(source, {
      width: 1280,
      height: 720,
      fps: 30,
      seconds: 3,
      background: 'testsrc2=size=1280x720:rate=30',
      dir,
      faces: [{ crop: 1, size: FACE.size, x: [String(FACE.x), () => FACE.x], y: [String(FACE.y), () => FACE.y] }],
    });
    const frame = async (at: number, name: string) => {
      const out = join(dir, name);
      await run(ffmpegBinaries().ffmpeg, [
        '-v',
        'error',
        '-y',
        '-ss',
        String(at),
        '-i',
        source,
        '-frames:v',
        '1',
        '-q:v',
        '2',
        out,
      ]);
      return readFile(out);
    };
    poster = await frame(0.5, 'poster.jpg');
    otherFrame = await frame(2.5, 'later.jpg');
    // The worker role runs the share-preview job as in production.
    t = await startTestApp('pglite');
    owner = await seedUser(t.app, { plan: 'pro' });
  }, 240_000);
  afterAll(async () => {
    await t?.stop();
    if (dir) await removeDir(dir);
  });

  it('is made when the tour is processed: 1200x630, the poster frame, the face blurred', async () => {
    const seeded = await seedProcessedTour(t, owner, 1);
    const id = seeded.row.id;
    const { db, storage } = t.app.services;
    await db
      .updateTable('tours')
      .set({ status: TOUR_STATUS.PROCESSING, processing_attempt: 2, thumbnail_key: null })
      .where('id', '=', id)
      .execute();
    const thumb = `tours/${id}/v2/thumbnail.jpg`;
    await storage.put(thumb, poster, 'image/jpeg');
    const clip = {
      index: 0,
      frame_count: 36,
      duration: 2.4,
      high_key: `tours/${id}/v2/h.mp4`,
      low_key: `tours/${id}/v2/l.mp4`,
      blurred_frames: 0,
    };
    const info = { width: 1280, height: 720, fullSize: 1, mediumSize: 1, smallSize: 1 };
    expect(
      await finishProcessedTour(t.app.services, {
        tourId: id,
        attempt: 2,
        clips: [clip],
        videoInfo: info,
        fps: 15,
        thumbnailKey: thumb,
      }),
    ).toBe('processed');
    const key = await waitFor(async () => (await tourRow(id)).share_image_key, 'preview made', 120_000);
    expect(key).toMatch(new RegExp(`^tours/${id}/share/[0-9a-f-]+\\.jpg$`));
    const preview = await read(key);
    const meta = await sharp(preview).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);

    const mine = await sharp(preview).removeAlpha().raw().toBuffer();
    const framed = await rgb1200(poster);
    const later = await rgb1200(otherFrame);
    // The poster's frame: outside the face, nearly equal to it, and much nearer to it than to another frame of the walk.
    const face = faceArea();
    const same = meanDifference(mine, framed, face);
    expect(same).toBeLessThan(3);
    expect(meanDifference(mine, later, face)).toBeGreaterThan(same * 2);
    // The face: found in the poster, not in the preview, its detail gone.
    const small = async (b: Buffer) => sharp(b).resize(640, 336).removeAlpha().raw().toBuffer();
    expect(await detectFaces(await small(poster), 640, 336, 0.5)).toHaveLength(1);
    expect(await detectFaces(await small(preview), 640, 336, 0.5)).toEqual([]);
    const inner = faceArea(-30);
    expect(energy(mine, 1200, inner)).toBeLessThan(energy(framed, 1200, inner) * 0.4);
  });

  it('is made again when the agent changes the cover, and the old one is removed', async () => {
    const seeded = await seedProcessedTour(t, owner, 1);
    const id = seeded.row.id;
    const file = join(dir, 'cover.jpg');
    await sharp(otherFrame).toFile(file);
    await updateThumbnail(t.app.services, ownerAuth(), {
      id: seeded.id,
      thumbnailURL: Promise.resolve({
        filename: 'cover.jpg',
        mimetype: 'image/jpeg',
        createReadStream: () => createReadStream(file),
      }),
    });
    const first = await waitFor(async () => (await tourRow(id)).share_image_key, 'preview of the cover', 120_000);
    const cover = (await tourRow(id)).thumbnail_key!;
    const mine = await sharp(await read(first))
      .removeAlpha()
      .raw()
      .toBuffer();
    expect(meanDifference(mine, await rgb1200(await read(cover)), faceArea())).toBeLessThan(3);

    await sharp(poster).toFile(file);
    await updateThumbnail(t.app.services, ownerAuth(), {
      id: seeded.id,
      thumbnailURL: Promise.resolve({
        filename: 'cover.jpg',
        mimetype: 'image/jpeg',
        createReadStream: () => createReadStream(file),
      }),
    });
    const second = await waitFor(
      async () => {
        const k = (await tourRow(id)).share_image_key;
        return k !== first && k;
      },
      'preview of the new cover',
      120_000,
    );
    // The job names the new picture, then removes the old one: wait for that end of the job, not its middle.
    await waitFor(async () => (await t.app.services.storage.head(first)) === null, 'the old preview removed', 15_000);
    const again = await read(second);
    expect(
      await detectFaces(await sharp(again).resize(640, 336).removeAlpha().raw().toBuffer(), 640, 336, 0.5),
    ).toEqual([]);
  });

  it('two makings at once leave one picture, the one named', async () => {
    const seeded = await seedProcessedTour(t, owner, 1);
    const id = seeded.row.id;
    const { db, storage } = t.app.services;
    const thumb = `tours/${id}/v1/thumbnail.jpg`;
    await storage.put(thumb, poster, 'image/jpeg');
    await db.updateTable('tours').set({ thumbnail_key: thumb }).where('id', '=', id).execute();
    // Both read the tour before either names its picture (a job retried while the first still ran).
    const made = await Promise.all([makeSharePreview(t.app.services, id), makeSharePreview(t.app.services, id)]);
    const named = (await tourRow(id)).share_image_key;
    expect(made).toContain(named);
    const root = (storage as unknown as { opts: { root: string } }).opts.root;
    const pictures = (await readdir(join(root, 'tours', id, 'share'))).filter((f) => f.endsWith('.jpg'));
    expect(pictures).toEqual([named!.split('/').pop()]);
  });
});
