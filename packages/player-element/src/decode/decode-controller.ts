import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { proxy } from 'comlink';
import { PLAYER } from '@roomwalk/shared/constants';
import { BACKWARD_CHUNK, CACHE_BUDGET, DECODE_WINDOW } from '../constants.js';
import { clipFrameCounts, clipStarts, locateFrame, totalFrames } from '../frame-math.js';
import { batchSize, canDecodeHighRes, readDevice, workerCount, type DeviceProfile } from '../device.js';
import type { Clip } from '../api/types.js';
import type { DecodedFrame, Rendition } from '../workers/decode-types.js';
import { WorkerBridge } from '../workers/worker-bridge.js';
import { FrameCache } from './frame-cache.js';

/** A high clip expected to take longer than this to download is fetched apart, with the 360p frame decoded first. */
const SLOW_HIGH_FETCH_MS = 50;

function movingAverage(previous: number | null, sample: number): number {
  return previous === null ? sample : previous * 0.7 + sample * 0.3;
}

/** What the decoder reports to the player. */
export interface DecodeEvents {
  /** A frame that may change what is on screen has arrived. */
  onFramesArrived(): void;
  onDecodeError(message: string): void;
  onLoadedFramesChange(loaded: number): void;
}

interface Job {
  rendition: Rendition;
  clip: number;
  from: number;
  to: number;
  /** Keyframe only, on the worker's separate keyframe decoder (a placeholder). */
  keyframe?: boolean;
  id?: number;
  worker?: number;
}

/** What the canvas should show for a frame: exact high, exact low, or the nearest decoded frame. */
export type Drawable =
  | { frame: DecodedFrame; bitmap?: undefined; tourFrame: number; exact: boolean }
  | { frame?: undefined; bitmap: ImageBitmap; tourFrame: number; exact: false };

/**
 * Owns the decode workers and the bounded frame cache. Decodes the frames around the playhead,
 * ahead in the direction of travel, low rendition first and then high, and reports buffer progress.
 */
export class DecodeController implements ReactiveController {
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
  private prefetched: boolean[] = [];
  private loadedFrames = 0;
  private generation = 0;
  private inflightBytes = 0;
  private nextJobId = 1;
  private running = new Map<number, Job>();
  /**
   * Per worker and rendition, the clip its decoder was last sent into and the next frame it can go
   * on from without starting again at the keyframe (the worker keeps that decoder unflushed).
   */
  private cursors: Partial<Record<Rendition, { clip: number; next: number }>>[] = [];
  /**
   * High clips known to be downloaded (by a decode or a prefetch; a worker that has not seen one reads it from
   * the browser's HTTP cache, clips being immutable). On a slow link (a high clip expected to take longer than
   * SLOW_HIGH_FETCH_MS) a high frame of any other clip is not planned as a decode, which would hold a worker while
   * the clip downloads: the clip is fetched beside the decodes instead, and until it is here the low frame at the
   * playhead is decoded first, so a jump shows the exact frame at 360p rather than the blurred thumbnail while the
   * 720p clip comes. On a fast link the decode fetches its clip itself (one step less; the 360p pass would only
   * take the CPU from the 720p one).
   */
  private highReady = new Set<number>();
  /** Recent fetch times (moving averages, ms): one high clip, and one low clip (a high clip is about four times its bytes). */
  private highFetchMs: number | null = null;
  private lowFetchMs: number | null = null;
  private highFetching = new Set<number>();
  /** Frames whose high clips are fetched once the low rendition is buffered (the markers: fast-travel destinations). */
  private prefetchFrames: number[] = [];
  /** Every clip's low rendition is fetched (then the prefetch frames' high clips are). */
  private lowBuffered = false;
  cancelledJobs = 0;
  /** Peak of cache plus frames in transit; the bench reads it. */
  peakDecodedBytes = 0;
  decodeErrors = 0;

  constructor(
    controllerHost: ReactiveControllerHost,
    private readonly host: DecodeEvents,
  ) {
    controllerHost.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.dispose();
  }

  get total(): number {
    return totalFrames(this.counts);
  }

  get loaded(): number {
    return this.loadedFrames;
  }

  get workers(): number {
    return this.bridges.length;
  }

