import { PLAYER } from '@roomwalk/shared/constants';
import { isStale, planJobs, type Job, type Plan } from './decode-planner.js';
import { batchFor, startJob, type DecodeJob, type JobOwner } from './decode-job.js';
import type { Clip } from '../api/types.js';
import type { Rendition } from '../workers/decode-types.js';
import type { WorkerBridge } from '../workers/worker-bridge.js';
import type { ClipPrefetcher } from './clip-prefetcher.js';
import type { DecodedFrames } from '../frames/decoded-frames.js';
import type { PixelSink } from '../paint/pixel-sink.js';
import { ScrubRendition } from './scrub-rendition.js';
import { unlessAborted } from '../abortable.js';

/**
 * Frames a running pass may still copy before a jump's exact frame and keep it: more, and the frame gets a pass of its
 * own (DecodeScheduler.hurry).
 */
const HURRY_AFTER = 2;
/**
 * A finger that has not stepped for this long rests (three refreshes at 60 Hz): its exact frame, if a running pass has
 * it on its way, comes first (DecodeScheduler.rest).
 */
const REST_MS = 50;

/** A tour as the scheduler decodes it (the decode controller's, for one load). */
export interface DecodeTour {
  readonly clips: readonly Clip[];
  readonly starts: readonly number[];
  readonly counts: readonly number[];
  /** Each tour frame's clip (frame-math.ts frameClips). */
  readonly clipOf: ArrayLike<number>;
  /**
   * Its decode workers; the scheduler keeps one busy flag and one cursor per worker. When the tour ends they are
   * disposed: a decode still running rejects with an AbortError and its late frames are dropped (worker-bridge.ts).
   */
  readonly bridges: readonly WorkerBridge[];
  /** Frames a worker hands back at once (device.ts batchSize). */
  readonly batch: number;
}

/** What the scheduler tells the decode controller. */
export interface ScheduleEvents {
  /** A clip could not be decoded. */
  failed(e: unknown): void;
  /** Decoded frames are kept (the element repaints). */
  framesArrived(): void;
  /** The bytes held may have grown, `inflight` of them in the running decodes (the controller keeps the bench's peak). */
  notePeak(inflight: number): void;
}

/** What the scheduler asks of the downloads (clip-prefetcher.ts). */
export type ClipFetching = Pick<ClipPrefetcher, 'downloads' | 'fetchHigh' | 'startLow' | 'decoded'>;

/**
 * Decides which decode runs on which worker and when: follows the playhead (and a fast travel's destination), runs the
 * planner's passes (decode-planner.ts) on the worker pool, cancels the ones the playhead left behind, and gives a
 * jump's exact frame the CPU to itself. Kept apart from the controller so the order of decoding is one class's job
 * and the controller only owns the tour, its workers and the frames. One pass's life on its worker (its frames on
 * their way, its batches, its end) is decode-job.ts's.
 */
export class DecodeScheduler implements JobOwner {
  /** The passes started and not ended yet (a cancelled one too, until its worker stops it). */
  private jobs = new Set<DecodeJob>();
  /** Per worker: a non-keyframe pass is running on it (keyframe passes may share a worker). */
  private busy: boolean[] = [];
  /**
   * Per worker and rendition, the clip its decoder was last sent into and the next frame it can go on from without
   * starting again at the keyframe (the worker keeps that decoder unflushed).
   */
  private cursors: Partial<Record<Rendition, { clip: number; next: number }>>[] = [];
  private nextJobId = 1;
  private position = 0;
  private direction = 1;
  /** Until the first frame is on screen only its keyframe is decoded: the link is its own (slow networks). */
  private firstArrived = false;
  /** A jump (not a step): until its exact frame is decoded, that decode has the CPU to itself. */
  private jumping = false;
  /** Where a fast travel will land: its exact frame is decoded first, while the travel animates. */
  private destination: number | null = null;
  /** The lower rendition while the finger moves fast (scrub-rendition.ts), and the timer that plans again at rest. */
  private readonly scrub = new ScrubRendition();
  private scrubRecheck = 0;
  /** Decodes cancelled because the playhead left them behind; the bench reads it. */
  cancelledJobs = 0;
  /** Rests whose exact frame a running pass was told to hand back first (rest); the bench reads it. */
  rushedRests = 0;
  private restTimer = 0;
  private tour: DecodeTour = { clips: [], starts: [], counts: [], clipOf: [], bridges: [], batch: 20 };
  private highEnabled = true;

