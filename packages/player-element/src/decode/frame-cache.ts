import type { DecodedFrame, Rendition } from '../workers/decode-types.js';

/**
 * Bounded cache of decoded frames (I420 copies), one byte budget per rendition, evicting the
 * least recently used first. VideoFrames never live here: they are closed in the worker.
 */
export class FrameCache {
  private maps: Record<Rendition, Map<number, DecodedFrame>> = { low: new Map(), high: new Map() };
  private bytes: Record<Rendition, number> = { low: 0, high: 0 };
  peakBytes = 0;

  constructor(private readonly budget: Record<Rendition, number>) {}

  get totalBytes(): number {
    return this.bytes.low + this.bytes.high;
  }

  get size(): number {
    return this.maps.low.size + this.maps.high.size;
  }

  has(rendition: Rendition, frame: number): boolean {
    return this.maps[rendition].has(frame);
  }

  /** Returns a frame and marks it most recently used. */
  get(rendition: Rendition, frame: number): DecodedFrame | undefined {
    const m = this.maps[rendition];
    const f = m.get(frame);
    if (f) {
      m.delete(frame);
      m.set(frame, f);
    }
    return f;
  }

  /** Inserts a frame at a tour frame index, evicting least recently used frames first so the budget is never exceeded. */
  put(tourFrame: number, f: DecodedFrame): void {
    const m = this.maps[f.rendition];
    const old = m.get(tourFrame);
    if (old) {
      m.delete(tourFrame);
      this.bytes[f.rendition] -= old.data.byteLength;
    }
    const size = f.data.byteLength;
    for (const [k, v] of m) {
      if (this.bytes[f.rendition] + size <= this.budget[f.rendition]) break;
      m.delete(k);
      this.bytes[f.rendition] -= v.data.byteLength;
    }
    m.set(tourFrame, f);
    this.bytes[f.rendition] += size;
    this.peakBytes = Math.max(this.peakBytes, this.totalBytes);
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
    this.maps.low.clear();
    this.maps.high.clear();
    this.bytes = { low: 0, high: 0 };
  }
}
