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
 * stays in 720p, however fast.
 */

export interface ScrubRenditionOptions {
  /**
   * Frames a second (over `windowMs`) from which a scrub counts as fast: twice the tours' 15 fps, faster than walking.
   */
  fastFps: number;
  /** Below this the finger has slowed: 720p again. */
  slowFps: number;
  /** Moves whose exact frame was late, within `windowMs`, that turn a fast scrub to the lower rendition. */
  lateMoves: number;
  /** The time over which speed and lateness are taken. */
  windowMs: number;
}

export const SCRUB_RENDITION: ScrubRenditionOptions = { fastFps: 30, slowFps: 12, lateMoves: 3, windowMs: 250 };

export class ScrubRendition {
  private moves: { at: number; frames: number; late: boolean }[] = [];
  private last: number | null = null;
  private low = false;

  constructor(private readonly o: ScrubRenditionOptions = SCRUB_RENDITION) {}

  /**
   * A user's move of the playhead (a step, a swipe's refresh, a wheel turn; not a jump or a travel) to `frame` at
   * `now` (ms). `late`: the position left (or the one the finger wanted) had no exact frame decoded yet.
   */
  move(frame: number, now: number, late: boolean): void {
    const frames = this.last === null ? 0 : Math.abs(frame - this.last);
    this.last = frame;
    this.moves.push({ at: now, frames, late });
    this.forget(now);
  }

  /** The playhead jumped or a travel began: the scrub's history no longer says anything. */
  reset(): void {
    this.moves = [];
    this.last = null;
    this.low = false;
  }

  /** Frames a second over the window up to `now` (0 once the finger rests for the window). */
  speed(now: number): number {
    this.forget(now);
    const frames = this.moves.reduce((n, m) => n + m.frames, 0);
    return (frames * 1000) / this.o.windowMs;
  }

  /** Whether decoding follows the scrub in the lower rendition at `now`. */
  lower(now: number): boolean {
    const speed = this.speed(now);
    if (this.low) {
      if (speed < this.o.slowFps) this.low = false;
    } else if (speed >= this.o.fastFps && this.moves.filter((m) => m.late).length >= this.o.lateMoves) this.low = true;
    return this.low;
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
    const from = now - this.o.windowMs;
    while (this.moves.length && this.moves[0]!.at <= from) this.moves.shift();
  }
}
