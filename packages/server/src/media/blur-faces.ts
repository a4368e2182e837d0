/**
 * Privacy: blurs faces in the tour clips, the thumbnail, reels and photos (docs/ai-and-media.md, "Privacy").
 *
 * Clips (a second pass after processVideo, run by the job when the tour's `blur_faces` is on):
 * 1. Detection on the 360p rendition, which is cheap to decode: every DETECT_EVERY-th frame of the tour (counted
 *    across clips) goes through BlazeFace (services/ai/faces.ts).
 * 2. Tracking by neighbourhood: a face found at sample s (confidence ≥ BLUR_MIN_SCORE) covers every frame within
 *    REACH = 2 × DETECT_EVERY frames of s on both sides (the frames between samples, across clip boundaries, and one
 *    missed sample), its box scaled to 720p and grown by
 *    BOX_MARGIN plus MOTION_MARGIN per frame of distance from s, so a face that moves is still inside its box.
 * 3. Only clips that have at least one box are re-encoded: the 720p clip is decoded to raw frames, the boxes are
 *    blurred (three box-blur passes, radius ≈ a fifth of the box, reading only inside the box), and one ffmpeg run
 *    encodes the 720p and 360p renditions again with encoding.ts's x264 settings (36-frame closed GOP, no B-frames)
 *    into fragmented MP4 — the same format as processVideo's clips. The 360p is made from the blurred 720p.
 * 4. The thumbnail (frame THUMBNAIL_FRAME of the 720p picture) gets the boxes of that frame plus its own detection.
 *
 * Images (thumbnail, shots): detection on a copy of at most 1280 px, then sharp blurs each grown box in place.
 * Videos (reels): the same decode → blur → encode path as clips, streamed frame by frame.
 */
import { spawn } from 'node:child_process';
import { rename, rm, stat } from 'node:fs/promises';
import sharp from 'sharp';
import { CLIP_FPS, RENDITIONS, THUMBNAIL_FRAME, renditionSize, x264Args } from './encoding.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { detectFaces, type FaceBox } from '../services/ai/faces.js';
import type { ProcessVideoResult } from './process-video.js';

/** Detection runs on every DETECT_EVERY-th frame; the frames between are covered by the neighbours' boxes. */
export const DETECT_EVERY = 3;
/** Growth of a detected box on each side, as a share of its size (BlazeFace's box is tight: brow to chin). */
export const BOX_MARGIN = 0.35;
/** Extra growth on each side per frame of distance from the frame where the face was detected. */
export const MOTION_MARGIN = 0.08;
export const PRIVACY_PROGRESS_TEXT = 'Protecting privacy';
/** Confidence needed to blur: lower than the detector's default, since a missed face costs more than a blurred poster. */
export const BLUR_MIN_SCORE = 0.35;
/** A detection covers this many frames on each side: two sampling steps, so one missed sample leaves no gap. */
export const REACH = 2 * DETECT_EVERY;

export interface Rect { x: number; y: number; width: number; height: number }

export interface BlurClipsResult {
  /** Faces found over all sampled frames. */
  detections: number;
  /** Indexes of the clips that were re-encoded. */
  blurredClips: number[];
  thumbnailBlurred: boolean;
}