  /** Starts decoding a tour; frame 0 comes first in the low rendition. */
  load(clips: Clip[], options: { hiRes: boolean; aspect?: number }): void {
    this.dispose();
    this.generation++;
    this.clips = [...clips].sort((a, b) => a.index - b.index);
    this.counts = clipFrameCounts(this.clips);
    this.starts = clipStarts(this.counts);
    this.setHighEnabledFlag(options.hiRes);
    this.batch = batchSize(this.device);
    const n = workerCount(this.device, this.clips.length);
    const gen = this.generation;
    for (let i = 0; i < n; i++) {
      this.bridges.push(
        new WorkerBridge((message) => {
          if (gen === this.generation) this.host.onDecodeError(message);
        }),
      );
      this.busy.push(false);
      this.cursors.push({});
    }
    this.prefetched = this.clips.map(() => false);
    this.highReady = new Set();
    this.highFetching = new Set();
    this.highFetchMs = null;
    this.lowFetchMs = null;
    this.lowBuffered = false;
    this.loadedFrames = 0;
    this.position = 0;
    this.firstArrived = false;
    this.prefetchGen = gen;
    // Thumbnail size: all clips' keyframes fit the thumbnail budget, 64 to 320 px wide.
    const px = CACHE_BUDGET.thumbnailBytes / 4 / Math.max(1, this.clips.length);
    const aspect = options.aspect ?? 16 / 9;
    const width = Math.max(64, Math.min(320, Math.floor(Math.sqrt(px * aspect))));
    this.thumbSize = { width, height: Math.max(1, Math.round(width / aspect)) };
    this.pump();
  }
  private firstArrived = false;
  private jumping = false;
  /** Where a fast travel will land: its exact frame is decoded first, while the travel animates. */
  private destination: number | null = null;
  private thumbs: (ImageBitmap | undefined)[] = [];
  private thumbSize = { width: 160, height: 90 };
  thumbBytes = 0;
  private prefetchGen = -1;

  setHighEnabled(enabled: boolean): void {
    this.setHighEnabledFlag(enabled);
    if (this.lowBuffered) this.prefetchHigh();
    this.pump();
  }

  private setHighEnabledFlag(enabled: boolean): void {
    this.highEnabled = enabled && canDecodeHighRes(this.device);
    // Without high frames the low rendition gets both budgets (and the high window sizes).
    const b = CACHE_BUDGET;
    this.cache.setBudget(this.highEnabled ? { high: b.highBytes, low: b.lowBytes } : { high: 0, low: b.highBytes + b.lowBytes });
  }

  /** Frames whose high clips are worth fetching ahead (the markers); fetched once the low rendition is buffered. */
  setPrefetchFrames(frames: number[]): void {
    this.prefetchFrames = [...frames];
    if (this.lowBuffered) this.prefetchHigh();
  }

  /** Sets (or clears) the fast-travel destination so its exact frame is ready on arrival. */
  setDestination(frame: number | null): void {
    this.destination = frame;
    // The destination's exact frame has the CPU to itself, as after a jump.
    if (frame !== null) this.jumping = true;
    this.cache.focus(this.position, this.direction, frame);
    this.pump();
  }

  /** Moves the playhead; decoding follows in the direction of travel. */
  setPosition(frame: number): void {
    if (frame !== this.position) this.direction = frame > this.position ? 1 : -1;
    // A jump (not a step): until its exact frame is decoded, that decode has the CPU to itself.
    // (While travelling, the destination's decode keeps that priority.)
    if (this.destination === null) this.jumping = Math.abs(frame - this.position) > PLAYER.defaultClipFrameCount;
    this.position = frame;
    this.cache.focus(frame, this.direction, this.destination);
    this.pump();
  }

  /** Best frame to show for `frame` right now. */
  drawable(frame: number): Drawable | undefined {
    if (this.highEnabled) {
      const h = this.cache.get('high', frame);
      if (h) return { frame: h, tourFrame: frame, exact: true };
    }
    const l = this.cache.get('low', frame);
    if (l) return { frame: l, tourFrame: frame, exact: !this.highEnabled };
    const { clip } = locateFrame(this.starts, this.counts, frame);
    const clipStart = this.starts[clip] ?? 0;
    const n = this.cache.nearest(frame, Number.POSITIVE_INFINITY);
    // A decoded frame of the same clip beats the thumbnail; a frame of another clip does not.
    if (n && Math.abs(n.frame - frame) <= Math.abs(frame - clipStart)) return { frame: n.data, tourFrame: n.frame, exact: false };
    const thumb = this.thumbs[clip];
    if (thumb) return { bitmap: thumb, tourFrame: clipStart, exact: false };
    return n ? { frame: n.data, tourFrame: n.frame, exact: false } : undefined;
  }

