/**
 * Which sampled frames the face detector sees (step 1 of blur-faces.ts), and the order their answers enter the plan.
 *
 * While nothing is in view, one sample in `sparse` is detected (a sentinel) and the samples between wait, their frames
 * held. A waiting sample counts as finding nothing only when the detected samples on both sides of it found nothing
 * and no cut lies between; otherwise it is detected after all (backfill), before the plan hears of any later sample. So
 * a face that arrives between two sentinels is found from the first sample it shows in, exactly as if every sample
 * had been detected, and footage without faces costs one detection in `sparse`. A face shown only between two
 * sentinels (under `sparse` samples, 1.6 s at 15 fps) is not found: the rule the old "every other sample" skip had
 * at half that length. While a face is in view, or after a cut, every sample is detected at once.
 */
import type { Rect } from './face-detect.js';

/** While nothing is in view, one sample in SPARSE is detected (clips: every 24th frame, 0.6 a second at 15 fps). */
export const SPARSE = 4;

/** A frame held by the filter; `frame` is null while the detection thread has its buffer. */
export interface HeldFrame {
  frame: Buffer | null;
  index: number;
}

/**
 * Faces in sampled frame `index` (`cut`: the picture cut since the sample before); the answer gives the same buffer
 * back (it travels to the detection thread).
 */
export type DetectFaces = (frame: Buffer, index: number, cut: boolean) => Promise<{ faces: Rect[]; frame: Buffer }>;

interface Entry {
  held: HeldFrame;
  /** The picture cut since the sample before. */
  cut: boolean;
  /** The detection, once asked; null while the sample waits. */
  answer: Promise<void> | null;
  /** Faces found, once answered. */
  faces: Rect[] | null;
}

export class FaceSampler {
  /** Samples not yet in the plan, in frame order. */
  private readonly queue: Entry[] = [];
  /** Samples offered since the last one asked (the next sentinel when it reaches `sparse`). */
  private sinceAsked = 0;
  /** The latest sample (by frame index) whose answer is known, and how many faces it found. */
  private latest = { index: -1, faces: 0 };
  /** Faces found at the sample the plan heard of last (the first sample has nothing before it). */
  private previousFaces = 0;
  /** Detections asked and not yet in the plan. */
  private asked = 0;
  /** Samples that counted as finding nothing without being detected. */
  skipped = 0;

  constructor(
    private readonly o: {
      /** One sample in `sparse` is detected while nothing is in view (1: every sample). */
      sparse: number;
      detect: DetectFaces;
      /** The plan hears of each sample here, in frame order. */
      add: (index: number, faces: Rect[], cut: boolean) => void;
    },
  ) {}

  /** A sampled frame arrives; `must`: detect it whatever came before (the first and the last frame). */
  offer(held: HeldFrame, cut: boolean, must = false): void {
    const e: Entry = { held, cut, answer: null, faces: null };
    this.queue.push(e);
    this.sinceAsked++;
    if (must || cut || this.o.sparse <= 1 || this.latest.faces > 0 || this.sinceAsked >= this.o.sparse) this.ask(e);
  }

  /** No more samples: a sample still waiting at the end is detected (nothing comes after it to decide). */
  finish(): void {
    const last = this.queue.at(-1);
    if (last && !last.answer) this.ask(last);
  }

  private ask(e: Entry): void {
    this.sinceAsked = 0;
    this.asked++;
    const frame = e.held.frame!;
    e.held.frame = null;
    e.answer = this.o.detect(frame, e.held.index, e.cut).then((r) => {
      e.held.frame = r.frame;
      e.faces = r.faces;
      if (e.held.index > this.latest.index) this.latest = { index: e.held.index, faces: r.faces.length };
    });
    // A failure is thrown where the answer is awaited (settle), not reported as unhandled before that.
    e.answer.catch(() => {});
  }

  /**
   * Gives the plan every sample that can be decided, in order, waiting for the oldest detection while more than
   * `limit` are out (0: everything offered is decided, after `finish`).
   */
  async settle(limit: number): Promise<void> {
    for (;;) {
      const head = this.queue[0];
      if (!head) return;
      if (head.answer) {
        if (head.faces === null && this.asked <= limit) return;
        await head.answer;
        this.queue.shift();
        this.asked--;
        this.previousFaces = head.faces!.length;
        this.o.add(head.held.index, head.faces!, head.cut);
        continue;
      }
      // A waiting sample: decided by the detected samples on both sides of it (a cut before the next one: the waiting
      // samples belong to the scene before it, which no detection after them saw).
      const next = this.queue.find((e) => e.answer);
      if (!next) return;
      if (next.faces === null) {
        if (this.asked <= limit) return;
        await next.answer;
      }
      const between = this.queue.slice(0, this.queue.indexOf(next));
      if (this.previousFaces > 0 || next.faces!.length > 0 || next.cut) {
        for (const e of between) this.ask(e);
        continue;
      }
      this.queue.shift();
      this.skipped++;
      this.o.add(head.held.index, [], head.cut);
    }
  }
}