/** Grows a face box by BOX_MARGIN (+ motion for `distance` frames), scales it and clamps it to the frame. */
export function growBox(b: FaceBox | Rect, scale: number, distance: number, width: number, height: number): Rect {
  const m = BOX_MARGIN + MOTION_MARGIN * distance;
  const size = Math.max(b.width, b.height);
  const x0 = Math.max(0, Math.floor((b.x - m * size) * scale));
  const y0 = Math.max(0, Math.floor((b.y - m * size * 1.2) * scale));
  const x1 = Math.min(width, Math.ceil((b.x + b.width + m * size) * scale));
  const y1 = Math.min(height, Math.ceil((b.y + b.height + m * size * 1.2) * scale));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

/** Boxes of every frame from detections at sampled frames: each covers its neighbours within `reach` frames. */
export function spreadBoxes(samples: Map<number, FaceBox[]>, frames: number, reach: number, scale: number, width: number, height: number): Rect[][] {
  const out: Rect[][] = Array.from({ length: frames }, () => []);
  for (const [s, faces] of samples) {
    for (const face of faces) {
      for (let f = Math.max(0, s - reach); f <= Math.min(frames - 1, s + reach); f++) {
        const r = growBox(face, scale, Math.abs(f - s), width, height);
        if (r.width > 0 && r.height > 0) out[f]!.push(r);
      }
    }
  }
  return out;
}

/** Strong blur of one rectangle of an 8-bit plane (stride = row length), reading only pixels inside it. */
export function blurPlane(plane: Uint8Array, stride: number, r: Rect, radius = Math.max(3, Math.round(Math.min(r.width, r.height) / 5))): void {
  const { x, y, width: w, height: h } = r;
  if (w < 2 || h < 2) return;
  const buf = new Float32Array(w * h);
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) buf[j * w + i] = plane[(y + j) * stride + x + i]!;
  const tmp = new Float32Array(Math.max(w, h));
  const pass = (len: number, count: number, at: (line: number, k: number) => number) => {
    const rad = Math.min(radius, len - 1);
    for (let line = 0; line < count; line++) {
      for (let k = 0; k < len; k++) tmp[k] = buf[at(line, k)]!;
      let sum = 0;
      // Edge pixels repeated: the window never reads outside the box (no unblurred neighbour leaks in).
      for (let k = -rad; k <= rad; k++) sum += tmp[Math.min(len - 1, Math.max(0, k))]!;
      for (let k = 0; k < len; k++) {
        buf[at(line, k)] = sum / (2 * rad + 1);
        sum += tmp[Math.min(len - 1, k + rad + 1)]! - tmp[Math.max(0, k - rad)]!;
      }
    }
  };
  for (let it = 0; it < 3; it++) {
    pass(w, h, (line, k) => line * w + k);
    pass(h, w, (line, k) => k * w + line);
  }
  for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) plane[(y + j) * stride + x + i] = Math.round(buf[j * w + i]!);
}

/** Blurs rectangles (luma pixels) in one yuv420p frame. */
export function blurYuv420(frame: Uint8Array, width: number, height: number, rects: Rect[]): void {
  const ySize = width * height;
  const cw = width >> 1;
  const ch = height >> 1;
  for (const r0 of rects) {
    // Even-aligned so luma and chroma cover the same pixels.
    const x = r0.x & ~1;
    const y = r0.y & ~1;
    const r = { x, y, width: Math.min(width - x, (r0.width + (r0.x - x) + 1) & ~1), height: Math.min(height - y, (r0.height + (r0.y - y) + 1) & ~1) };
    blurPlane(frame.subarray(0, ySize), width, r);
    const c = { x: x >> 1, y: y >> 1, width: Math.min(cw - (x >> 1), r.width >> 1), height: Math.min(ch - (y >> 1), r.height >> 1) };
    blurPlane(frame.subarray(ySize, ySize + cw * ch), cw, c);
    blurPlane(frame.subarray(ySize + cw * ch, ySize + 2 * cw * ch), cw, c);
  }
}

