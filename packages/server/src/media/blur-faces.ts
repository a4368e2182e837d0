/**
 * Privacy: blurs faces in the tour clips, the thumbnail, reels and photos (docs/ai-and-media.md, "Privacy").
 *
 * Videos (clips, thumbnail and reels) are blurred while they are made, in one pass: ffmpeg decodes to raw frames,
 * {@link faceBlurFilter} blurs them, ffmpeg encodes them (media/frame-pipe.ts) — no second decode or encode.
 * 1. Detection: every DETECT_EVERY-th frame (and the last) goes through BlazeFace (services/ai/faces.ts) on a
 *    copy downscaled to about 360 px on its short side, straight from the yuv420p frame. The 360p rendition is
 *    made from the blurred 720p frames, so one detection serves both renditions and the thumbnail. It runs in a
 *    worker thread (face-detector-thread.ts: the sampled frame's buffer is transferred there and back), up to
 *    MAX_DETECTIONS_OUT samples behind, while this thread blurs and hands on the frames before them.
 * 2. Boxes between samples (faces in a walkthrough move slowly): the same face found at two consecutive samples
 *    gets a box interpolated between them (grown by BOX_MARGIN + TRACK_MARGIN, a little more mid-way); a face
 *    found on one side only covers the frames up to the other sample, grown by BOX_MARGIN plus MOTION_MARGIN per
 *    frame of distance, and one more sampling step (a missed detection, or it left or arrived), so one missed sample
 *    leaves no gap. Nothing is matched across a cut (reel segments: a big change of the whole picture).
 * 3. Frames are held back 2 × DETECT_EVERY frames (the look-ahead those boxes need), then blurred (three box-blur
 *    passes inside each box, reading only inside it) and handed to the encoder.
 *
 * Images (shots): detection on a copy of at most 1280 px, then the same blur in each grown box.
 */
import sharp from 'sharp';
import { detectFaces, type FaceBox } from './faces.js';
import { BLUR_MIN_SCORE, CONFIRM_SCORE, MAX_BOX_SHARE, plausibleFace, type Rect } from './face-detect.js';
import { FaceDetectorThread } from './face-detector-thread.js';
import type { FrameFilter, FrameFilterFactory } from './frame-pipe.js';
import type { ProcessVideoOptions, ProcessVideoResult } from './process-video.js';

/** Detection runs on every DETECT_EVERY-th frame of the clips (15 fps: two and a half times a second). */
export const DETECT_EVERY = 6;
/** Growth of a detected box on each side, as a share of its size (BlazeFace's box is tight: brow to chin). */
export const BOX_MARGIN = 0.35;
/** Extra growth on each side per frame of distance from the frame where the face was detected. */
export const MOTION_MARGIN = 0.08;
/** Extra growth of a box interpolated between two detections of the same face (its path need not be straight). */
export const TRACK_MARGIN = 0.35;
/** Two detections at consecutive samples are the same face when their centres are within this many face sizes. */
export const MATCH_DISTANCE = 2;

