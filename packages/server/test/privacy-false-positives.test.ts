/**
 * Privacy blur: no blur on face-free footage, no box larger than a plausible face, the thumbnail
 * from a frame without blur, and the owner's view of blurred clips and switch (which reprocesses the tour).
 *
 * Face-free footage: test/support/face-free.ts (lavfi test patterns and textures, generated rooms, a face-free photo
 * that
 * @fastify/static ships), 2 s of each here; `npm run bench:privacy` measures 8 s of each with the recall on faces.
 */
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blurStats, faceFreeFrames, faceFreeSources } from './support/face-free.js';
import { DETECT_EVERY, FacePlan, growBox } from '../src/media/face-plan.js';
import { MAX_BOX_SHARE, MAX_FACE_SHARE, plausibleFace, type Rect } from '../src/media/face-detect.js';
import type { FrameFilterFactory } from '../src/media/frame-pipe.js';
import { processVideo } from '../src/media/process-video.js';
import { generateVideo, makeTempDir, removeDir } from './support/media-videos.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';

describe('face-free footage gets no blur', { timeout: 300_000 }, () => {
  it('≤ 1 % of frames with any box over test patterns, textures, rooms and a photo; no box larger than MAX_BOX_SHARE', async () => {
    let frames = 0;
    let blurred = 0;
    const per: string[] = [];
    for (const src of faceFreeSources()) {
      const st = await blurStats(await faceFreeFrames(src, 2));
      frames += st.frames;
      blurred += st.blurredFrames;
      if (st.blurredFrames)
        per.push(`${src.name}: ${st.blurredFrames}/${st.frames}, largest ${(st.largestBoxShare ?? 0).toFixed(3)}`);
      // A drawn box is at most MAX_BOX_SHARE of the short side on each side.
      expect(st.largestBoxShare ?? 0, src.name).toBeLessThanOrEqual((MAX_BOX_SHARE * 720) ** 2 / (1280 * 720));
    }
    expect(frames).toBeGreaterThan(300);
    expect(blurred / frames, per.join('; ')).toBeLessThanOrEqual(0.01);
  });
});

describe('plausible faces and box bounds', () => {
  const face = (x: number, size = 60, score?: number): Rect => ({
    x,
    y: 100,
    width: size,
    height: size,
    ...(score === undefined ? {} : { score }),
  });
  const keypoints = (x: number, y: number, s: number): Array<[number, number]> => [
    [x + 0.3 * s, y + 0.35 * s],
    [x + 0.72 * s, y + 0.35 * s],
    [x + 0.5 * s, y + 0.58 * s],
    [x + 0.5 * s, y + 0.78 * s],
    [x + 0.05 * s, y + 0.4 * s],
    [x + 0.95 * s, y + 0.4 * s],
  ];

  it('a detection larger than a plausible face, stretched, or with its features out of place is not a face', () => {
    const ok = { x: 100, y: 50, width: 60, height: 60, score: 0.9, keypoints: keypoints(100, 50, 60) };
    expect(plausibleFace(ok, 640, 360)).toBe(true);
    const big = 360 * MAX_FACE_SHARE + 10;
    expect(plausibleFace({ ...ok, width: big, height: big, keypoints: keypoints(100, 50, big) }, 640, 360)).toBe(false);
    expect(plausibleFace({ ...ok, width: 100, height: 50 }, 640, 360)).toBe(false);
    // Eyes almost on top of each other (a fractal's spiral), mouth above the eyes.
    const squeezed = keypoints(100, 50, 60);
    squeezed[1] = [squeezed[0]![0] + 3, squeezed[0]![1]];
    expect(plausibleFace({ ...ok, keypoints: squeezed }, 640, 360)).toBe(false);
    const upsideDown = keypoints(100, 50, 60);
    upsideDown[3] = [130, 40];
    expect(plausibleFace({ ...ok, keypoints: upsideDown }, 640, 360)).toBe(false);
  });

  it('a grown box never exceeds MAX_BOX_SHARE of the short side, even far from its detection', () => {
    const r = growBox({ x: 400, y: 200, width: 200, height: 200 }, 1, 12, 1280, 720, 0.35);
    expect(r.width).toBeLessThanOrEqual(Math.ceil(MAX_BOX_SHARE * 720) + 2);
    expect(r.height).toBeLessThanOrEqual(Math.ceil(MAX_BOX_SHARE * 720) + 2);
    // Still covers the face.
    expect(r.x).toBeLessThanOrEqual(400);
    expect(r.x + r.width).toBeGreaterThanOrEqual(600);
  });

  it('a low-score face seen at one sample only is not blurred; seen at two, or scored high, it is', () => {
    const N = DETECT_EVERY;
    const lone = new FacePlan(N, 1280, 720);
    lone.add(0, []);
    lone.add(N, [face(300, 60, 0.6)]);
    lone.add(2 * N, []);
    lone.add(3 * N, []);
    lone.end();
    for (let f = 0; f < 3 * N; f++) expect(lone.boxes(f), `frame ${f}`).toEqual([]);

    const twice = new FacePlan(N, 1280, 720);
    twice.add(0, []);
    twice.add(N, [face(300, 60, 0.6)]);
    twice.add(2 * N, [face(306, 60, 0.6)]);
    twice.add(3 * N, []);
    twice.end();
    expect(twice.boxes(N).length).toBe(1);
    expect(twice.boxes(2 * N).length).toBe(1);

    // A face arriving (its first box larger, so matched only loosely) counts through the confirmed face it becomes.
    const arriving = new FacePlan(N, 1280, 720);
    arriving.add(0, []);
    arriving.add(N, [face(300, 100, 0.6)]);
    arriving.add(2 * N, [face(310, 60, 0.6)]);
    arriving.add(3 * N, [face(312, 60, 0.6)]);
    arriving.add(4 * N, []);
    arriving.end();
    expect(arriving.boxes(N).length).toBe(1);

    const sure = new FacePlan(N, 1280, 720);
    sure.add(0, []);
    sure.add(N, [face(300, 60, 0.95)]);
    sure.add(2 * N, []);
    sure.end();
    expect(sure.boxes(N).length).toBe(1);
  });

  it('frame f is final only once the sample three steps ahead is known (its faces confirmed or not)', () => {
    const N = DETECT_EVERY;
    const p = new FacePlan(N, 1280, 720);
    p.add(0, []);
    p.add(N, []);
    p.add(2 * N, [face(500, 60, 0.6)]);
    expect(p.ready(0)).toBe(false);
    p.add(3 * N, [face(505, 60, 0.6)]);
    expect(p.ready(0)).toBe(true);
    expect(p.boxes(1).length).toBe(1);
  });
});

