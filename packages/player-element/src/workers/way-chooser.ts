/**
 * Which of two ways a worker makes the bitmaps of one shape (frame-bitmap.ts Way: the pixels converted and put, or a
 * VideoFrame of them drawn by the browser): chosen by timing both, and kept under watch, because a choice made in the
 * first second can be wrong for the rest of the visit (a busy moment, a way's first-time cost): in two Firefox runs
 * of eighteen (session 24) the paint worker kept the conversion for 720p, twice as slow there, and the scrub fell from
 * 88-96 % to 12 % and 90 % for the whole run.
 *
 * Trials first: the ways alternate, TRIALS bitmaps each, and the one whose fastest was faster is kept (the fastest: a
 * busy moment does not move it; the median did). Then every `every`-th bitmap is made the other way (a re-check), and
 * paired with the kept way's fastest since the last re-check; the last TRIALS such pairs decide again, so the trials'
 * own figures leave the window after TRIALS re-checks and a wrong choice is undone within RECHECK * TRIALS bitmaps at
 * most (a way that became faster, sooner: its one fast re-check lowers its fastest). Only a faster way replaces the
 * kept one: pairing a single re-check with the kept way's single bitmap before it flipped Firefox's paint worker to
 * the slower way on ties and busy moments (`converted again (21.0 against 21.0 ms)`), for 32 bitmaps or more. The further behind the other way
 * is, the rarer its re-check (up to RARE): drawing, five times slower in software Chromium, costs one late bitmap in
 * 256 there, not one in 32.
 */
export type Way = 'copy' | 'draw';

/** Bitmaps each way is timed on before the first choice, and the re-check pairs a later choice is made from. */
export const TRIALS = 4;
/** Every RECHECK-th bitmap made the other way, while the two are within BEHIND of each other. */
export const RECHECK = 32;
/** The rarest re-check: every RARE-th bitmap, for a way over BEHIND times slower (the interval doubles each time). */
export const RARE = 256;
const BEHIND = 2;

/** A choice made or changed: the way now kept, whether it replaced another, and each way's fastest (ms). */
export interface Choice {
  way: Way;
  changed: boolean;
  ms: Record<Way, number>;
}

const other = (way: Way): Way => (way === 'copy' ? 'draw' : 'copy');
const fastest = (times: number[]): number => Math.min(...times);

export class WayChooser {
  private readonly times: Record<Way, number[]> = { copy: [], draw: [] };
  private kept: Way | undefined;
  /** Bitmaps made since the choice, and the interval of re-checks. */
  private made = 0;
  private every = RECHECK;
  /** The kept way's fastest since the last re-check, paired with the next one. */
  private keptSince = Number.POSITIVE_INFINITY;

  /** The way kept (undefined during the trials). */
  get way(): Way | undefined {
    return this.kept;
  }

  /** The way the next bitmap is made. */
  next(): Way {
    if (!this.kept) return this.times.copy.length > this.times.draw.length ? 'draw' : 'copy';
    this.made++;
    return this.made % this.every === 0 ? other(this.kept) : this.kept;
  }

  /** A bitmap made `way` took `ms`. Returns the choice when it was made or changed, else undefined. */
  record(way: Way, ms: number): Choice | undefined {
    if (!this.kept) {
      this.times[way].push(ms);
      if (this.times.draw.length < TRIALS || this.times.copy.length < TRIALS) return undefined;
      return this.decide(undefined);
    }
    if (way === this.kept) {
      this.keptSince = Math.min(this.keptSince, ms);
      return undefined;
    }
    const before = this.kept;
    this.push(way, ms);
    if (this.keptSince < Number.POSITIVE_INFINITY) this.push(before, this.keptSince);
    this.keptSince = Number.POSITIVE_INFINITY;
    const choice = this.decide(before);
    const kept = this.kept;
    this.every =
      fastest(this.times[other(kept)]) > BEHIND * fastest(this.times[kept]) ? Math.min(this.every * 2, RARE) : RECHECK;
    return choice;
  }

  private push(way: Way, ms: number): void {
    const times = this.times[way];
    times.push(ms);
    if (times.length > TRIALS) times.splice(0, times.length - TRIALS);
  }

  /**
   * Keeps the way whose fastest is faster (a tie keeps the way kept: the timers of Firefox's workers count whole
   * milliseconds); the choice when that is a change from `before`.
   */
  private decide(before: Way | undefined): Choice | undefined {
    const ms = { draw: fastest(this.times.draw), copy: fastest(this.times.copy) };
    if (before && ms[other(before)] >= ms[before]) return undefined;
    // The first choice on a tie of the fastest goes by all the trials: a tie says nothing, and went to the conversion
    // in the one Firefox run of 12 that collapsed beside a busy core (`converted (8.0 against 8.0 ms)`, the scrub 38.6 %:
    // late 720p bitmaps turned the scrub to 360p, where 720p bitmaps are too few for the re-checks to come soon).
    const total = (way: Way) => this.times[way].reduce((a, b) => a + b, 0);
    const tie = ms.draw === ms.copy;
    this.kept = (tie ? total('draw') < total('copy') : ms.draw < ms.copy) ? 'draw' : 'copy';
    if (this.kept === before) return undefined;
    this.made = 0;
    return { way: this.kept, changed: before !== undefined, ms };
  }
}
