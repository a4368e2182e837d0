import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { CACHE_BUDGET } from '../constants.js';
import {
  batchFor,
  cacheBudget,
  pickDrawable,
  type Drawable,
  deferBackward,
  frameBytes,
  isStale,
  planJobs,
  thumbnailSize,
  type Job,
} from './decode-planner.js';
import { clipFrameCounts, clipStarts, locateFrame, totalFrames } from '../frame-math.js';
import { batchSize, canDecodeHighRes, readDevice, workerCount, type DeviceProfile } from '../device.js';
import type { Clip } from '../api/types.js';
import type { DecodedFrame, Rendition } from '../workers/decode-types.js';
import { sumWorkerStats, WorkerBridge } from '../workers/worker-bridge.js';
import { ClipPrefetcher } from './clip-prefetcher.js';
import { ScrubRendition } from './scrub-rendition.js';
import { FrameCache } from './frame-cache.js';
import type { PaintBridge } from '../paint/paint-bridge.js';
import type { DecodeFocus, FrameSource } from './frame-source.js';
import type { DecodeEvents } from './decode-events.js';

/** The tours' codec (H.264 High, media/encoding.ts on the server): what prewarm asks the decoder about. */
const TOUR_CODEC = 'avc1.64001f';

export type { Drawable, DecodeEvents };

/**
 * Owns the decode workers and the bounded frame cache. Runs the planner's passes (decode-planner.ts) on the worker
 * pool, fetches the low rendition of every clip in order (buffer progress, keyframe thumbnails) and the markers' high
 * clips, and keeps the counters `stats()` reports.
 */