  isExact(frame: number): boolean {
    return this.highEnabled ? this.cache.has('high', frame) : this.cache.has('low', frame);
  }

  /** Worker-side counters summed over workers (open VideoFrames, decoded count). */
  async workerStats(): Promise<{ openFrames: number; maxOpenFrames: number; decodedFrames: number; decodeMsPerFrame: number; framesThroughDecoder: number }> {
    const all = await Promise.all(this.bridges.map((b) => b.api.stats()));
    const through = all.reduce((a, s) => a + s.framesThroughDecoder, 0);
    return {
      decodeMsPerFrame: through ? all.reduce((a, s) => a + s.decodeMs, 0) / through : 0,
      framesThroughDecoder: through,
      openFrames: all.reduce((a, s) => a + s.openFrames, 0),
      maxOpenFrames: Math.max(0, ...all.map((s) => s.maxOpenFrames)),
      decodedFrames: all.reduce((a, s) => a + s.decodedFrames, 0),
    };
  }

  dispose(): void {
    this.generation++;
    for (const b of this.bridges) b.dispose();
    this.bridges = [];
    this.busy = [];
    this.cursors = [];
    this.pending.clear();
    this.running.clear();
    this.destination = null;
    this.cache.clear();
    for (const t of this.thumbs) t?.close();
    this.thumbs = [];
    this.thumbBytes = 0;
    this.inflightBytes = 0;
  }

  private key(r: Rendition, frame: number): string {
    return `${r}:${frame}`;
  }

  private frameBytes(r: Rendition): number {
    const high = r === 'high';
    return high ? 1280 * 720 * 1.5 : 640 * 360 * 1.5;
  }

  /**
   * Where decoding is centred: the playhead, or during a fast travel its destination. The travel passes a clip every
   * couple of refreshes, faster than any frame on its way could be decoded (those show their clip's thumbnail), so
   * the workers decode the destination and the window around it instead.
   */
  private get focus(): number {
    return this.destination ?? this.position;
  }

