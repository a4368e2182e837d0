/**
 * One video's face finding, steps 1 and 2 of blur-faces.ts: the cut test over every frame, the sampled frames offered
 * to the sampler (face-samples.ts) and the detection thread (face-detector-thread.ts), their answers entering the plan
 * (face-plan.ts). Whoever holds the frames decides when to blur them: the raw frame pipe's filter (blur-faces.ts) as
 * they pass, the copy path (copy-faces.ts) after the whole video was sampled.
 */
import type { Rect } from './face-detect.js';
import { FaceDetectorThread } from './face-detector-thread.js';
import { FacePlan } from './face-plan.js';
import { blurYuv420 } from './blur-plane.js';
import { FaceSampler, type HeldFrame } from './face-samples.js';

/** Mean luma change (0–255) between two frames' glances above which the picture counts as cut to another. */
export const CUT_DIFFERENCE = 40;

/** Detections the frames' holder lets the detection thread run behind by. */
export const MAX_DETECTIONS_OUT = 2;

/** Points of the cut test's grid across and down a frame. */
export const GLANCE = { cols: 32, rows: 18 } as const;

/**
 * A 32x18 grid of luma samples: enough to tell a cut from camera motion, 576 reads a frame. ffmpeg's
 * `extractplanes=y,scale=32:18:flags=neighbor` reads the same pixels (encoding.ts, `faceSamples`).
 */
export function glance(frame: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(GLANCE.cols * GLANCE.rows);
  for (let gy = 0; gy < GLANCE.rows; gy++) {
    const row = Math.floor(((gy + 0.5) * height) / GLANCE.rows) * width;
    for (let gx = 0; gx < GLANCE.cols; gx++)
      out[gy * GLANCE.cols + gx] = frame[row + Math.floor(((gx + 0.5) * width) / GLANCE.cols)]!;
  }
  return out;
}

function difference(a: Uint8Array, b: Uint8Array): number {
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
  /** Samples that counted as finding nothing undetected: the detected samples on both sides found nothing. */
  skippedSamples?: number;
  /** Samples answered by following the faces of the sample before (of `samples`; the rest ran the detector). */
  trackedSamples?: number;
  /** Time the holder waited for the detection thread (detection not hidden behind decoding, blurring, encoding). */
  detectWaitSeconds?: number;
  /** The largest box blurred, as a share of the frame's area. */
  largestBoxShare?: number;
  /** Whole frames that came through this process: every frame through the raw frame pipe, the samples on the copy path. */
  framesInNode?: number;
  /** Clips encoded again on the copy path because a box fell in them. */
  clipsEncodedAgain?: number;
}

/** Figures at zero, for a pass to fill in. */
export const newFaceBlurStats = (): FaceBlurStats => ({
  frames: 0,
  samples: 0,
  detections: 0,
  blurredFrames: 0,
  detectSeconds: 0,
  blurSeconds: 0,
});

export interface FacePassOptions {
  width: number;
  height: number;
  every: number;
  /** One sample in `sparse` detected while nothing is in view (1: every sample). */
  sparse: number;
  letterbox: boolean;
  stats: FaceBlurStats;
}

/** Faces of one video (see the header); `close` after use, `ok` when it ran to its end. */
export class FacePass {
  readonly plan: FacePlan;
  /** Frames given a blur box (the thumbnail is picked among the others; processVideo reports them per clip). */
  readonly changed = new Set<number>();
  private readonly sampler: FaceSampler;
  private readonly detector = FaceDetectorThread.take();
  private previous: Uint8Array | null = null;
  private cut = false;

  constructor(private readonly o: FacePassOptions) {
    const { width, height, stats } = o;
    this.plan = new FacePlan(o.every, width, height);
    this.sampler = new FaceSampler({
      sparse: o.sparse,
      detect: async (frame, index, cut) => {
        const r = await this.detector.detect(frame, width, height, { letterbox: o.letterbox, index, cut });
        stats.detectSeconds += r.seconds;
        stats.samples++;
        if (r.tracked) stats.trackedSamples = (stats.trackedSamples ?? 0) + 1;
        stats.detections += r.faces.length;
        return r;
      },
      add: (index: number, faces: Rect[], cut: boolean) => this.plan.add(index, faces, cut),
    });
  }

  /** The figures this pass fills in. */
  get stats(): FaceBlurStats {
    return this.o.stats;
  }

  /** Every this many frames is a sample. */
  get every(): number {
    return this.o.every;
  }

  /** Every frame's glance, in order: a big change from the frame before marks a cut before the next sample. */
  look(g: Uint8Array): void {
    this.o.stats.frames++;
    if (this.previous && difference(this.previous, g) > CUT_DIFFERENCE) this.cut = true;
    this.previous = g;
  }

  /** A sampled frame, after its glance; `must`: detect it whatever came before (the first and the last frame). */
  offer(h: HeldFrame, must: boolean): void {
    this.sampler.offer(h, this.cut, must);
    this.cut = false;
  }

  /** Gives the plan what can be decided, waiting while more than `limit` detections are out (face-samples.ts). */
  async settle(limit: number): Promise<void> {
    const t0 = performance.now();
    await this.sampler.settle(limit);
    const { stats } = this.o;
    stats.detectWaitSeconds = (stats.detectWaitSeconds ?? 0) + (performance.now() - t0) / 1000;
    stats.skippedSamples = this.sampler.skipped;
  }

  /** No more samples: the plan hears of every one and ends. */
  async finish(): Promise<void> {
    this.sampler.finish();
    await this.settle(0);
    this.plan.end();
  }

  /** Frame `index`'s boxes; asked in frame order, once the plan is ready for it (it forgets what earlier frames need). */
  boxes(index: number): Rect[] {
    const rects = this.plan.boxes(index);
    this.plan.forgetBefore(index);
    return rects;
  }

  /** Blurs frame `index` in place with its boxes (by default, the plan's now); true when it had any. */
  blur(frame: Uint8Array, index: number, rects?: Rect[]): boolean {
    const { width, height, stats } = this.o;
    const t0 = performance.now();
    const boxes = rects ?? this.boxes(index);
    if (boxes.length) {
      blurYuv420(frame, width, height, boxes);
      stats.blurredFrames++;
      this.changed.add(index);
      for (const r of boxes)
        stats.largestBoxShare = Math.max(stats.largestBoxShare ?? 0, (r.width * r.height) / (width * height));
    }
    stats.blurSeconds += (performance.now() - t0) / 1000;
    return boxes.length > 0;
  }

  /** Keeps the detection thread for the next video after a normal end; stops it after a failure or an early stop. */
  close(ok: boolean): Promise<void> {
    return ok ? this.detector.release() : this.detector.close();
  }
}
