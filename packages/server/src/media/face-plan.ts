/**
 * Which rectangles to blur in which frame of a clip (step 2 of blur-faces.ts): detections at sampled frames are
 * matched between neighbouring samples, interpolated and grown, and overlapping boxes merged.
 */
import type { FaceBox } from './faces.js';
import { CONFIRM_SCORE, MAX_BOX_SHARE, type Rect } from './face-detect.js';

/** Detection runs on every DETECT_EVERY-th frame of the clips (15 fps: two and a half times a second). */
export const DETECT_EVERY = 6;
/** Growth of a detected box on each side, as a share of its size (BlazeFace's box is tight: brow to chin). */
const BOX_MARGIN = 0.35;
/** Extra growth on each side per frame of distance from the frame where the face was detected. */
const MOTION_MARGIN = 0.08;
/** Extra growth of a box interpolated between two detections of the same face (its path need not be straight). */
const TRACK_MARGIN = 0.35;
/** Two detections at consecutive samples are the same face when their centres are within this many face sizes. */
const MATCH_DISTANCE = 2;

/** Grows a face box by BOX_MARGIN (+ motion for `distance` frames, + `extra`), scales it and clamps it to the frame. */
export function growBox(
  b: FaceBox | Rect,
  scale: number,
  distance: number,
  width: number,
  height: number,
  extra = 0,
): Rect {
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

/**
 * A face confirms another at the next sample within this many face sizes and 1.4 times its size (steady, not flicker).
 */
const CONFIRM_DISTANCE = 1.2;

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
      if (d <= CONFIRM_DISTANCE * Math.max(sp, sq) && Math.max(sp, sq) <= 1.4 * Math.min(sp, sq))
        a.confirmed[i] = b.confirmed[j] = true;
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
  constructor(
    private readonly every: number,
    private readonly width: number,
    private readonly height: number,
  ) {}

  /** Detections (frame pixels) at sampled frame `index`; `cut`: the picture changed abruptly since the last sample. */
  add(index: number, faces: Rect[], cut = false): void {
    const s: Sample = {
      index,
      faces,
      next: faces.map(() => -1),
      prev: faces.map(() => -1),
      confirmed: faces.map(() => false),
    };
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
    const grow = (r: Rect, distance: number, extra = 0) =>
      out.push(growBox(r, 1, distance, this.width, this.height, extra));
    const reach = 2 * this.every;
    const a = s[p];
    const between = !!a && f > a.index;
    const b = between ? s[p + 1] : undefined;
    // A face found at both neighbouring samples gets the box interpolated between them (tight: it follows the face);
    // one found on one side only gets that side's box, grown with the distance.
    if (a)
      for (const [i, r] of a.faces.entries()) if ((!b || a.next[i] === -1) && this.counts(a, i)) grow(r, f - a.index);
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
        grow(
          { x: lerp(q.x, r.x), y: lerp(q.y, r.y), width: lerp(q.width, r.width), height: lerp(q.height, r.height) },
          Math.min(f - a.index, b.index - f) / 2,
          TRACK_MARGIN,
        );
      }
    }
    // Faces not found again at the sample towards f (missed there, or gone) cover one more step.
    const before = p >= 1 ? s[p - 1] : undefined;
    if (before && a && f - before.index <= reach)
      for (const [i, r] of before.faces.entries())
        if (before.next[i] === -1 && this.counts(before, i)) grow(r, f - before.index);
    const after = s[between ? p + 2 : p + 1];
    if (after && after.index - f <= reach)
      for (const [j, r] of after.faces.entries())
        if (after.prev[j] === -1 && this.counts(after, j)) grow(r, after.index - f);
    return mergeRects(out.filter((r) => r.width > 1 && r.height > 1));
  }
}

/**
 * Replaces rectangles that overlap by more than half of the smaller one with their bounding box, until none do: the
 * several boxes one face gets (from the samples on either side, interpolated) are blurred once, not three times.
 */
export function mergeRects(rects: Rect[]): Rect[] {
  const out = [...rects];
  for (let merged = true; merged; ) {
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
        out[i] = {
          x,
          y,
          width: Math.max(a.x + a.width, b.x + b.width) - x,
          height: Math.max(a.y + a.height, b.y + b.height) - y,
        };
        out.splice(j, 1);
        merged = true;
        break;
      }
    }
  }
  return out;
}
