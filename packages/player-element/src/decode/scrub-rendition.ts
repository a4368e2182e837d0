/**
 * The lower rendition while the finger moves fast: which rendition decoding follows a scrub in. Pure (no timers, no
 * DOM): the decode controller feeds it the user's moves with the time and whether the exact 720p frame had arrived,
 * asks `lower(now)` when it plans, and plans again at `recheckAt` (when the finger may have come to rest). Unit-tested
 * in scrub-rendition.unit.test.ts.
 *
 * A scrub faster than 720p frames are decoded shows stale frames and thumbnails: the playhead passes positions before
 * their exact frame arrives. A 360p frame costs a quarter of the decoding, copying and painting, so while the finger
 * moves fast and 720p frames arrive late, the frames the finger is heading for are decoded in 360p (the right picture,
 * softer); once the finger slows or rests, the exact 720p frame for where it is. A scrub whose 720p frames keep up
 * stays in 720p, however fast; one whose 720p frames are mostly on time stays too (a few late frames at 720p beat every
 * frame at 360p: Firefox's decoder keeps up with nine scrub positions in ten).
 *
 * While in 360p the 720p frames cannot show whether they would now keep up (none is decoded), so after `probeMs` the
 * scrub tries 720p again with a fresh history: a device that was busy for a moment, or a scrub that began before the
 * frames ahead were decoded, is not held in 360p for the rest of a long scrub.
 */

export interface ScrubRenditionOptions {
  /**
   * Frames a second (over `windowMs`) from which a scrub counts as fast: twice the tours' 15 fps, faster than walking.
   */
  fastFps: number;
  /** Below this the finger has slowed: 720p again. */
  slowFps: number;
  /** Moves whose exact frame was late, within `lateWindowMs`, that turn a fast scrub to the lower rendition... */
  lateMoves: number;
  /**
   * ...when they are also at least this share of that window's moves: most of the scrub is late, not a hiccup, not the
   * keyframe-to-playhead catch-up of a pass that starts at a clip's boundary or after 720p is tried again.
   */
  lateShare: number;
  /** The time over which lateness is taken: longer than a pass's catch-up. */
  lateWindowMs: number;
  /** How long the lower rendition lasts before 720p is tried again, the finger still fast. */
  probeMs: number;
  /** The time over which speed is taken (and after which a finger that stopped moving rests). */
  windowMs: number;
}

export const SCRUB_RENDITION: ScrubRenditionOptions = {
  fastFps: 30,
  slowFps: 12,
  lateMoves: 3,
  lateShare: 0.85,
  lateWindowMs: 500,
  probeMs: 1000,
  windowMs: 250,
};

export class ScrubRendition {
  private moves: { at: number; frames: number; late: boolean }[] = [];
  private last: number | null = null;
  private low = false;
  private lowSince = 0;
  /** When the history began (the scrub's first move, or 720p tried again): lateness needs a full window of it. */
  private since: number | null = null;

  constructor(private readonly o: ScrubRenditionOptions = SCRUB_RENDITION) {}

  /**
   * A user's move of the playhead (a step, a swipe's refresh, a wheel turn; not a jump or a travel) to `frame` at
   * `now` (ms). `late`: the position left (or the one the finger wanted) had no exact frame decoded yet.
   */
  move(frame: number, now: number, late: boolean): void {
    const frames = this.last === null ? 0 : Math.abs(frame - this.last);
    this.last = frame;
    this.moves.push({ at: now, frames, late });
    this.since ??= now;
    this.forget(now);
  }

  /** The playhead jumped or a travel began: the scrub's history no longer says anything. */
  reset(): void {
    this.moves = [];
    this.last = null;
    this.low = false;
    this.since = null;
  }

  /** Frames a second over the window up to `now` (0 once the finger rests for the window). */
  speed(now: number): number {
    this.forget(now);
    const from = now - this.o.windowMs;
    const frames = this.moves.reduce((n, m) => n + (m.at > from ? m.frames : 0), 0);
    return (frames * 1000) / this.o.windowMs;
  }

  /** Whether decoding follows the scrub in the lower rendition at `now`. */
  lower(now: number): boolean {
    const speed = this.speed(now);
    if (this.low) {
      if (speed < this.o.slowFps) this.low = false;
      else if (now - this.lowSince >= this.o.probeMs) {
        // Try 720p again: only moves made from now on say whether it keeps up.
        this.moves = [];
        this.since = null;
        this.low = false;
      }
    } else if (speed >= this.o.fastFps && this.since !== null && now - this.since >= this.o.lateWindowMs) {
      const late = this.moves.filter((m) => m.late).length; // over lateWindowMs
      if (late >= this.o.lateMoves && late >= this.o.lateShare * this.moves.length) {
        this.low = true;
        this.lowSince = now;
      }
    }
    return this.low;
  }

  /**
   * What a plan asks at `now`, in one question: whether decoding follows the scrub in the lower rendition (`lower`,
   * asked only when `ask`: hi-res on and no travel; false otherwise), then when to plan again (`recheckAt`).
   */
  plan(now: number, ask: boolean): [lower: boolean, recheckAt: number | null] {
    return [ask && this.lower(now), this.recheckAt()];
  }

  /**
   * When `lower` may turn false with no further move (the finger resting): the last move leaves the window then. Null
   * when not in the lower rendition.
   */
  recheckAt(): number | null {
    const m = this.moves.at(-1);
    return this.low && m ? m.at + this.o.windowMs : null;
  }

  private forget(now: number): void {
    const from = now - Math.max(this.o.windowMs, this.o.lateWindowMs);
    while (this.moves.length && this.moves[0]!.at <= from) this.moves.shift();
  }
}
