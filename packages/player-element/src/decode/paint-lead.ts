/** Fewest and most frames ahead of the playhead whose bitmaps are asked for (at most 10 ready bitmaps: 9.5 MB at 650x366). */
export const LEAD_MIN = 4;
export const LEAD_MAX = 8;
/** On-time paints in a row (two seconds of scrubbing) before the lead shrinks by one frame. */
const ON_TIME_TO_SHRINK = 120;

/**
 * How far ahead of the playhead the paint worker works, adapted to this device while it runs. Four frames (66 ms at one
 * frame a refresh) suffice on a quiet machine; where the bitmap of a decoded frame is still missing when its refresh
 * comes (a busy or slow CPU: the worker waits for a core), the lead grows by two frames, and it shrinks again after
 * two seconds on time, so a quiet device does not make bitmaps it may never show.
 */
export class PaintLead {
  frames = LEAD_MIN;
  /** Paints that found the bitmap late, for stats(). */
  late = 0;
  private onTime = 0;

  /** A paint of a decoded frame: its bitmap was ready (on time) or not yet (late). */
  note(late: boolean): void {
    if (late) {
      this.late++;
      this.onTime = 0;
      this.frames = Math.min(LEAD_MAX, this.frames + 2);
      return;
    }
    if (++this.onTime < ON_TIME_TO_SHRINK) return;
    this.onTime = 0;
    this.frames = Math.max(LEAD_MIN, this.frames - 1);
  }
}
