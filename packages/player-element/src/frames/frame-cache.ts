import type { DecodedFrame, Rendition } from '../workers/decode-types.js';

/** A frame behind the playhead counts this many times its distance when choosing what to evict. */
const BEHIND_WEIGHT = 3;

/**
 * Bounded cache of decoded frames (I420 copies), one byte budget per rendition. When a budget is
 * reached the frame farthest from the playhead goes first, frames behind the direction of travel
 * counting three times their distance, so the frames just ahead (decoded for the next refreshes)
 * are never dropped for ones already passed. VideoFrames never live here: they are closed in the worker.
 */
export class FrameCache {
  private maps: Record<Rendition, Map<number, DecodedFrame>> = { low: new Map(), high: new Map() };
  /**
   * The frames kept per rendition by tour frame, read as they are now (read-only views of the maps: the frames and the
   * planner read them without a call per frame).
   */
  readonly kept: Readonly<Record<Rendition, ReadonlyMap<number, DecodedFrame>>> = this.maps;
  /** Bytes per entry, taken at put: the pixels themselves go on to the paint worker (their buffer is then detached). */
  private sizes: Record<Rendition, Map<number, number>> = { low: new Map(), high: new Map() };
  /** Called for every frame the budget evicts (the paint worker drops its pixels). */
  onEvict: (r: Rendition, frame: number) => void = () => {};
  private bytes: Record<Rendition, number> = { low: 0, high: 0 };
  private position = 0;
  private direction = 1;
  private pinned: number | null = null;
  peakBytes = 0;

  constructor(private budget: Record<Rendition, number>) {}

  setBudget(budget: Record<Rendition, number>): void {
    this.budget = budget;
    this.trim('low', 0);
    this.trim('high', 0);
  }

  get totalBytes(): number {
    return this.bytes.low + this.bytes.high;
  }

  get size(): number {
    return this.maps.low.size + this.maps.high.size;
  }

  /**
   * Where the playhead is and where it goes; `pinned` (a fast-travel destination) is kept like the playhead's own
   * frame.
   */
  focus(position: number, direction: number, pinned: number | null = null): void {
    this.position = position;
    this.direction = direction < 0 ? -1 : 1;
    this.pinned = pinned;
  }

  /** How far a frame is from where it will be needed; the highest goes first. */
  private distance(frame: number): number {
    const d = (frame - this.position) * this.direction;
    const s = d >= 0 ? d : -d * BEHIND_WEIGHT;
    return this.pinned === null ? s : Math.min(s, Math.abs(frame - this.pinned));
  }

  /**
   * Inserts a frame at a tour frame index, first evicting the frames farthest from the playhead so the budget is never
   * exceeded.
   */
  put(tourFrame: number, f: DecodedFrame): void {
    const m = this.maps[f.rendition];
    const sizes = this.sizes[f.rendition];
    const old = sizes.get(tourFrame);
    if (old !== undefined) {
      m.delete(tourFrame);
      sizes.delete(tourFrame);
      this.bytes[f.rendition] -= old;
    }
    const size = f.data.byteLength;
    this.trim(f.rendition, size);
    m.set(tourFrame, f);
    sizes.set(tourFrame, size);
    this.bytes[f.rendition] += size;
    this.peakBytes = Math.max(this.peakBytes, this.totalBytes);
  }

  /** Evicts the frames farthest from the playhead until `room` more bytes fit the budget. */
  private trim(r: Rendition, room: number): void {
    const m = this.maps[r];
    while (m.size && this.bytes[r] + room > this.budget[r]) {
      let victim = -1;
      let worst = -1;
      for (const k of m.keys()) {
        const s = this.distance(k);
        if (s > worst) {
          worst = s;
          victim = k;
        }
      }
      this.bytes[r] -= this.sizes[r].get(victim)!;
      m.delete(victim);
      this.sizes[r].delete(victim);
      this.onEvict(r, victim);
    }
  }

  /** Nearest cached frame to `frame` in either rendition, preferring high at equal distance. */
  nearest(frame: number, maxDistance: number): { frame: number; data: DecodedFrame } | undefined {
    let best: { frame: number; data: DecodedFrame } | undefined;
    let bestD = Infinity;
    for (const r of ['high', 'low'] as const) {
      for (const [k, v] of this.maps[r]) {
        const d = Math.abs(k - frame);
        if (d < bestD && d <= maxDistance) {
          bestD = d;
          best = { frame: k, data: v };
        }
      }
    }
    return best;
  }

  clear(): void {
    for (const r of ['low', 'high'] as const) {
      this.maps[r].clear();
      this.sizes[r].clear();
    }
    this.bytes = { low: 0, high: 0 };
  }
}