  /**
   * Jobs in priority order for the current position (or travel destination) and direction; the high clips wanted
   * but not downloaded (fetched beside the decodes); the rendition of the exact frame wanted first at the focus.
   */
  private plan(): { jobs: Job[]; fetch: number[]; exactR: Rendition } {
    const jobs: Job[] = [];
    const total = this.total + 1;
    if (!this.clips.length) return { jobs, fetch: [], exactR: 'low' };
    const p = Math.min(this.focus, total - 1);
    const pos = Math.min(this.position, total - 1);
    const d = this.direction;
    const want = (r: Rendition, a: number, b: number) => {
      const lo = Math.max(0, Math.min(a, b));
      const hi = Math.min(total - 1, Math.max(a, b));
      // Walk from the playhead outwards in the direction of travel, one clip at a time.
      const frames: number[] = [];
      if (d > 0 || a === b) for (let f = lo; f <= hi; f++) frames.push(f);
      else for (let f = hi; f >= lo; f--) frames.push(f);
      let current: Job | undefined;
      for (const f of frames) {
        if (this.cache.has(r, f) || this.pending.has(this.key(r, f))) continue;
        const { clip, local } = locateFrame(this.starts, this.counts, f);
        if (current && current.clip === clip && current.rendition === r) {
          current.from = Math.min(current.from, local);
          current.to = Math.max(current.to, local);
        } else {
          current = { rendition: r, clip, from: local, to: local };
          jobs.push(current);
        }
      }
    };
    const ahead = (n: number) => p + d * n;
    const behind = (n: number) => p - d * n;
    const w = DECODE_WINDOW;
    const exactMissing = !(this.highEnabled ? this.cache.has('high', pos) : this.cache.has('low', pos));
    // 0. Nothing of the playhead's clip decoded yet (a jump, the first frame): its low keyframe,
    //    decoded beside any running work, is on screen within a refresh or so.
    const { clip: posClip } = locateFrame(this.starts, this.counts, pos);
    const posStart = this.starts[posClip] ?? 0;
    const posEnd = posStart + (this.counts[posClip] ?? 1) - 1;
    let haveAny = false;
    for (let f = posStart; f <= posEnd && !haveAny; f++) haveAny = this.cache.has('low', f) || this.cache.has('high', f);
    const placeholder: Job | undefined =
      exactMissing && !haveAny && !this.thumbs[posClip] && !this.pending.has(this.key('low', posStart)) ? { rendition: 'low', clip: posClip, from: 0, to: 0, keyframe: true } : undefined;
    const { clip: pc } = locateFrame(this.starts, this.counts, p);
    const pcStart = this.starts[pc] ?? 0;
    // The rendition wanted first at the focus: high once its clip is here, low while it downloads.
    const firstR = this.firstRendition(pc);
    // 1. The exact frame and the frames ahead of it, then the low frame at the playhead as a
    //    better placeholder, then the frames behind and the low frames ahead.
    if (this.highEnabled) {
      if (firstR === 'low') want('low', p, p);
      want('high', p, ahead(w.highAhead));
      want('high', p, behind(w.highBehind));
      want('low', p, ahead(w.lowAhead));
    } else {
      want('low', p, ahead(w.highAhead));
      want('low', p, behind(w.highBehind));
    }
    // Grow each job to cover its clip's share of the window so one decode pass serves many frames.
    const merged: Job[] = [];
    // After a jump the exact frame's pass starts its copies at that frame; the frames behind it
    // in its clip come in a pass of their own once it has landed.
    const exactR = firstR;
    const exactAlone = this.jumping && !this.cache.has(exactR, p);
    for (const j of jobs) {
      const same = merged.find((m) => m.clip === j.clip && m.rendition === j.rendition && !(exactAlone && m.clip === pc && m.rendition === exactR));
      if (same) {
        same.from = Math.min(same.from, j.from);
        same.to = Math.max(same.to, j.to);
      } else merged.push({ ...j });
    }
    if (!this.cache.has(exactR, p) && !this.pending.has(this.key(exactR, p))) {
      // Going backward the exact frame is the last of its pass: copying the frames before it first (from the clip
      // start) held it back by up to 35 frame copies. Its pass is that frame alone (decoded from the keyframe before
      // it); the rest of its clip is planned once it has landed. (A frame already on its way in a running pass, as
      // in continuous scrubbing, is left to that pass.)
      const local = p - pcStart;
      const m = merged.find((j) => j.clip === pc && j.rendition === exactR && j.from <= local && local <= j.to);
      if (m && m.from < local) {
        m.from = local;
        m.to = local;
      }
    }
    if (placeholder) {
      // The window jobs of that clip skip its keyframe, which the placeholder delivers.
      for (const m of merged) if (m.clip === placeholder.clip && m.rendition === 'low' && m.from === 0) m.from = Math.min(1, m.to);
      merged.unshift(placeholder);
    }
    // High frames of a clip that is not downloaded yet: fetch it (beside the decodes), decode once it is here.
    const fetch: number[] = [];
    const planned = merged.filter((j) => {
      if (j.rendition !== 'high' || this.highPlannable(j.clip)) return true;
      if (!fetch.includes(j.clip)) fetch.push(j.clip);
      return false;
    });
    return { jobs: planned, fetch, exactR };
  }

  /** A clip could not be fetched or decoded: the player's "Failed to Load". */
  private decodeFailed(e: unknown): void {
    this.decodeErrors++;
    this.host.onDecodeError(e instanceof Error ? e.message : String(e));
  }

  /** Low first at a clip whose high rendition would still be downloading (or when high is off). */
  private firstRendition(clip: number): Rendition {
    return this.highEnabled && this.highPlannable(clip) ? 'high' : 'low';
  }

  /** A high decode of this clip can be planned: its file is here, or the link brings one within a couple of refreshes. */
  private highPlannable(clip: number): boolean {
    if (this.highReady.has(clip)) return true;
    const expected = this.highFetchMs ?? (this.lowFetchMs === null ? Number.POSITIVE_INFINITY : this.lowFetchMs * 4);
    return expected <= SLOW_HIGH_FETCH_MS;
  }

