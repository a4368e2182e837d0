import type { Clip } from '../api/types.js';
import { locateFrame } from '../frame-math.js';
import type { WorkerBridge } from '../workers/worker-bridge.js';
import { bufferedFrames, type Downloads } from './decode-planner.js';
import { isAbortError, unlessAborted } from '../abortable.js';

const movingAverage = (previous: number | null, sample: number): number =>
  previous === null ? sample : previous * 0.7 + sample * 0.3;

/** What the prefetcher tells the decode controller that owns it (decode-controller.ts). */
export interface PrefetchEvents {
  /** A clip could not be fetched. */
  failed(e: unknown): void;
  /** A clip's download changed what can be planned (the scheduler plans again). */
  downloaded(): void;
  thumbnailArrived(clip: number, bitmap: ImageBitmap): void;
  loadedFramesChanged(frames: number): void;
}

/** A tour as the prefetcher downloads it. */
interface Tour {
  readonly clips: readonly Clip[];
  readonly starts: readonly number[];
  readonly counts: readonly number[];
  readonly total: number;
  readonly thumbSize: { width: number; height: number };
  /**
   * Its decode workers; a clip's fetches go to worker `clip % length`. When the tour ends they are disposed, and a
   * fetch still running rejects with an AbortError (worker-bridge.ts): nothing of it is kept.
   */
  readonly bridges: readonly WorkerBridge[];
}

/**
 * Downloads clips ahead of decoding, on the decode workers: the low rendition of every clip in order once the first
 * frame is on screen (the buffer progress and each clip's keyframe thumbnail), then the high clips of the prefetch
 * frames (the markers: fast-travel destinations). Keeps the fetch times the planner weighs a high decode by.
 */
export class ClipPrefetcher {
  private tour: Tour = {
    clips: [],
    starts: [],
    counts: [],
    total: 0,
    thumbSize: { width: 160, height: 90 },
    bridges: [],
  };
  private highEnabled = true;
  private prefetched: boolean[] = [];
  private loadedFrames = 0;
  /** High clips known to be downloaded (by a decode or a prefetch): see highPlannable in decode-planner.ts. */
  private highReady = new Set<number>();
  /** High clips on their way: a second ask for one waits for the same download. */
  private highFetching = new Map<number, Promise<void>>();
  /**
   * Recent fetch times (moving averages, ms): one high clip, and one low clip (a high clip is about four times its
   * bytes).
   */
  private highFetchMs: number | null = null;
  private lowFetchMs: number | null = null;
  /** Frames whose high clips are fetched once the low rendition is buffered. */
  private prefetchFrames: number[] = [];
  /** Every clip's low rendition is fetched (then the prefetch frames' high clips are). */
  private lowBuffered = false;

  constructor(private readonly events: PrefetchEvents) {}

  /** A new tour: nothing is downloaded yet. */
  reset(tour: Tour): void {
    this.tour = tour;
    this.prefetched = tour.clips.map(() => false);
    this.highReady = new Set();
    this.highFetching = new Map();
    this.highFetchMs = this.lowFetchMs = null;
    this.lowBuffered = false;
    this.loadedFrames = 0;
  }

  /** What decides whether a high decode of a clip is worth planning now (decode-planner.ts highPlannable reads it). */
  downloads(): Downloads {
    return { highReady: this.highReady, highFetchMs: this.highFetchMs, lowFetchMs: this.lowFetchMs };
  }

  /** A decode finished a clip: its low rendition counts as buffered, or its high clip as downloaded. */
  decoded(clip: number, rendition: 'low' | 'high'): void {
    if (rendition === 'high') this.highReady.add(clip);
    else this.markPrefetched(clip);
  }

  setPrefetchFrames(frames: number[]): void {
    this.prefetchFrames = [...frames];
    if (this.lowBuffered) this.prefetchHigh();
  }

  /** High frames were turned on or off: once the low rendition is buffered, the markers' high clips follow. */
  setHighEnabled(enabled: boolean): void {
    this.highEnabled = enabled;
    if (this.lowBuffered) this.prefetchHigh();
  }

  /**
   * Downloads and demuxes a high clip on its worker without decoding it (no decode queue, no busy worker). Resolves
   * once the clip is here, also when another caller (the markers' prefetch) started its download, or when it failed
   * (reported); rejects with an AbortError when the tour ended first.
   */
  fetchHigh(c: number): Promise<void> {
    const { bridges } = this.tour;
    const clip = this.tour.clips[c];
    const inFlight = this.highFetching.get(c);
    if (inFlight) return inFlight;
    if (this.highReady.has(c) || !bridges.length || !clip) return Promise.resolve();
    const t0 = performance.now();
    const fetching = bridges[c % bridges.length]!.prefetch('high', c, clip.highURI).then(
      () => {
        this.highFetchMs = movingAverage(this.highFetchMs, performance.now() - t0);
        this.highFetching.delete(c);
        this.highReady.add(c);
        this.events.downloaded();
      },
      (e: unknown) => {
        if (isAbortError(e)) throw e;
        this.highFetching.delete(c);
        this.events.failed(e);
      },
    );
    this.highFetching.set(c, fetching);
    return fetching;
  }

  /** Fetches the high clips of the prefetch frames (markers), one at a time. */
  private prefetchHigh(): void {
    if (!this.highEnabled) return;
    const { starts, counts } = this.tour;
    const clips = [...new Set(this.prefetchFrames.map((f) => locateFrame(starts, counts, f).clip))];
    const fetchAll = async () => {
      for (const c of clips) await this.fetchHigh(c);
    };
    fetchAll().catch(unlessAborted((e) => this.events.failed(e)));
  }

  /** Fetches the low rendition of every clip in order (not decoding it), each worker its share: the buffer progress. */
  startLow(): void {
    const { clips, thumbSize, bridges } = this.tour;
    const n = bridges.length;
    for (let w = 0; w < n; w++) {
      const bridge = bridges[w]!;
      // A failed download ends this worker's share (reported); the tour's end ends it quietly.
      const fetchShare = async () => {
        for (let c = w; c < clips.length; c += n) {
          const clip = clips[c]!;
          const t0 = performance.now();
          await bridge.prefetch('low', c, clip.lowURI);
          this.lowFetchMs = movingAverage(this.lowFetchMs, performance.now() - t0);
          this.markPrefetched(c);
          let thumbnail: ImageBitmap | undefined;
          try {
            thumbnail = await bridge.thumbnail('low', c, clip.lowURI, thumbSize.width, thumbSize.height);
          } catch (e) {
            if (isAbortError(e)) throw e;
            /* a missing thumbnail only means a plainer placeholder */
          }
          if (thumbnail) this.events.thumbnailArrived(c, thumbnail);
        }
      };
      fetchShare().catch(unlessAborted((e) => this.events.failed(e)));
    }
  }

  private markPrefetched(c: number): void {
    this.prefetched[c] = true;
    const loaded = bufferedFrames(this.prefetched, this.tour.starts, this.tour.total);
    if (loaded !== this.loadedFrames) {
      this.loadedFrames = loaded;
      this.events.loadedFramesChanged(loaded);
    }
    if (this.prefetched.every(Boolean) && !this.lowBuffered) {
      this.lowBuffered = true;
      this.prefetchHigh();
    }
  }
}