describe('thumbnail and per-clip figures with a frame filter', { timeout: 240_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('privacy-thumb');
  });
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  it('the thumbnail comes from the nearest frame the filter left alone; clips report their changed frames', async () => {
    const source = await generateVideo(join(dir, 'source.mp4'), { width: 1280, height: 720, seconds: 10.2, fps: 15 });
    // A stand-in for the blur: frames 0–29 (2 s, THUMBNAIL_FRAME among them) are painted white and reported changed.
    const paint: FrameFilterFactory = ({ width, height }) => {
      const changed = new Set<number>();
      return Object.assign(
        async function* (frames: AsyncIterable<Buffer>) {
          let n = 0;
          for await (const f of frames) {
            if (n < 30) {
              f.fill(235, 0, width * height);
              f.fill(128, width * height);
              changed.add(n);
            }
            n++;
            yield f;
          }
        },
        { changed },
      );
    };
    const r = await processVideo({ input: source, workDir: join(dir, 'out'), frameFilter: paint });
    expect(r.clips.map((c) => c.changedFrames)).toEqual([30, 0, 0, 0, 0]);
    const { data } = await sharp(await readFile(r.thumbnailPath))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mean = data.reduce((s, v) => s + v, 0) / data.length;
    // testsrc2, not the white frame.
    expect(mean).toBeLessThan(200);
  });
});

describe('owner: which clips were blurred, and the switch reprocesses the tour', () => {
  let t: TestApp;
  let owner: SeededUser;
  let other: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro' });
    other = await seedUser(t.app, { plan: 'pro' });
  }, 300_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('Tour.blurredClips lists the clips with blurred frames to the owner only; turning blurring off requeues processing', async () => {
    const tour = await seedProcessedTour(t, owner, 3);
    const { db } = t.app.services;
    await db
      .updateTable('clips')
      .set({ blurred_frames: 12 })
      .where('tour_id', '=', tour.row.id)
      .where('index', '=', 1)
      .execute();
    await db
      .updateTable('tours')
      .set({ video_key: `uploads/${tour.row.id}.mp4` })
      .where('id', '=', tour.row.id)
      .execute();
    const q = `query($id: ID!) { tour(tourID: $id) { id status { status } blurFaces blurredClips } }`;
    const mine = await t.gql(q, { id: tour.id }, owner.token);
    expect(mine.errors).toBeUndefined();
    expect(mine.data.tour.blurredClips).toEqual([1]);
    const theirs = await t.gql(q, { id: tour.id }, other.token);
    expect(theirs.data?.tour?.blurredClips ?? null).toBeNull();

    const save = `mutation($input: TourSaveInput!) { tourSave(input: $input) { id status { status } blurFaces } }`;
    // Same value: nothing to redo.
    const same = await t.gql(save, { input: { id: tour.id, title: 'Seeded', blurFaces: true } }, owner.token);
    expect(same.data.tourSave).toMatchObject({ status: { status: 'PROCESSED' }, blurFaces: true });
    const jobs = async () =>
      (
        await sql<{
          state: string;
        }>`SELECT state FROM pgboss.job WHERE name = 'process-tour' AND data->>'tourId' = ${tour.row.id}`.execute(db)
      ).rows;
    expect(await jobs()).toEqual([]);
    const off = await t.gql(save, { input: { id: tour.id, title: 'Seeded', blurFaces: false } }, owner.token);
    expect(off.errors).toBeUndefined();
    expect(off.data.tourSave).toMatchObject({ status: { status: 'PROCESSING' }, blurFaces: false });
    expect(await jobs()).toHaveLength(1);
  }, 120_000);
});