  /** Downloads and demuxes a high clip on its worker without decoding it (no decode queue, no busy worker). */
  private fetchHigh(c: number): Promise<void> {
    if (this.highReady.has(c) || this.highFetching.has(c) || !this.bridges.length) return Promise.resolve();
    const clip = this.clips[c];
    if (!clip) return Promise.resolve();
    const gen = this.generation;
    this.highFetching.add(c);
    const t0 = performance.now();
    return this.bridges[c % this.bridges.length]!.api.prefetch('high', c, clip.highURI).then(
      () => {
        if (gen !== this.generation) return;
        this.highFetchMs = movingAverage(this.highFetchMs, performance.now() - t0);
        this.highFetching.delete(c);
        this.highReady.add(c);
        this.pump();
      },
      (e: unknown) => {
        if (gen !== this.generation) return;
        this.highFetching.delete(c);
        this.decodeFailed(e);
      },
    );
  }

  /** Fetches the high clips of the prefetch frames (markers), one at a time, once the low rendition is buffered. */
  private prefetchHigh(): void {
    if (!this.highEnabled) return;
    const gen = this.generation;
    const clips = [...new Set(this.prefetchFrames.map((f) => locateFrame(this.starts, this.counts, f).clip))];
    void (async () => {
      for (const c of clips) {
        if (gen !== this.generation) return;
        await this.fetchHigh(c);
      }
    })();
  }

  /** Cancels running decodes whose frames are all outside the windows around the playhead. */
  private cancelStale(): void {
    const w = DECODE_WINDOW;
    const p = this.focus;
    const d = this.direction;
    for (const [id, job] of this.running) {
      if (job.keyframe || job.worker === undefined) continue;
      const start = this.starts[job.clip] ?? 0;
      const a = start + job.from;
      const b = start + job.to;
      const ahead = job.rendition === 'high' || !this.highEnabled ? w.highAhead : w.lowAhead;
      const behind = job.rendition === 'high' || !this.highEnabled ? w.highBehind : 0;
      const lo = d > 0 ? p - behind : p - ahead;
      const hi = d > 0 ? p + ahead : p + behind;
      const dest = this.destination;
      const coversDestination = dest !== null && a <= dest && dest <= b;
      if ((b < lo || a > hi) && !coversDestination) {
        this.running.delete(id);
        this.cancelledJobs++;
        delete this.cursors[job.worker]?.[job.rendition];
        void this.bridges[job.worker]?.api.cancel(id).catch(() => undefined);
      }
    }
  }

