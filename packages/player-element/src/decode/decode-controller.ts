import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { CACHE_BUDGET } from '../constants.js';
import { cacheBudget, thumbnailSize } from './decode-planner.js';
import { clipFrameCounts, clipStarts, frameClips, totalFrames } from '../frame-math.js';
import { batchSize, canDecodeHighRes, readDevice, workerCount, type DeviceProfile } from '../device.js';
import type { Clip } from '../api/types.js';
import { sumWorkerStats, WorkerBridge } from '../workers/worker-bridge.js';
import { ClipPrefetcher } from './clip-prefetcher.js';
import { DecodeScheduler } from './decode-scheduler.js';
import { DecodedFrames } from '../frames/decoded-frames.js';
import type { PixelSink } from '../paint/pixel-sink.js';
import type { DecodeEvents } from './decode-events.js';

/** The tours' codec (H.264 High, media/encoding.ts on the server): what prewarm asks the decoder about. */
const TOUR_CODEC = 'avc1.64001f';

export type { DecodeEvents };

/**
 * Owns the tour's decoding: its workers, the frames kept (frames/decoded-frames.ts, the decoder's FrameSource), and
 * the counters `stats()` reports. What to decode is the planner's (decode-planner.ts), which decode runs where and
 * when the scheduler's (decode-scheduler.ts, the playhead's DecodeFocus), downloading ahead the clip prefetcher's;
 * the pixels go to the canvas (PixelSink), which paints them.
 */
export class DecodeController implements ReactiveController {
  /** The frames kept: what the canvas and the input read, what the scheduler fills. */
  readonly frames: DecodedFrames;
  /** Which decode runs on which worker, following the playhead (decode-scheduler.ts). */
  readonly scheduler: DecodeScheduler;
  private bridges: WorkerBridge[] = [];
  private device: DeviceProfile = readDevice();
  /**
   * The tour being decoded: aborted when it ends (a new tour, a fallback, the element leaving), so a crash reported
   * late is dropped.
   */
  private tour = new AbortController();
  /** Downloads ahead of decoding: every clip's low rendition, then the markers' high clips (clip-prefetcher.ts). */
  private readonly prefetcher: ClipPrefetcher;
  /** Workers started before a tour is known (prewarm), taken by the next load(). */
  private warm: WorkerBridge[] = [];
  /**
   * Peak of what the decoder holds at once: cache, frames in transit and thumbnails (notePeak). The bitmaps the paint
   * makes are the canvas's to count (`stats()` adds their peak); the decoder never asks for them on its way.
   */
  peakDecodedBytes = 0;
  decodeErrors = 0;

  /** @param sink The canvas: the decoded pixels go there, and it makes and shows their bitmaps. */
  constructor(
    controllerHost: ReactiveControllerHost,
    private readonly host: DecodeEvents,
    private readonly sink: PixelSink,
  ) {
    controllerHost.addController(this);
    this.frames = new DecodedFrames({ high: CACHE_BUDGET.highBytes, low: CACHE_BUDGET.lowBytes }, sink, () =>
      this.host.onFramesArrived(),
    );
    this.prefetcher = new ClipPrefetcher({
      failed: (e) => this.decodeFailed(e),
      downloaded: () => this.scheduler.pump(),
      thumbnailArrived: (clip, bitmap) => {
        this.frames.addThumbnail(clip, bitmap);
        this.notePeak(this.scheduler.inflightBytes);
      },
      loadedFramesChanged: (frames) => this.host.onLoadedFramesChange(frames),
    });
    this.scheduler = new DecodeScheduler(this.frames, sink, this.prefetcher, {
      failed: (e) => this.decodeFailed(e),
      framesArrived: () => this.host.onFramesArrived(),
      notePeak: (inflight) => this.notePeak(inflight),
    });
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.dispose();
  }

  get workers(): number {
    return this.bridges.length;
  }
  /** Decodes cancelled because the playhead left them behind (the bench and `stats()` read it). */
  get cancelledJobs(): number {
    return this.scheduler.cancelledJobs;
  }
  /** Rests whose exact frame a running pass handed back first (decode-scheduler.ts rest; the bench reads it). */
  get rushedRests(): number {
    return this.scheduler.rushedRests;
  }

  /**
   * Starts the workers while the tour query is in flight, so their scripts load and the decoder's set-up is paid before
   * the first clip arrives (WebKit spends up to a second on each). `load` takes them; `dispose` ends those not taken.
   */
  prewarm(): void {
    if (typeof VideoDecoder === 'undefined' || this.warm.length > 0 || this.bridges.length > 0) return;
    this.sink.decodingStarts();
    for (let i = workerCount(this.device, PLAYER.maxWorkers); i > 0; i--) {
      const bridge = new WorkerBridge(() => {});
      bridge.api.warm(TOUR_CODEC).catch(() => {});
      this.warm.push(bridge);
    }
  }

  /** Starts decoding a tour; frame 0 comes first in the low rendition. */
  load(clips: Clip[], options: { hiRes: boolean; aspect?: number }): void {
    this.stop();
    const sorted = [...clips].sort((a, b) => a.index - b.index);
    const counts = clipFrameCounts(sorted);
    const starts = clipStarts(counts);
    this.frames.reset(starts, counts);
    const n = workerCount(this.device, sorted.length);
    const { signal } = this.tour;
    this.sink.decodingStarts();
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
    const bridges = this.bridges;
    this.prefetcher.reset({
      clips: sorted,
      starts,
      counts,
      total: totalFrames(counts),
      thumbSize: thumbnailSize(sorted.length, options.aspect),
      bridges,
    });
    this.setHighEnabled(options.hiRes);
    this.scheduler.start({
      clips: sorted,
      starts,
      counts,
      clipOf: frameClips(counts),
      bridges,
      batch: batchSize(this.device),
    });
  }

  /** Hi-res on or off (where the device can decode 720p): the frames kept, the downloads and the decodes follow. */
  setHighEnabled(enabled: boolean): void {
    const high = enabled && canDecodeHighRes(this.device);
    this.frames.setHighEnabled(high, cacheBudget(high, canDecodeHighRes(this.device)));
    this.prefetcher.setHighEnabled(high);
    this.scheduler.setHighEnabled(high);
  }

  /** Frames whose high clips are worth fetching ahead (the markers); fetched once the low rendition is buffered. */
  setPrefetchFrames(frames: number[]): void {
    this.prefetcher.setPrefetchFrames(frames);
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
    this.sink.decodingEnded(true);
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
    this.frames.reset([], []);
    this.sink.decodingEnded(false);
  }

  /** A clip could not be fetched or decoded: the player's "Failed to Load". */
  private decodeFailed(e: unknown): void {
    this.decodeErrors++;
    this.host.onDecodeError(e instanceof Error ? e.message : String(e));
  }

  /** Keeps the peak of cache, frames in transit (`inflight`) and thumbnails (`peakDecodedBytes`). */
  private notePeak(inflight: number): void {
    this.peakDecodedBytes = Math.max(
      this.peakDecodedBytes,
      this.frames.cache.totalBytes + inflight + this.frames.state.thumbBytes,
    );
  }
}