  /**
   * @param frames Where decoded frames are kept (by each DecodeJob), and what is kept: the planner reads the cache's
   *   read-only view of its frames and the thumbnails, as they are (no call per frame); the cache follows the playhead.
   * @param sink The painter: the frame a jump waits for is made at its size.
   * @param fetching The downloads ahead of decoding.
   */
  constructor(
    private readonly frames: Pick<DecodedFrames, 'put' | 'state' | 'cache'>,
    private readonly sink: Pick<PixelSink, 'bitmapSize'>,
    private readonly fetching: ClipFetching,
    private readonly events: ScheduleEvents,
  ) {}

  /** Bytes of the frames the running decodes may hold at once (one batch each), for the bench's peak. */
  get inflightBytes(): number {
    let bytes = 0;
    for (const j of this.jobs) bytes += j.inflight;
    return bytes;
  }

  /** A new tour: decoding starts again at frame 0, the first frame alone. */
  start(tour: DecodeTour): void {
    this.tour = tour;
    this.busy = tour.bridges.map(() => false);
    this.cursors = tour.bridges.map(() => ({}));
    this.position = 0;
    this.firstArrived = false;
    this.pump();
  }

  /** The tour ended: nothing is running or pending any more (its bridges are disposed: late answers reject). */
  stop(): void {
    this.tour = { ...this.tour, bridges: [] };
    this.busy = [];
    this.cursors = [];
    this.jobs.clear();
    this.destination = null;
    this.scrub.reset();
    clearTimeout(this.scrubRecheck);
    clearTimeout(this.restTimer);
  }

  /** Whether 720p frames are decoded (hi-res on, and the device can). */
  setHighEnabled(enabled: boolean): void {
    this.highEnabled = enabled;
    this.pump();
  }

  /** Sets (or clears) the fast-travel destination so its exact frame is ready on arrival. */
  setDestination(frame: number | null): void {
    this.destination = frame;
    // The destination's exact frame has the CPU to itself, as after a jump.
    if (frame !== null) this.jumping = true;
    if (frame !== null) this.scrub.reset();
    this.frames.cache.focus(this.position, this.direction, frame);
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
      this.scrub.move(frame, performance.now(), this.highEnabled && !this.frames.cache.kept.high.has(this.position));
    this.position = frame;
    this.frames.cache.focus(frame, this.direction, this.destination);
    // A step: if no other follows, the finger rests here.
    clearTimeout(this.restTimer);
    if (!this.jumping && this.destination === null) this.restTimer = window.setTimeout(() => this.rest(), REST_MS);
    this.pump();
  }

  /**
   * The finger rests (no step for REST_MS) and its exact frame is on its way in a running pass (one behind the finger,
   * or decoding towards it): the pass is told to hand that frame back first (DecodeJob.rush: the frames before it are
   * decoded, as the decoder needs, but not copied; that frame is sent alone, not in its batch, and as a bitmap at the
   * painter's size, as a jump's), and until it comes nothing else starts, as after a jump. In Firefox ESR, where
   * copying a 720p frame out costs 10 ms against 2 for decoding it (docs/results.md), the engines bench's first rest
   * waited for the 13 frames from the keyframe to be copied, and for the rest of the frame's batch: 101-142 ms quiet,
   * 335-389 ms beside a busy core. Unlike a jump's hurry the pass goes on: the decoder's position is kept and the
   * frames after that one come as before; the frames before it are planned again, after it.
   */
  private rest(): void {
    const p = this.position;
    const r: Rendition = this.highEnabled ? 'high' : 'low';
    if (this.destination !== null || this.frames.cache.kept[r].has(p)) return;
    let rushed = false;
    for (const job of this.jobs) {
      if (job.abort.signal.aborted || job.pass.keyframe || job.pass.rendition !== r || !job.waiting.has(p)) continue;
      job.rush(p, this.sink.bitmapSize);
      rushed = true;
    }
    if (!rushed) return;
    this.rushedRests++;
    this.jumping = true;
    this.pump();
  }

