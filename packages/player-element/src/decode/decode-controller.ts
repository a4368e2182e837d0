import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { CACHE_BUDGET } from '../constants.js';
import { cacheBudget, pickDrawable, type Drawable, thumbnailSize } from './decode-planner.js';
import { clipFrameCounts, clipStarts, totalFrames } from '../frame-math.js';
import { batchSize, canDecodeHighRes, readDevice, workerCount, type DeviceProfile } from '../device.js';
import type { Clip } from '../api/types.js';
import { sumWorkerStats, WorkerBridge } from '../workers/worker-bridge.js';
import { ClipPrefetcher } from './clip-prefetcher.js';
import { DecodeScheduler } from './decode-scheduler.js';
import { FrameCache } from './frame-cache.js';
import type { PaintBridge } from '../paint/paint-bridge.js';
import type { DecodeFocus, FrameSource } from './frame-source.js';
import type { DecodeEvents } from './decode-events.js';

/** The tours' codec (H.264 High, media/encoding.ts on the server): what prewarm asks the decoder about. */
const TOUR_CODEC = 'avc1.64001f';

export type { Drawable, DecodeEvents };

/**
 * Owns the tour, the decode workers and the bounded frame cache, and keeps the counters `stats()` reports. Which
 * decode runs where and when is the scheduler's (decode-scheduler.ts); downloading ahead is the clip prefetcher's.
 */
export class DecodeController implements ReactiveController, FrameSource, DecodeFocus {
  readonly cache = new FrameCache({ high: CACHE_BUDGET.highBytes, low: CACHE_BUDGET.lowBytes });
  private bridges: WorkerBridge[] = [];
  private clips: Clip[] = [];
  private counts: number[] = [];
  private starts: number[] = [];
  private highEnabled = true;
  private device: DeviceProfile = readDevice();
  private batch = 20;
  /**
   * The tour being decoded: aborted when it ends (a new tour, a fallback, the element leaving), so late answers are
   * dropped.
   */
  private tour = new AbortController();
  /** Downloads ahead of decoding: every clip's low rendition, then the markers' high clips (clip-prefetcher.ts). */
  private readonly prefetcher: ClipPrefetcher;
  /** Workers started before a tour is known (prewarm), taken by the next load(). */
  private warm: WorkerBridge[] = [];
  /** Which decode runs on which worker, following the playhead (decode-scheduler.ts). */
  private readonly scheduler: DecodeScheduler;
  /** Peak of cache, frames in transit, thumbnails and ready bitmaps (notePeak); the bench reads it. */
  peakDecodedBytes = 0;
  decodeErrors = 0;

  /**
   * @param paint The canvas's paint bridge (paint/paint-bridge.ts): the decoded pixels go there, to the paint worker,
   *   which makes the canvas's bitmaps; the decoder adds the keyframe thumbnails and the bitmaps a jump waits for.
   */
  constructor(
    controllerHost: ReactiveControllerHost,
    private readonly host: DecodeEvents,
    readonly paint: PaintBridge,
  ) {
    controllerHost.addController(this);
    const self = this;
    this.prefetcher = new ClipPrefetcher({
      get bridges() {
        return self.bridges;
      },
      get highEnabled() {
        return self.highEnabled;
      },
      failed: (e) => this.decodeFailed(e),
      pump: () => this.scheduler.pump(),
      thumbnailArrived: (clip, bitmap) => {
        this.paint.addThumb(clip, bitmap);
        this.notePeak();
      },
      loadedFramesChanged: (frames) => this.host.onLoadedFramesChange(frames),
    });
    this.scheduler = new DecodeScheduler({
      get bridges() {
        return self.bridges;
      },
      get highEnabled() {
        return self.highEnabled;
      },
      get clips() {
        return self.clips;
      },
      get starts() {
        return self.starts;
      },
      get counts() {
        return self.counts;
      },
      get batch() {
        return self.batch;
      },
      cache: this.cache,
      paint: this.paint,
      prefetcher: this.prefetcher,
      failed: (e) => this.decodeFailed(e),
      framesArrived: () => this.host.onFramesArrived(),
      notePeak: () => this.notePeak(),
    });
    this.cache.onEvict = (r, f) => this.paint.op({ drop: `${r}:${f}` });
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.dispose();
  }

  get total(): number {
    return totalFrames(this.counts);
  }
  get loaded(): number {
    return this.prefetcher.loaded;
  }
  get workers(): number {
    return this.bridges.length;
  }
  /** Decodes cancelled because the playhead left them behind (the bench and `stats()` read it). */
  get cancelledJobs(): number {
    return this.scheduler.cancelledJobs;
  }

