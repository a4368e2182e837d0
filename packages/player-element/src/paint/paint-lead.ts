/**
 * Fewest and most frames ahead of the playhead whose bitmaps are asked for (at most 10 ready bitmaps: 9.5 MB at
 * 650x366).
 */
export const LEAD_MIN = 4;
export const LEAD_MAX = 8;
/** On-time paints in a row (two seconds of scrubbing) before the lead shrinks by one frame. */
const ON_TIME_TO_SHRINK = 120;
/** One refresh at 60 Hz: a worker that takes longer per bitmap is short of CPU, not late to start. */
const REFRESH_MS = 1000 / 60;

/**
 * How far ahead of the playhead the paint worker works, adapted to this device while it runs. Four frames (66 ms at one
 * frame a refresh) suffice on a quiet machine. Where the bitmap of a decoded frame is still missing when its refresh
 * comes and the worker makes a bitmap in less than a refresh (it started too late: jitter), the lead grows by two
 * frames; where a bitmap takes longer than a refresh (the CPU is short), it does not grow, since more bitmaps ahead
 * only take cores from decoding (bench, desktop beside a busy core at load ~40: 53-64 % exact frames at 4, 15-34 % when
 * growing regardless). It shrinks again after two seconds on time, so a quiet device does not make bitmaps it may
 * never show.
 */
export class PaintLead {
  frames = LEAD_MIN;
  /** Paints that found the bitmap late, for stats(). */
  late = 0;
  private onTime = 0;
  /** The worker's recent time per bitmap (moving average, ms). */
  private costMs = 0;

  /** The paint worker made a bitmap in `ms` (wall time in the worker). */
  cost(ms: number): void {
    this.costMs = this.costMs ? this.costMs * 0.8 + ms * 0.2 : ms;
  }

  /** A paint of a decoded frame: its bitmap was ready (on time) or not yet (late). */
  note(late: boolean): void {
    if (late) {
      this.late++;
      this.onTime = 0;
      if (this.costMs < REFRESH_MS) this.frames = Math.min(LEAD_MAX, this.frames + 2);
      return;
    }
    if (++this.onTime < ON_TIME_TO_SHRINK) return;
    this.onTime = 0;
    this.frames = Math.max(LEAD_MIN, this.frames - 1);
  }
}