  /** Frame `frame` of rendition `r` is on its way in a pass not ended yet: it is not planned again meanwhile. */
  private pending(r: Rendition, frame: number): boolean {
    for (const j of this.jobs) if (j.pass.rendition === r && j.waiting.has(frame)) return true;
    return false;
  }

  /**
   * Where decoding is centred: the playhead, or during a fast travel its destination. The travel passes a clip every
   * couple of refreshes, faster than any frame on its way could be decoded (those show their clip's thumbnail), so
   * the workers decode the destination and the window around it instead.
   */
  private get focus(): number {
    return this.destination ?? this.position;
  }

  /** The planner's view of the decoding state (decode-planner.ts): what is kept, on its way and downloaded, as data. */
  private plan(high: boolean) {
    const { frames } = this;
    const pending = { low: new Set<number>(), high: new Set<number>() };
    for (const j of this.jobs) for (const f of j.waiting) pending[j.pass.rendition].add(f);
    return planJobs({
      starts: this.tour.starts,
      counts: this.tour.counts,
      clipOf: this.tour.clipOf,
      position: this.position,
      focus: this.focus,
      direction: this.direction,
      highEnabled: high,
      jumping: this.jumping,
      decoded: frames.cache.kept,
      pending,
      thumbnails: frames.state.thumbnails,
      downloads: this.fetching.downloads(),
    });
  }

  /**
   * Cancels running decodes whose frames are all outside the windows around the playhead, and while a fast scrub
   * decodes 360p (`high` false with hi-res on), the running 720p passes: the CPU goes to the frames the finger reaches.
   */
  private cancelStale(high: boolean): void {
    const { highEnabled } = this;
    const { starts } = this.tour;
    const o = { focus: this.focus, direction: this.direction, highEnabled, destination: this.destination };
    for (const job of this.jobs) {
      if (job.abort.signal.aborted) continue;
      const { pass } = job;
      const outrun = !high && highEnabled && pass.rendition === 'high' && !pass.keyframe;
      if (!outrun && !isStale(pass, { ...o, start: starts[pass.clip] ?? 0 })) continue;
      this.cancelledJobs++;
      delete this.cursors[job.worker]?.[pass.rendition];
      job.abort.abort();
    }
  }