export class DecodeController implements ReactiveController, FrameSource, DecodeFocus {
  readonly cache = new FrameCache({ high: CACHE_BUDGET.highBytes, low: CACHE_BUDGET.lowBytes });
  private bridges: WorkerBridge[] = [];
  private busy: boolean[] = [];
  private pending = new Set<string>();
  private clips: Clip[] = [];
  private counts: number[] = [];
  private starts: number[] = [];
  private position = 0;
  private direction = 1;
  private highEnabled = true;
  private device: DeviceProfile = readDevice();
  private batch = 20;
  /**
   * The tour being decoded: aborted when it ends (a new tour, a fallback, the element leaving), so late answers are
   * dropped.
   */
  private tour = new AbortController();
  private inflightBytes = 0;
  private nextJobId = 1;
  private running = new Map<number, Job>();
  /**
   * Per worker and rendition, the clip its decoder was last sent into and the next frame it can go on from without
   * starting again at the keyframe (the worker keeps that decoder unflushed).
   */
  private cursors: Partial<Record<Rendition, { clip: number; next: number }>>[] = [];
  /** Downloads ahead of decoding: every clip's low rendition, then the markers' high clips (clip-prefetcher.ts). */
  private readonly prefetcher: ClipPrefetcher;
  /** Workers started before a tour is known (prewarm), taken by the next load(). */
  private warm: WorkerBridge[] = [];
  private firstArrived = false;
  /** A jump (not a step): until its exact frame is decoded, that decode has the CPU to itself. */
  private jumping = false;
  /** Where a fast travel will land: its exact frame is decoded first, while the travel animates. */
  private destination: number | null = null;
  /** The lower rendition while the finger moves fast (scrub-rendition.ts), and the timer that plans again at rest. */
  private readonly scrub = new ScrubRendition();
  private scrubRecheck = 0;
  cancelledJobs = 0;
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
      get signal() {
        return self.tour.signal;
      },
      get highEnabled() {
        return self.highEnabled;
      },
      failed: (e) => this.decodeFailed(e),
      pump: () => this.pump(),
      thumbnailArrived: (clip, bitmap) => {
        this.paint.addThumb(clip, bitmap);
        this.notePeak();
      },
      loadedFramesChanged: (frames) => this.host.onLoadedFramesChange(frames),
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
      this.busy.push(false);
      this.cursors.push({});
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
    this.position = 0;
    this.firstArrived = false;
    this.pump();
  }

  setHighEnabled(enabled: boolean): void {
    this.setHighEnabledFlag(enabled);
    this.prefetcher.highEnabledChanged();
    this.pump();
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
    this.destination = frame;
    // The destination's exact frame has the CPU to itself, as after a jump.
    if (frame !== null) this.jumping = true;
    if (frame !== null) this.scrub.reset();
    this.cache.focus(this.position, this.direction, frame);
    this.pump();
  }

  /** Moves the playhead; decoding follows in the direction of travel. */
  setPosition(frame: number): void {
    if (frame !== this.position) this.direction = frame > this.position ? 1 : -1;
    // A jump (not a step): until its exact frame is decoded, that decode has the CPU to itself.
    // (While travelling, the destination's decode keeps that priority.)
    if (this.destination === null) this.jumping = Math.abs(frame - this.position) > PLAYER.defaultClipFrameCount;
    // A user's step or swipe (not a jump, not a travel): its speed, and whether the exact frame of the position it
    // leaves had arrived, steer the rendition (scrub-rendition.ts).
    if (this.jumping || this.destination !== null) this.scrub.reset();
    else if (frame !== this.position)
      this.scrub.move(frame, performance.now(), this.highEnabled && !this.cache.has('high', this.position));
    this.position = frame;
    this.cache.focus(frame, this.direction, this.destination);
    this.pump();
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
    this.busy = [];
    this.cursors = [];
    this.pending.clear();
    this.running.clear();
    this.destination = null;
    this.scrub.reset();
    clearTimeout(this.scrubRecheck);
    this.cache.clear();
    this.paint.dispose(true);
    this.inflightBytes = 0;
  }

  private key(r: Rendition, frame: number): string {
    return `${r}:${frame}`;
  }

  /**
   * Where decoding is centred: the playhead, or during a fast travel its destination. The travel passes a clip every
   * couple of refreshes, faster than any frame on its way could be decoded (those show their clip's thumbnail), so
   * the workers decode the destination and the window around it instead.
   */
  private get focus(): number {
    return this.destination ?? this.position;
  }

  /** 720p is planned: hi-res on, and no fast scrub outrunning its 720p frames (scrub-rendition.ts). */
  private planHigh(): boolean {
    return this.highEnabled && (this.destination !== null || !this.scrub.lower(performance.now()));
  }

  /** The planner's view of this decoder's state (decode-planner.ts). */
  private plan(high: boolean) {
    return planJobs({
      starts: this.starts,
      counts: this.counts,
      position: this.position,
      focus: this.focus,
      direction: this.direction,
      highEnabled: high,
      jumping: this.jumping,
      has: (r, f) => this.cache.has(r, f),
      pending: (r, f) => this.pending.has(this.key(r, f)),
      hasThumbnail: (clip) => !!this.paint.thumbs[clip],
      highPlannable: (clip) => this.prefetcher.highPlannable(clip),
    });
  }

  /** A clip could not be fetched or decoded: the player's "Failed to Load". */
  private decodeFailed(e: unknown): void {
    this.decodeErrors++;
    this.host.onDecodeError(e instanceof Error ? e.message : String(e));
  }

  /**
   * Cancels running decodes whose frames are all outside the windows around the playhead, and while a fast scrub
   * decodes 360p (`high` false with hi-res on), the running 720p passes: the CPU goes to the frames the finger reaches.
   */
  private cancelStale(high: boolean): void {
    const o = {
      focus: this.focus,
      direction: this.direction,
      highEnabled: this.highEnabled,
      destination: this.destination,
    };
    for (const [id, job] of this.running) {
      if (job.worker === undefined) continue;
      const outrun = !high && this.highEnabled && job.rendition === 'high' && !job.keyframe;
      if (!outrun && !isStale(job, { ...o, start: this.starts[job.clip] ?? 0 })) continue;
      this.running.delete(id);
      this.cancelledJobs++;
      delete this.cursors[job.worker]?.[job.rendition];
      job.abort?.abort();
    }
  }

  private pump(): void {
    if (!this.bridges.length) return;
    const high = this.planHigh();
    this.cancelStale(high);
    const { jobs, fetch, exactR: firstR } = this.plan(high);
    // While the scrub decodes 360p, plan again when the finger may have come to rest (its exact 720p frame then).
    clearTimeout(this.scrubRecheck);
    const recheck = this.scrub.recheckAt();
    if (recheck !== null) this.scrubRecheck = window.setTimeout(() => this.pump(), recheck - performance.now());
    // Until the first frame is on screen the link is its own (slow networks).
    if (this.firstArrived) for (const c of fetch) void this.prefetcher.fetchHigh(c);
    // While the exact frame at the playhead is being decoded (after a jump), nothing else starts:
    // on a two-core device any other decode slows the one the user is waiting for.
    const p = this.focus;
    const exactR: Rendition = this.highEnabled ? 'high' : 'low';
    if (this.cache.has(exactR, p)) this.jumping = false;
    const exactKey = this.key(firstR, p);
    for (const job of jobs) {
      // Checked per job: once the exact frame's job is started, the jobs after it wait.
      if (this.jumping && this.pending.has(exactKey) && !job.keyframe) break;
      if (job.keyframe) {
        this.run(job.clip % this.bridges.length, job);
        continue;
      }
      // Until the first frame is on screen, only its keyframe is fetched (slow networks).
      if (!this.firstArrived) break;
      if (
        deferBackward(job, {
          start: this.starts[job.clip] ?? 0,
          focus: this.focus,
          direction: this.direction,
          destination: this.destination,
        })
      )
        continue;
      // With high frames on, the low rendition only fills idle time: while any high frame is
      // decoding it would take the CPU that the exact frames need on a two-core device.
      if (job.rendition === 'low' && high && this.busy.some((b, i) => b && this.runningRendition(i) === 'high'))
        continue;
      // The worker already inside this clip goes on from where it stopped: wait for it rather
      // than decode the clip again from its keyframe on another worker.
      const owner = this.cursors.findIndex(
        (c) => c[job.rendition]?.clip === job.clip && c[job.rendition]!.next <= job.from,
      );
      if (owner >= 0) {
        if (!this.busy[owner]) this.run(owner, job);
        continue;
      }
      const preferred = job.clip % this.bridges.length;
      const w = this.busy[preferred] ? this.busy.findIndex((b) => !b) : preferred;
      if (w < 0) break;
      this.run(w, job);
    }
  }

  private runningRendition(w: number): Rendition | undefined {
    for (const j of this.running.values()) if (j.worker === w && !j.keyframe) return j.rendition;
    return undefined;
  }

  private run(w: number, job: Job): void {
    const { signal } = this.tour;
    const clip = this.clips[job.clip];
    if (!clip) return;
    const start = this.starts[job.clip]!;
    const keys: string[] = [];
    for (let f = job.from; f <= job.to; f++) {
      const k = this.key(job.rendition, start + f);
      keys.push(k);
      this.pending.add(k);
    }
    if (!job.keyframe) {
      this.busy[w] = true;
      const c = this.cursors[w];
      if (c) c[job.rendition] = { clip: job.clip, next: job.to + 1 };
    }
    const bridge = this.bridges[w]!;
    const inflight = frameBytes(job.rendition) * Math.min(job.to - job.from + 1, batchFor(job.rendition, this.batch));
    this.inflightBytes += inflight;
    this.notePeak();
    const onBatch = (frames: DecodedFrame[]) => {
      if (signal.aborted) return;
      for (const f of frames) {
        const k = this.key(job.rendition, start + f.frame);
        this.cache.put(start + f.frame, f); // then its pixels go to the paint worker, after the evictions the put caused
        this.paint.op(
          {
            put: k,
            format: f.format,
            width: f.width,
            height: f.height,
            data: f.data,
            ...(f.colorSpace ? { colorSpace: f.colorSpace } : {}),
          },
          f.data,
        );
        if (f.bitmap) this.paint.addReady(k, start + f.frame, f.bitmap);
        this.pending.delete(k);
      }
      this.notePeak();
      this.host.onFramesArrived();
      if (!this.firstArrived) {
        // The first frame had the link to itself; now buffer and decode the rest.
        this.firstArrived = true;
        this.prefetcher.startLow();
        this.pump();
      }
    };
    job.id = this.nextJobId++;
    job.worker = w;
    // The job's own signal: aborted when it goes stale (cancelStale), which cancels it in its worker.
    job.abort = new AbortController();
    this.running.set(job.id, job);
    const pl = locateFrame(this.starts, this.counts, this.focus);
    const req = {
      rendition: job.rendition,
      clipIndex: job.clip,
      url: job.rendition === 'high' ? clip.highURI : clip.lowURI,
      from: job.from,
      to: job.to,
      batchSize: batchFor(job.rendition, this.batch),
      id: job.id,
      // After a jump and for the first frame, the frame waited for comes as a bitmap too (workers/frame-bitmap.ts).
      ...(pl.clip === job.clip
        ? {
            urgent: pl.local,
            ...((this.jumping || !this.firstArrived) && this.paint.canvas ? { canvas: this.paint.canvas } : {}),
          }
        : {}),
    };
    (job.keyframe ? bridge.keyframe(req, onBatch, job.abort.signal) : bridge.decode(req, onBatch, job.abort.signal))
      .then(
        () => {
          if (signal.aborted) return;
          if (job.rendition === 'high' || !job.keyframe) this.prefetcher.decoded(job.clip, job.rendition);
        },
        (e: unknown) => {
          if (signal.aborted) return;
          this.decodeFailed(e);
        },
      )
      .finally(() => {
        this.running.delete(job.id!);
        this.inflightBytes -= inflight;
        if (signal.aborted) return;
        for (const k of keys) this.pending.delete(k);
        if (!job.keyframe) this.busy[w] = false;
        this.pump();
      });
  }

  notePeak(): void {
    this.peakDecodedBytes = Math.max(
      this.peakDecodedBytes,
      this.cache.totalBytes + this.inflightBytes + this.paint.thumbBytes + this.paint.bitmapBytes,
    );
  }
}