function run(args: string[], o: { signal?: AbortSignal | undefined; stdin?: boolean; onStdout?: (c: Buffer) => void } = {}) {
  const child = spawn(ffmpegBinaries().ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', ...args].filter((a) => !(o.stdin && a === '-nostdin')), {
    stdio: [o.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
  if (o.onStdout) child.stdout!.on('data', o.onStdout);
  const kill = () => child.kill('SIGKILL');
  o.signal?.addEventListener('abort', kill, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      o.signal?.removeEventListener('abort', kill);
      if (o.signal?.aborted) return reject(Object.assign(new Error('aborted'), { name: 'AbortError' }));
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
  return { child, done };
}

/** Raw frames of a video, scaled to width x height, in `format` (rgb24 or yuv420p), handed over one by one. */
async function decodeFrames(file: string, width: number, height: number, format: 'rgb24' | 'yuv420p', onFrame: (f: Buffer, index: number) => Promise<void> | void, signal?: AbortSignal): Promise<number> {
  const size = format === 'rgb24' ? width * height * 3 : (width * height * 3) / 2;
  let pending: Buffer = Buffer.alloc(0);
  let index = 0;
  let chain: Promise<void> = Promise.resolve();
  const p = run(['-i', file, '-an', '-sn', '-dn', '-vf', `scale=${width}:${height}:flags=area`, '-f', 'rawvideo', '-pix_fmt', format, 'pipe:1'], {
    signal,
    onStdout: (c) => {
      pending = pending.length ? Buffer.concat([pending, c]) : c;
      while (pending.length >= size) {
        const frame = Buffer.from(pending.subarray(0, size));
        pending = pending.subarray(size);
        const i = index++;
        // Back-pressure: stop reading while the frame's work (detection, encoding) is behind.
        p.child.stdout!.pause();
        chain = chain.then(() => onFrame(frame, i)).finally(() => p.child.stdout!.resume());
      }
    },
  });
  await p.done;
  await chain;
  return index;
}

/** Faces at every DETECT_EVERY-th frame (global index, from `first`) of a video decoded at width x height. */
async function sampleFaces(file: string, width: number, height: number, first: number, samples: Map<number, FaceBox[]>, signal?: AbortSignal, every = DETECT_EVERY): Promise<number> {
  return decodeFrames(file, width, height, 'rgb24', async (frame, i) => {
    const g = first + i;
    if (g % every !== 0) return;
    const faces = await detectFaces(frame, width, height, BLUR_MIN_SCORE);
    if (faces.length) samples.set(g, faces);
  }, signal);
}

/** Decodes a video, blurs the rectangles of each frame, and encodes it again with the given output arguments. */
async function reencode(input: string, width: number, height: number, fps: number, rects: (i: number) => Rect[], outputArgs: string[], signal?: AbortSignal): Promise<void> {
  const enc = run(['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${width}x${height}`, '-framerate', String(fps), '-i', 'pipe:0', ...outputArgs], { signal, stdin: true });
  const stdin = enc.child.stdin!;
  stdin.on('error', () => undefined); // an encoder failure is reported by enc.done
  try {
    await decodeFrames(input, width, height, 'yuv420p', async (frame, i) => {
      const r = rects(i);
      if (r.length) blurYuv420(frame, width, height, r);
      if (!stdin.write(frame)) await new Promise<void>((resolve) => stdin.once('drain', resolve));
    }, signal);
  } finally {
    stdin.end();
  }
  await enc.done;
}

const FMP4 = ['-movflags', '+frag_keyframe+empty_moov+default_base_moof'];

/**
 * Blurs the faces in processVideo's clips and thumbnail, in place (same file names, same format). Clips without
 * faces are left untouched. `onProgress` gets 0..1.
 */
export async function blurFacesInClips(result: Pick<ProcessVideoResult, 'clips' | 'thumbnailPath' | 'portrait'>, o: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {}): Promise<BlurClipsResult> {
  const hi = renditionSize(RENDITIONS.high, result.portrait);
  const lo = renditionSize(RENDITIONS.low, result.portrait);
  const scale = hi.width / lo.width;
  const clips = [...result.clips].sort((a, b) => a.index - b.index);
  const samples = new Map<number, FaceBox[]>();
  const starts: number[] = [];
  let total = 0;
  for (const [k, clip] of clips.entries()) {
    starts.push(total);
    total += await sampleFaces(clip.lowPath, lo.width, lo.height, total, samples, o.signal);
    o.onProgress?.(((k + 1) / clips.length) * 0.6);
  }
  const perFrame = spreadBoxes(samples, total, REACH, scale, hi.width, hi.height);
  const blurred: number[] = [];
  for (const [k, clip] of clips.entries()) {
    const start = starts[k]!;
    const end = k + 1 < clips.length ? starts[k + 1]! : total;
    if (!perFrame.slice(start, end).some((r) => r.length)) continue;
    const highTmp = `${clip.highPath}.blur.mp4`;
    const lowTmp = `${clip.lowPath}.blur.mp4`;
    try {
      await reencode(clip.highPath, hi.width, hi.height, CLIP_FPS, (i) => perFrame[start + i] ?? [], [
        '-filter_complex', `[0:v]setsar=1,split=2[h][l0];[l0]scale=${lo.width}:${lo.height},setsar=1[l]`,
        '-map_metadata', '-1',
        '-map', '[h]', ...x264Args(RENDITIONS.high), ...FMP4, '-f', 'mp4', '-y', highTmp,
        '-map', '[l]', ...x264Args(RENDITIONS.low), ...FMP4, '-f', 'mp4', '-y', lowTmp,
      ], o.signal);
      await rename(highTmp, clip.highPath);
      await rename(lowTmp, clip.lowPath);
    } finally {
      await rm(highTmp, { force: true });
      await rm(lowTmp, { force: true });
    }
    blurred.push(clip.index);
    o.onProgress?.(0.6 + (0.35 * (k + 1)) / clips.length);
  }
  const thumbRects = perFrame[Math.min(THUMBNAIL_FRAME, total - 1)] ?? [];
  const thumbnailBlurred = await blurFacesInImageFile(result.thumbnailPath, thumbRects);
  o.onProgress?.(1);
  return { detections: [...samples.values()].reduce((s, f) => s + f.length, 0), blurredClips: blurred, thumbnailBlurred };
}

/** Face rectangles (grown for blurring) in an image, detected on a copy of at most 1280 px. */
export async function findFacesInImage(image: Buffer | string): Promise<{ rects: Rect[]; width: number; height: number }> {
  const meta = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().metadata();
  const oriented = (meta.orientation ?? 1) >= 5;
  const width = (oriented ? meta.height : meta.width) ?? 0;
  const height = (oriented ? meta.width : meta.height) ?? 0;
  const k = Math.min(1, 1280 / Math.max(width, height));
  const small = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().resize(Math.round(width * k), Math.round(height * k), { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await detectFaces(small.data, small.info.width, small.info.height, BLUR_MIN_SCORE);
  return { rects: faces.map((f) => growBox(f, width / small.info.width, 0, width, height)), width, height };
}

/** Blurs faces (plus `extra` rectangles) in an image; answers null when there was nothing to blur. */
export async function blurFacesInImage(image: Buffer | string, extra: Rect[] = []): Promise<Buffer | null> {
  const found = await findFacesInImage(image);
  const rects = [...found.rects, ...extra].filter((r) => r.width >= 2 && r.height >= 2);
  if (!rects.length) return null;
  const base = sharp(image, { limitInputPixels: 100_000_000 }).rotate().removeAlpha();
  const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
  const ch = info.channels;
  // Per channel: the same blur as the clips, so a face is equally unreadable in a photo.
  for (let c = 0; c < ch; c++) {
    const plane = new Uint8Array(info.width * info.height);
    for (let i = 0; i < plane.length; i++) plane[i] = data[i * ch + c]!;
    for (const r of rects) blurPlane(plane, info.width, clampRect(r, info.width, info.height));
    for (let i = 0; i < plane.length; i++) data[i * ch + c] = plane[i]!;
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: ch } }).jpeg({ quality: 92 }).toBuffer();
}

/** Blurs faces in a JPEG file in place; true when it changed. */
export async function blurFacesInImageFile(file: string, extra: Rect[] = []): Promise<boolean> {
  const out = await blurFacesInImage(file, extra);
  if (!out) return false;
  await sharp(out).toFile(`${file}.blur.jpg`);
  await rename(`${file}.blur.jpg`, file);
  return true;
}

function clampRect(r: Rect, width: number, height: number): Rect {
  const x = Math.max(0, Math.min(width, r.x));
  const y = Math.max(0, Math.min(height, r.y));
  return { x, y, width: Math.max(0, Math.min(width - x, r.width)), height: Math.max(0, Math.min(height - y, r.height)) };
}

/**
 * Blurs faces in a finished H.264 video (a reel) in place: detection at 360 px short side on 4 frames per second, then one decode → blur → encode (libx264 `preset`, CRF 23, faststart) only when a face was found.
 */
export async function blurFacesInVideoFile(file: string, o: { width: number; height: number; fps: number; preset?: string; signal?: AbortSignal | undefined }): Promise<{ detections: number; reencoded: boolean }> {
  const k = 360 / Math.min(o.width, o.height);
  const dw = Math.round((o.width * k) / 2) * 2;
  const dh = Math.round((o.height * k) / 2) * 2;
  const samples = new Map<number, FaceBox[]>();
  // Reels run at 24 fps with large faces (an upscaled crop): every 6th frame (4 per second) is enough.
  const every = Math.max(DETECT_EVERY, Math.round(o.fps / 4));
  const frames = await sampleFaces(file, dw, dh, 0, samples, o.signal ?? undefined, every);
  if (samples.size === 0) return { detections: 0, reencoded: false };
  const perFrame = spreadBoxes(samples, frames, 2 * every, o.width / dw, o.width, o.height);
  const tmp = `${file}.blur.mp4`;
  try {
    await reencode(file, o.width, o.height, o.fps, (i) => perFrame[i] ?? [], [
      '-map_metadata', '-1', '-c:v', 'libx264', '-preset', o.preset ?? 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p',
      '-movflags', '+faststart', '-f', 'mp4', '-y', tmp,
    ], o.signal ?? undefined);
    await stat(tmp);
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return { detections: [...samples.values()].reduce((s, f) => s + f.length, 0), reencoded: true };
}

/** Options of the media core plus the tour's privacy switch. */
export type PrivacyOptions = { blurFaces?: boolean };

/**
 * The media core with the privacy pass: processVideo, then (when `blurFaces` is not false) blurFacesInClips on its
 * outputs. processVideo's progress takes the first PROCESS_SHARE, the privacy pass the rest ('Protecting privacy').
 * Injected stand-ins (tests of the job's bookkeeping) are not wrapped, so they never see the option's effect.
 */
export const PROCESS_SHARE = 0.9;
export function withFaceBlur<F extends (o: import('./process-video.js').ProcessVideoOptions) => Promise<ProcessVideoResult>>(processVideo: F): F {
  return (async (opts: import('./process-video.js').ProcessVideoOptions & PrivacyOptions) => {
    if (opts.blurFaces === false) return processVideo(opts);
    const onProgress = opts.onProgress;
    const result = await processVideo({
      ...opts,
      onProgress: onProgress && ((p) => (p.progress < 1 ? onProgress({ progress: p.progress * PROCESS_SHARE, text: p.text }) : undefined)),
    });
    onProgress?.({ progress: PROCESS_SHARE, text: PRIVACY_PROGRESS_TEXT });
    try {
      await blurFacesInClips(result, { ...(opts.signal ? { signal: opts.signal } : {}), onProgress: (f) => onProgress?.({ progress: PROCESS_SHARE + (1 - PROCESS_SHARE) * f, text: PRIVACY_PROGRESS_TEXT }) });
    } catch (err) {
      // Same contract as processVideo: nothing of a failed attempt stays in workDir.
      await Promise.all([...result.clips.flatMap((c) => [c.highPath, c.lowPath]), result.thumbnailPath].map((p) => rm(p, { force: true })));
      throw err;
    }
    // Sizes as they are now (re-encoded clips differ).
    const size = async (paths: string[]) => (await Promise.all(paths.map((p) => stat(p)))).reduce((s, st) => s + st.size, 0);
    result.videoInfo = {
      ...result.videoInfo,
      fullSize: await size(result.clips.map((c) => c.highPath)),
      mediumSize: await size(result.clips.map((c) => c.lowPath)),
      smallSize: await size([result.thumbnailPath]),
    };
    onProgress?.({ progress: 1, text: 'Processed' });
    return result;
  }) as unknown as F;
}