  /** Plans again and starts what the free workers can take; called whenever anything the plan reads has changed. */
  pump(): void {
    const { bridges } = this.tour;
    if (!bridges.length) return;
    // 720p is planned: hi-res on, and no fast scrub outrunning its 720p frames (scrub-rendition.ts; a travel's
    // destination is 720p).
    const [lower, recheck] = this.scrub.plan(performance.now(), this.highEnabled && this.destination === null);
    const high = this.highEnabled && !lower;
    this.cancelStale(high);
    if (this.jumping) this.hurry(this.highEnabled ? 'high' : 'low');
    const { jobs, fetch, exactR: firstR, focusAt } = this.plan(high);
    // While the scrub decodes 360p, plan again when the finger may have come to rest (its exact 720p frame then).
    clearTimeout(this.scrubRecheck);
    if (recheck !== null) this.scrubRecheck = window.setTimeout(() => this.pump(), recheck - performance.now());
    // Until the first frame is on screen the link is its own (slow networks).
    if (this.firstArrived)
      for (const c of fetch) this.fetching.fetchHigh(c).catch(unlessAborted((e) => this.events.failed(e)));
    // While the exact frame at the playhead is being decoded (after a jump), nothing else starts:
    // on a two-core device any other decode slows the one the user is waiting for.
    const p = this.focus;
    const exactR: Rendition = this.highEnabled ? 'high' : 'low';
    if (this.frames.cache.kept[exactR].has(p)) this.jumping = false;
    for (const job of jobs) {
      // Checked per job: once the exact frame's job is started, the jobs after it wait.
      if (this.jumping && this.pending(firstR, p) && !job.keyframe) break;
      if (job.keyframe) {
        this.run(job.clip % bridges.length, job, focusAt);
        continue;
      }
      // Until the first frame is on screen, only its keyframe is fetched (slow networks).
      if (!this.firstArrived) break;
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
        if (!this.busy[owner]) this.run(owner, job, focusAt);
        continue;
      }
      const preferred = job.clip % bridges.length;
      const w = this.busy[preferred] ? this.busy.findIndex((b) => !b) : preferred;
      if (w < 0) break;
      this.run(w, job, focusAt);
    }
  }

  /**
   * After a jump (or for a travel's destination): when the exact frame is already on its way in a running pass that
   * copies other frames before it (a pass of the window, planned before the jump, whose first frame is not this one),
   * that pass stops and the frame gets a pass of its own, from the keyframe before it and made a bitmap at once, as
   * any jump's. Waiting for that pass meant its frames before the target copied and sent first, in batches: 300-450 ms
   * for the engines bench's jump 514 -> 477 in Firefox ESR and WebKitGTK beside a busy core, the slowest of its 12
   * (docs/results.md, issue 44), where a frame of its own takes one decode from its keyframe, one copy.
   */
  private hurry(r: Rendition): void {
    const p = this.focus;
    for (const job of this.jobs) {
      const { pass, waiting } = job;
      if (job.abort.signal.aborted || pass.keyframe || pass.rendition !== r || !waiting.has(p) || job.urgent === p)
        continue;
      let before = 0;
      for (const f of waiting) if (f < p) before++;
      if (before <= HURRY_AFTER) continue;
      this.cancelledJobs++;
      delete this.cursors[job.worker]?.[r];
      waiting.delete(p);
      job.abort.abort();
    }
  }

  private runningRendition(w: number): Rendition | undefined {
    for (const j of this.jobs)
      if (j.worker === w && !j.abort.signal.aborted && !j.pass.keyframe) return j.pass.rendition;
    return undefined;
  }

  /**
   * Starts `job` on worker `w` (startJob: its frames go into the cache and their pixels to the paint worker); `pl`: the
   * focus's clip and frame, from the plan.
   */
  private run(w: number, job: Job, pl: Plan['focusAt']): void {
    const { starts } = this.tour;
    const clip = this.tour.clips[job.clip];
    if (!clip) return;
    if (!job.keyframe) {
      this.busy[w] = true;
      const c = this.cursors[w];
      if (c) c[job.rendition] = { clip: job.clip, next: job.to + 1 };
    }
    // The painter's size is asked only when the frame waited for comes as a bitmap (not on a scrub's step).
    const bitmapSize = pl.clip === job.clip && (this.jumping || !this.firstArrived) ? this.sink.bitmapSize : undefined;
    const req = {
      rendition: job.rendition,
      clipIndex: job.clip,
      url: job.rendition === 'high' ? clip.highURI : clip.lowURI,
      from: job.from,
      to: job.to,
      batchSize: batchFor(job.rendition, this.tour.batch),
      id: this.nextJobId++,
      // After a jump and for the first frame, the frame waited for comes as a bitmap too (workers/frame-bitmap.ts).
      ...(pl.clip === job.clip ? { urgent: pl.local, ...(bitmapSize ? { canvas: bitmapSize } : {}) } : {}),
    };
    this.jobs.add(startJob(this.tour.bridges[w]!, job, w, req, starts[job.clip]!, this.frames, this));
    this.events.notePeak(this.inflightBytes);
  }

  /** A batch of a job's frames is kept (JobOwner): the element repaints; the first frame opens the link to the rest. */
  arrived(): void {
    this.events.notePeak(this.inflightBytes);
    this.events.framesArrived();
    if (!this.firstArrived) {
      // The first frame had the link to itself; now buffer and decode the rest.
      this.firstArrived = true;
      this.fetching.startLow();
      this.pump();
    }
  }

  /**
   * A job ended (JobOwner): a finished clip counts for the prefetcher, a failure is reported, and the worker takes the
   * next job.
   */
  ended(job: DecodeJob, failure?: { error: unknown }): void {
    const { pass } = job;
    if (failure) this.events.failed(failure.error);
    else if (pass.rendition === 'high' || !pass.keyframe) this.fetching.decoded(pass.clip, pass.rendition);
    this.jobs.delete(job);
    if (!pass.keyframe) this.busy[job.worker] = false;
    this.pump();
  }
}