  private pump(): void {
    if (!this.bridges.length) return;
    this.cancelStale();
    const { jobs, fetch, exactR: firstR } = this.plan();
    // Until the first frame is on screen the link is its own (slow networks).
    if (this.firstArrived) for (const c of fetch) void this.fetchHigh(c);
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
      if (this.deferBackward(job)) continue;
      // With high frames on, the low rendition only fills idle time: while any high frame is
      // decoding it would take the CPU that the exact frames need on a two-core device.
      if (job.rendition === 'low' && this.highEnabled && this.busy.some((b, i) => b && this.runningRendition(i) === 'high')) continue;
      // The worker already inside this clip goes on from where it stopped: wait for it rather
      // than decode the clip again from its keyframe on another worker.
      const owner = this.cursors.findIndex((c) => c[job.rendition]?.clip === job.clip && c[job.rendition]!.next <= job.from);
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

  /** A short backward pass into a clip behind the playhead's that can wait to become a long one (BACKWARD_CHUNK). */
  private deferBackward(job: Job): boolean {
    if (this.direction > 0 || job.from === 0) return false;
    const start = this.starts[job.clip] ?? 0;
    const p = this.focus;
    if (p >= start && p <= start + job.to) return false;
    if (this.destination !== null && start + job.from <= this.destination && this.destination <= start + job.to) return false;
    return job.to - job.from + 1 < BACKWARD_CHUNK.frames && p - (start + job.to) > BACKWARD_CHUNK.near;
  }

  private run(w: number, job: Job): void {
    const gen = this.generation;
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
    const inflight = this.frameBytes(job.rendition) * Math.min(job.to - job.from + 1, this.batchFor(job.rendition));
    this.inflightBytes += inflight;
    this.peakDecodedBytes = Math.max(this.peakDecodedBytes, this.cache.totalBytes + this.inflightBytes);
    const onBatch = proxy((frames: DecodedFrame[]) => {
      if (gen !== this.generation) return;
      for (const f of frames) {
        this.cache.put(start + f.frame, f);
        this.pending.delete(this.key(job.rendition, start + f.frame));
      }
      this.peakDecodedBytes = Math.max(this.peakDecodedBytes, this.cache.totalBytes + this.inflightBytes + this.thumbBytes);
      this.host.onFramesArrived();
      if (!this.firstArrived) {
        // The first frame had the link to itself; now buffer and decode the rest.
        this.firstArrived = true;
        this.startPrefetch(this.prefetchGen);
        this.pump();
      }
    });
    job.id = this.nextJobId++;
    job.worker = w;
    this.running.set(job.id, job);
    const pl = locateFrame(this.starts, this.counts, this.focus);
    const req = {
      rendition: job.rendition,
      clipIndex: job.clip,
      url: job.rendition === 'high' ? clip.highURI : clip.lowURI,
      from: job.from,
      to: job.to,
      batchSize: this.batchFor(job.rendition),
      id: job.id,
      ...(pl.clip === job.clip ? { urgent: pl.local } : {}),
    };
    (job.keyframe ? bridge.api.keyframe(req, onBatch) : bridge.api.decode(req, onBatch))
      .then(
        () => {
          if (gen !== this.generation) return;
          if (job.rendition === 'low' && !job.keyframe) this.markPrefetched(job.clip);
          if (job.rendition === 'high') this.highReady.add(job.clip);
        },
        (e: unknown) => {
          if (gen !== this.generation) return;
          this.decodeFailed(e);
        },
      )
      .finally(() => {
        this.running.delete(job.id!);
        this.inflightBytes -= inflight;
        if (gen !== this.generation) return;
        for (const k of keys) this.pending.delete(k);
        if (!job.keyframe) this.busy[w] = false;
        this.pump();
      });
  }

  /** High frames are four times the size of low ones, so they travel in quarter-size batches (same bytes per message). */
  private batchFor(r: Rendition): number {
    return r === 'high' ? Math.max(1, Math.ceil(this.batch / 4)) : this.batch;
  }

  /** Fetches the low rendition of every clip in order (not decoding it): the buffer progress. */
  private startPrefetch(gen: number): void {
    const n = this.bridges.length;
    for (let w = 0; w < n; w++) {
      void (async () => {
        for (let c = w; c < this.clips.length; c += n) {
          if (gen !== this.generation) return;
          const clip = this.clips[c]!;
          try {
            const t0 = performance.now();
            await this.bridges[w]!.api.prefetch('low', c, clip.lowURI);
            if (gen === this.generation) this.lowFetchMs = movingAverage(this.lowFetchMs, performance.now() - t0);
          } catch (e) {
            if (gen === this.generation) this.decodeFailed(e);
            return;
          }
          if (gen !== this.generation) return;
          this.markPrefetched(c);
          try {
            const t = await this.bridges[w]!.api.thumbnail('low', c, clip.lowURI, this.thumbSize.width, this.thumbSize.height);
            if (gen !== this.generation) {
              t.close();
              return;
            }
            this.thumbs[c] = t;
            this.thumbBytes += t.width * t.height * 4;
            this.peakDecodedBytes = Math.max(this.peakDecodedBytes, this.cache.totalBytes + this.inflightBytes + this.thumbBytes);
          } catch {
            /* a missing thumbnail only means a plainer placeholder */
          }
        }
      })();
    }
  }

  private markPrefetched(c: number): void {
    this.prefetched[c] = true;
    let i = 0;
    while (i < this.prefetched.length && this.prefetched[i]) i++;
    const loaded = i >= this.prefetched.length ? this.total : (this.starts[i] ?? 0);
    if (loaded !== this.loadedFrames) {
      this.loadedFrames = Math.min(loaded, this.total);
      this.host.onLoadedFramesChange(this.loadedFrames);
    }
    if (i >= this.prefetched.length && !this.lowBuffered) {
      this.lowBuffered = true;
      this.prefetchHigh();
    }
  }
}