  /**
   * Starts the workers while the tour query is in flight, so their scripts load and the decoder's set-up is paid before
   * the first clip arrives (WebKit spends up to a second on each). `load` takes them; `dispose` ends those not taken.
   */
  prewarm(): void {
    if (typeof VideoDecoder === 'undefined' || this.warm.length > 0 || this.bridges.length > 0) return;
    this.paint.start();
    for (let i = workerCount(this.device, PLAYER.maxWorkers); i > 0; i--) {
      const bridge = new WorkerBridge(() => {});
      bridge.api.warm(TOUR_CODEC).catch(() => {});
      this.warm.push(bridge);
    }
  }

  /** Starts decoding a tour; frame 0 comes first in the low rendition. */
  load(clips: Clip[], options: { hiRes: boolean; aspect?: number }): void {
    this.stop();
    this.clips = [...clips].sort((a, b) => a.index - b.index);
    this.counts = clipFrameCounts(this.clips);
    this.starts = clipStarts(this.counts);
    this.setHighEnabledFlag(options.hiRes);
    this.batch = batchSize(this.device);
    const n = workerCount(this.device, this.clips.length);
    const { signal } = this.tour;
    this.paint.start();
    const onCrash = (message: string) => {
      if (!signal.aborted) this.host.onDecodeError(message);
    };
    for (let i = 0; i < n; i++) {
      const bridge = this.warm.shift() ?? new WorkerBridge(onCrash);
      bridge.onCrash = onCrash;
      this.bridges.push(bridge);
    }
    for (const b of this.warm) b.dispose();
    this.warm = [];
    this.prefetcher.reset({
      clips: this.clips,
      starts: this.starts,
      counts: this.counts,
      total: this.total,
      thumbSize: thumbnailSize(this.clips.length, options.aspect),
    });
    this.scheduler.start(n);
  }

  setHighEnabled(enabled: boolean): void {
    this.setHighEnabledFlag(enabled);
    this.prefetcher.highEnabledChanged();
    this.scheduler.pump();
  }

  private setHighEnabledFlag(enabled: boolean): void {
    this.highEnabled = enabled && canDecodeHighRes(this.device);
    this.cache.setBudget(cacheBudget(this.highEnabled, canDecodeHighRes(this.device)));
  }

  /** Frames whose high clips are worth fetching ahead (the markers); fetched once the low rendition is buffered. */
  setPrefetchFrames(frames: number[]): void {
    this.prefetcher.setPrefetchFrames(frames);
  }

  /** Sets (or clears) the fast-travel destination so its exact frame is ready on arrival. */
  setDestination(frame: number | null): void {
    this.scheduler.setDestination(frame);
  }

  /** Moves the playhead; decoding follows in the direction of travel (and a far jump's frame comes first). */
  setPosition(frame: number): void {
    this.scheduler.setPosition(frame);
  }

  /**
   * Best frame to show for `frame` right now (decode-planner's pickDrawable); `thumbnail`: its clip's thumbnail only.
   */
  drawable(frame: number, thumbnail = false): Drawable | undefined {
    const cache = thumbnail ? { get: () => undefined, nearest: () => undefined } : this.cache;
    return pickDrawable(frame, {
      cache,
      highEnabled: this.highEnabled,
      starts: this.starts,
      counts: this.counts,
      thumbs: this.paint.thumbs,
    });
  }

  /** A keyframe thumbnail to show: the paint bridge keeps its copy. */
  takeBitmap(bitmap: ImageBitmap): ImageBitmap | undefined {
    return this.paint.takeThumb(bitmap);
  }

  has(frame: number): boolean {
    return this.cache.has('low', frame) || this.cache.has('high', frame);
  }

  isExact(frame: number): boolean {
    return this.highEnabled ? this.cache.has('high', frame) : this.cache.has('low', frame);
  }

  /** Worker-side counters summed over workers (open VideoFrames, decoded count). */
  async workerStats() {
    return sumWorkerStats(await Promise.all(this.bridges.map((b) => b.api.stats())));
  }

  /** Ends the tour's decoding, its workers and every frame, and the warm workers no tour took. */
  dispose(): void {
    this.stop();
    for (const b of this.warm) b.dispose();
    this.warm = [];
    this.paint.dispose();
  }

  /**
   * Ends the tour's decoding and its workers; warm workers (prewarm) and a paint worker never used stay for the next.
   */
  private stop(): void {
    this.tour.abort();
    this.tour = new AbortController();
    for (const b of this.bridges) b.dispose();
    this.bridges = [];
    this.scheduler.stop();
    this.cache.clear();
    this.paint.dispose(true);
  }

  /** A clip could not be fetched or decoded: the player's "Failed to Load". */
  private decodeFailed(e: unknown): void {
    this.decodeErrors++;
    this.host.onDecodeError(e instanceof Error ? e.message : String(e));
  }

  /** Keeps the peak of cache, frames in transit, thumbnails and ready bitmaps (`peakDecodedBytes`). */
  notePeak(): void {
    this.peakDecodedBytes = Math.max(
      this.peakDecodedBytes,
      this.cache.totalBytes + this.scheduler.inflightBytes + this.paint.thumbBytes + this.paint.bitmapBytes,
    );
  }
}