/** Grows a face box by BOX_MARGIN (+ motion for `distance` frames, + `extra`), scales it and clamps it to the frame. */
export function growBox(b: FaceBox | Rect, scale: number, distance: number, width: number, height: number, extra = 0): Rect {
  const size = Math.max(b.width, b.height);
  // Never more than MAX_BOX_SHARE of the short side across (the margin shrinks first; the face stays covered).
  const cap = (MAX_BOX_SHARE * Math.min(width, height)) / scale;
  const m = Math.max(0, Math.min(BOX_MARGIN + MOTION_MARGIN * distance + extra, (cap / size - 1) / 2.4));
  const x0 = Math.max(0, Math.floor((b.x - m * size) * scale));
  const y0 = Math.max(0, Math.floor((b.y - m * size * 1.2) * scale));
  const x1 = Math.min(width, Math.ceil((b.x + b.width + m * size) * scale));
  const y1 = Math.min(height, Math.ceil((b.y + b.height + m * size * 1.2) * scale));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

interface Sample {
  index: number;
  faces: Rect[];
  /** Per face: index of the same face in the next sample, or -1. */
  next: number[];
  /** Per face: index of the same face in the previous sample, or -1. */
  prev: number[];
  /** Per face: matched at a neighbouring sample closely (CONFIRM_DISTANCE, about the same size). */
  confirmed: boolean[];
}

/** A face confirms another at the next sample within this many face sizes and 1.4 times its size (steady, not flicker). */
export const CONFIRM_DISTANCE = 1.2;

const centre = (r: Rect) => [r.x + r.width / 2, r.y + r.height / 2] as const;

/** Pairs faces of two consecutive samples (greedy, nearest first) that are close and about the same size. */
function match(a: Sample, b: Sample): void {
  const pairs: Array<[number, number, number]> = [];
  for (const [i, p] of a.faces.entries()) {
    for (const [j, q] of b.faces.entries()) {
      const sp = Math.max(p.width, p.height);
      const sq = Math.max(q.width, q.height);
      if (sq > 2 * sp || sp > 2 * sq) continue;
      const [px, py] = centre(p);
      const [qx, qy] = centre(q);
      const d = Math.hypot(px - qx, py - qy);
      if (d <= MATCH_DISTANCE * Math.max(sp, sq)) pairs.push([d, i, j]);
    }
  }
  for (const [d, i, j] of pairs.sort((x, y) => x[0] - y[0])) {
    if (a.next[i] === -1 && b.prev[j] === -1) {
      a.next[i] = j;
      b.prev[j] = i;
      const sp = Math.max(a.faces[i]!.width, a.faces[i]!.height);
      const sq = Math.max(b.faces[j]!.width, b.faces[j]!.height);
      if (d <= CONFIRM_DISTANCE * Math.max(sp, sq) && Math.max(sp, sq) <= 1.4 * Math.min(sp, sq)) a.confirmed[i] = b.confirmed[j] = true;
    }
  }
}

/**
 * Where to blur in each frame, from face detections at sampled frames (see the header, step 2). Samples are added
 * in order; `boxes(f)` is final once `ready(f)`.
 */
export class FacePlan {
  private samples: Sample[] = [];
  private ended = false;
  constructor(private readonly every: number, private readonly width: number, private readonly height: number) {}

  /** Detections (frame pixels) at sampled frame `index`; `cut`: the picture changed abruptly since the last sample. */
  add(index: number, faces: Rect[], cut = false): void {
    const s: Sample = { index, faces, next: faces.map(() => -1), prev: faces.map(() => -1), confirmed: faces.map(() => false) };
    const last = this.samples.at(-1);
    // Across a cut (reel segments) nothing is the same face: each side keeps its own grown boxes.
    if (last && !cut) match(last, s);
    this.samples.push(s);
  }

  /** No more samples will come (the last frame has been sampled). */
  end(): void {
    this.ended = true;
  }

  /**
   * A face counts (gets boxes) when it is confirmed: found again close by and about as large at the sample before or
   * after, or scored at least CONFIRM_SCORE (faces given without a score count as sure).
   */
  private counts(s: Sample, i: number): boolean {
    if (s.confirmed[i]! || (s.faces[i]!.score ?? 1) >= CONFIRM_SCORE) return true;
    // Matched (loosely) to a confirmed face: the same face, whose box moved or changed size more (a face arriving).
    const k = this.samples.indexOf(s);
    const before = this.samples[k - 1];
    const after = this.samples[k + 1];
    return (s.prev[i]! >= 0 && !!before?.confirmed[s.prev[i]!]) || (s.next[i]! >= 0 && !!after?.confirmed[s.next[i]!]);
  }

  /** True when every sample that can put a box on frame f is known. */
  ready(f: number): boolean {
    const last = this.samples.at(-1);
    // Two steps for the boxes that reach back from later samples, one more to know whether their faces are confirmed.
    return this.ended || (!!last && last.index >= Math.floor(f / this.every) * this.every + 3 * this.every);
  }

  /** Forgets samples that can no longer put a box on frame f or later. */
  forgetBefore(f: number): void {
    while (this.samples.length > 2 && this.samples[1]!.index + 2 * this.every < f) this.samples.shift();
  }

  /** Rectangles to blur in frame f. */
  boxes(f: number): Rect[] {
    const s = this.samples;
    let p = -1;
    for (let i = 0; i < s.length && s[i]!.index <= f; i++) p = i;
    const out: Rect[] = [];
    const grow = (r: Rect, distance: number, extra = 0) => out.push(growBox(r, 1, distance, this.width, this.height, extra));
    const reach = 2 * this.every;
    const a = s[p];
    const between = !!a && f > a.index;
    const b = between ? s[p + 1] : undefined;
    // A face found at both neighbouring samples gets the box interpolated between them (tight: it follows the face);
    // one found on one side only gets that side's box, grown with the distance.
    if (a) for (const [i, r] of a.faces.entries()) if ((!b || a.next[i] === -1) && this.counts(a, i)) grow(r, f - a.index);
    if (a && b) {
      const t = (f - a.index) / (b.index - a.index);
      for (const [j, r] of b.faces.entries()) {
        const i = b.prev[j]!;
        if (i < 0) {
          if (!this.counts(b, j)) continue;
          grow(r, b.index - f);
          continue;
        }
        if (!this.counts(a, i) && !this.counts(b, j)) continue;
        const q = a.faces[i]!;
        const lerp = (u: number, v: number) => u + (v - u) * t;
        grow({ x: lerp(q.x, r.x), y: lerp(q.y, r.y), width: lerp(q.width, r.width), height: lerp(q.height, r.height) }, Math.min(f - a.index, b.index - f) / 2, TRACK_MARGIN);
      }
    }
    // Faces not found again at the sample towards f (missed there, or gone) cover one more step.
    const before = p >= 1 ? s[p - 1] : undefined;
    if (before && a && f - before.index <= reach) for (const [i, r] of before.faces.entries()) if (before.next[i] === -1 && this.counts(before, i)) grow(r, f - before.index);
    const after = s[between ? p + 2 : p + 1];
    if (after && after.index - f <= reach) for (const [j, r] of after.faces.entries()) if (after.prev[j] === -1 && this.counts(after, j)) grow(r, after.index - f);
    return mergeRects(out.filter((r) => r.width > 1 && r.height > 1));
  }
}

/**
 * Replaces rectangles that overlap by more than half of the smaller one with their bounding box, until none do: the
 * several boxes one face gets (from the samples on either side, interpolated) are blurred once, not three times.
 */
export function mergeRects(rects: Rect[]): Rect[] {
  const out = [...rects];
  for (let merged = true; merged;) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length; j++) {
        const a = out[i]!;
        const b = out[j]!;
        const iw = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
        const ih = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
        if (iw <= 0 || ih <= 0 || iw * ih <= 0.5 * Math.min(a.width * a.height, b.width * b.height)) continue;
        const x = Math.min(a.x, b.x);
        const y = Math.min(a.y, b.y);
        out[i] = { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y };
        out.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return out;
}

/** Detections the filter lets the detection thread run behind by (see faceBlurFilter). */
export const MAX_DETECTIONS_OUT = 2;

/** Mean luma change (0–255) between two frames' glances above which the picture counts as cut to another. */
export const CUT_DIFFERENCE = 40;

/** A 32x18 grid of luma samples: enough to tell a cut from camera motion, 576 reads a frame. */
function glance(frame: Uint8Array, width: number, height: number): Float32Array {
  const out = new Float32Array(32 * 18);
  for (let gy = 0; gy < 18; gy++) {
    const row = Math.floor(((gy + 0.5) * height) / 18) * width;
    for (let gx = 0; gx < 32; gx++) out[gy * 32 + gx] = frame[row + Math.floor(((gx + 0.5) * width) / 32)]!;
  }
  return out;
}

function difference(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

export interface FaceBlurStats {
  frames: number;
  samples: number;
  /** Faces found over all samples. */
  detections: number;
  /** Frames with at least one blurred box. */
  blurredFrames: number;
  /** Time spent detecting (downscale + BlazeFace, in the detection thread) and blurring, in seconds. */
  detectSeconds: number;
  blurSeconds: number;
  /** Time the filter waited for the detection thread (detection not hidden behind decoding, blurring, encoding). */
  detectWaitSeconds?: number;
  /** The largest box blurred, as a share of the frame's area. */
  largestBoxShare?: number;
}

/**
 * The privacy frame filter (see the header): detects faces on every `every`-th frame and blurs them in every frame.
 * `letterbox`: one detector run per sample instead of two tiles (reels). `stats`, when given, is filled in as frames
 * pass.
 */
export function faceBlurFilter(o: { every?: number; letterbox?: boolean; stats?: FaceBlurStats } = {}): FrameFilterFactory {
  const every = o.every ?? DETECT_EVERY;
  const stats = o.stats ?? { frames: 0, samples: 0, detections: 0, blurredFrames: 0, detectSeconds: 0, blurSeconds: 0 };
  return ({ width, height }): FrameFilter => {
    // Frames given a blur box (processVideo picks the thumbnail among the others and reports them per clip).
    const changed = new Set<number>();
    return Object.assign(blurFaces, { changed });
    async function* blurFaces(frames: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      const plan = new FacePlan(every, width, height);
      // A sampled frame is away (in the detection thread) until its answer: `frame` is null meanwhile.
      type Held = { frame: Buffer | null; index: number };
      const held: Held[] = [];
      // Detections out, oldest first: each answer's sample goes into the plan in this order (`add`) once answered.
      const out: Array<{ answer: Promise<() => void>; done: boolean }> = [];
      const detector = new FaceDetectorThread();
      const sample = (h: Held, cut: boolean) => {
        const job = { answer: null as unknown as Promise<() => void>, done: false };
        job.answer = detector.detect(h.frame!, width, height, o.letterbox).then((r) => {
          h.frame = r.frame;
          job.done = true;
          stats.detectSeconds += r.seconds;
          stats.samples++;
          stats.detections += r.faces.length;
          return () => plan.add(h.index, r.faces, cut);
        });
        // A failure is thrown where the answer is awaited (below), not reported as unhandled before that.
        job.answer.catch(() => {});
        h.frame = null;
        out.push(job);
      };
      // Puts the answered detections into the plan, oldest first, waiting for the oldest while more than `limit` are out.
      const settle = async (limit: number) => {
        while (out.length && (out[0]!.done || out.length > limit)) {
          const t0 = performance.now();
          const add = await out[0]!.answer;
          stats.detectWaitSeconds = (stats.detectWaitSeconds ?? 0) + (performance.now() - t0) / 1000;
          add();
          out.shift();
        }
      };
      const release = (h: Held) => {
        const t0 = performance.now();
        const rects = plan.boxes(h.index);
        if (rects.length) {
          blurYuv420(h.frame!, width, height, rects);
          stats.blurredFrames++;
          changed.add(h.index);
          for (const r of rects) stats.largestBoxShare = Math.max(stats.largestBoxShare ?? 0, (r.width * r.height) / (width * height));
        }
        stats.blurSeconds += (performance.now() - t0) / 1000;
        plan.forgetBefore(h.index);
        return h.frame!;
      };
      try {
        let index = 0;
        let previous: Float32Array | null = null;
        let cut = false;
        for await (const frame of frames) {
          stats.frames++;
          const look = glance(frame, width, height);
          if (previous && difference(previous, look) > CUT_DIFFERENCE) cut = true;
          previous = look;
          const h: Held = { frame, index };
          held.push(h);
          index++;
          // Detection sees the frame before any blur (frames are blurred only when they leave, after their answer).
          if (h.index % every === 0) {
            sample(h, cut);
            cut = false;
            // The thread works on this sample while the frames before it are blurred and written; at most
            // MAX_DETECTIONS_OUT are out (the frames held grow by `every` with each).
            await settle(MAX_DETECTIONS_OUT);
          } else {
            await settle(Infinity);
          }
          while (held.length && plan.ready(held[0]!.index)) yield release(held.shift()!);
        }
        const last = held.at(-1);
        if (last && last.index % every !== 0) sample(last, cut);
        await settle(0);
        plan.end();
        while (held.length) yield release(held.shift()!);
      } finally {
        await detector.close();
      }
    }
  };
}

/**
 * Strong blur of one rectangle of an 8-bit plane (stride = row length), reading only pixels inside it. The box is
 * averaged down by a factor of about radius / 3, blurred there with three box-blur passes, and brought back with
 * bilinear interpolation: the same low-pass as blurring at full size, at a cost that does not grow with the radius
 * (big boxes in 1080x1920 reels).
 */
export function blurPlane(plane: Uint8Array, stride: number, r: Rect, radius = Math.max(3, Math.round(Math.min(r.width, r.height) / 4))): void {
  const { x, y, width: w, height: h } = r;
  if (w < 2 || h < 2) return;
  const f = Math.max(1, Math.floor(radius / 3));
  const sw = Math.ceil(w / f);
  const sh = Math.ceil(h / f);
  const buf = new Float32Array(sw * sh);
  // Big blocks are averaged from every other pixel of every other row: the same mean for a low-pass, a quarter of
  // the reads.
  // Offsets 0, 2, 4… inside each block, so a partial last block still has its first row and column.
  const step = f >= 4 ? 2 : 1;
  const sampled = (n: number) => Array.from({ length: n }, (_, i) => i).filter((i) => (i % f) % step === 0);
  const cols = Int32Array.from(sampled(w));
  const colBlock = cols.map((i) => (i / f) | 0);
  const perCol = new Float32Array(sw);
  const perRow = new Float32Array(sh);
  for (const b of colBlock) perCol[b]! += 1;
  const rows = sampled(h);
  for (const j of rows) perRow[(j / f) | 0]! += 1;
  for (const j of rows) {
    const row = (y + j) * stride + x;
    const srow = ((j / f) | 0) * sw;
    for (let c = 0; c < cols.length; c++) buf[srow + colBlock[c]!]! += plane[row + cols[c]!]!;
  }
  for (let bj = 0; bj < sh; bj++) {
    for (let bi = 0; bi < sw; bi++) buf[bj * sw + bi] = buf[bj * sw + bi]! / (perRow[bj]! * perCol[bi]!);
  }
  const tmp = new Float32Array(Math.max(sw, sh));
  const pass = (len: number, lines: number, at: (line: number, k: number) => number) => {
    const rad = Math.min(Math.max(1, Math.round(radius / f)), len - 1);
    if (rad < 1) return;
    for (let line = 0; line < lines; line++) {
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
    pass(sw, sh, (line, k) => line * sw + k);
    pass(sh, sw, (line, k) => k * sw + line);
  }
  // Bilinear back to full size (sample centres aligned), separably: each small row widened once, then every output
  // row is one blend of two widened rows.
  const axis = (n: number, sn: number) => {
    const i0 = new Int32Array(n);
    const i1 = new Int32Array(n);
    const wt = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const s = Math.min(sn - 1, Math.max(0, (i + 0.5) / f - 0.5));
      i0[i] = Math.floor(s);
      i1[i] = Math.min(sn - 1, i0[i]! + 1);
      wt[i] = s - i0[i]!;
    }
    return { i0, i1, wt };
  };
  const ax = axis(w, sw);
  const ay = axis(h, sh);
  const wide = new Float32Array(sh * w);
  for (let r = 0; r < sh; r++) {
    const base = r * sw;
    for (let i = 0, o = r * w; i < w; i++, o++) {
      const a0 = buf[base + ax.i0[i]!]!;
      wide[o] = a0 + (buf[base + ax.i1[i]!]! - a0) * ax.wt[i]!;
    }
  }
  for (let j = 0; j < h; j++) {
    const r0 = ay.i0[j]! * w;
    const r1 = ay.i1[j]! * w;
    const wy = ay.wt[j]!;
    const row = (y + j) * stride + x;
    for (let i = 0; i < w; i++) {
      const top = wide[r0 + i]!;
      plane[row + i] = (top + (wide[r1 + i]! - top) * wy + 0.5) | 0;
    }
  }
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

/** Face rectangles (grown for blurring) in an image, detected on a copy of at most 1280 px. */
export async function findFacesInImage(image: Buffer | string): Promise<{ rects: Rect[]; width: number; height: number }> {
  const meta = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().metadata();
  const oriented = (meta.orientation ?? 1) >= 5;
  const width = (oriented ? meta.height : meta.width) ?? 0;
  const height = (oriented ? meta.width : meta.height) ?? 0;
  const k = Math.min(1, 1280 / Math.max(width, height));
  const small = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().resize(Math.round(width * k), Math.round(height * k), { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  // A photo has no neighbouring samples to confirm a face: plausible size, shape and keypoints decide.
  const faces = (await detectFaces(small.data, small.info.width, small.info.height, BLUR_MIN_SCORE)).filter((b) => plausibleFace(b, small.info.width, small.info.height));
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

function clampRect(r: Rect, width: number, height: number): Rect {
  const x = Math.max(0, Math.min(width, r.x));
  const y = Math.max(0, Math.min(height, r.y));
  return { x, y, width: Math.max(0, Math.min(width - x, r.width)), height: Math.max(0, Math.min(height - y, r.height)) };
}

/** Options of the media core plus the tour's privacy switch. */
export type PrivacyOptions = { blurFaces?: boolean };

/**
 * The media core with the privacy blur: unless `blurFaces` is false, processVideo runs with faceBlurFilter between
 * its decoding and its encoding. Injected stand-ins (tests of the job's bookkeeping) are not wrapped, so they never
 * see the option's effect.
 */
export function withFaceBlur<F extends (o: ProcessVideoOptions) => Promise<ProcessVideoResult>>(processVideo: F): F {
  return (async (opts: ProcessVideoOptions & PrivacyOptions) => {
    const { blurFaces, ...rest } = opts;
    return processVideo(blurFaces === false ? rest : { ...rest, frameFilter: faceBlurFilter() });
  }) as unknown as F;
}
