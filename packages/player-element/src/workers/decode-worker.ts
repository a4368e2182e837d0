/// <reference lib="webworker" />
/**
 * Decode worker: decodes the clips (fragmented-MP4 H.264, fetched and demuxed by clip-loader.ts) with WebCodecs, in
 * three steps per request: plan (which samples go in), feed and drain (the decoder), copy out (copy-out.ts: every
 * VideoFrame copied in whatever format the decoder hands out and closed at once, so at most a handful are ever open;
 * the copies are transferred).
 */
import { expose, transfer } from 'comlink';
import { type CopyOut, createCopyOut, type OnBatch } from './copy-out.js';
import { thumbnailBitmap } from './frame-bitmap.js';
import { clearClips, type EncodedClip, encodedBytesHeld, loadClip } from './clip-loader.js';
import type { DecodeRequest, Rendition, Rush, WorkerStats } from './decode-types.js';
import { mark, timeline, trace, traceEvent } from './timeline.js';

mark('started');

const stats: WorkerStats = {
  openFrames: 0,
  maxOpenFrames: 0,
  encodedBytes: 0,
  decodedFrames: 0,
  decodeMs: 0,
  framesThroughDecoder: 0,
  stallFlushes: 0,
  resumedPasses: 0,
  resumedSamples: 0,
  resumedSingles: 0,
};

// One decoder per rendition, reconfigured only when the stream description changes.
type DecoderKey = Rendition | 'keyframe';
interface DecoderHolder {
  decoder: VideoDecoder;
  configKey: string;
  sink: (f: VideoFrame) => void;
  fail: (e: unknown) => void;
  /**
   * Where the decoder stands when it was left without a flush: the clip it is in and how many of
   * its samples went in (all of them came out). A later request for frames at or after `fed` of
   * the same clip goes on from there instead of decoding again from the keyframe, so scrubbing
   * forward through a GOP costs one decode per frame, not one pass per window step.
   */
  cursor: { clip: EncodedClip; fed: number } | undefined;
}
const decoders = new Map<DecoderKey, DecoderHolder>();
let queue: Promise<unknown> = Promise.resolve();
const cancelled = new Set<number>();
/** The frame the finger rests on, per running or queued request (api.rush), and the running requests' copy-outs. */
const rushes = new Map<number, Rush>();
const copyOuts = new Map<number, CopyOut>();
let running: { id: number | undefined; decoder: VideoDecoder; stop: () => void } | undefined;
let keyframeQueue: Promise<unknown> = Promise.resolve();
/** With no output for this long and nothing queued, a decoder is flushed (it is holding frames back). */
const STALL_MS = 400;

function decoderConfig(clip: EncodedClip): VideoDecoderConfig {
  return {
    codec: clip.codec,
    description: clip.description,
    codedWidth: clip.width,
    codedHeight: clip.height,
    // Low delay: every output comes without a flush, which is what lets a decode go on later.
    optimizeForLatency: true,
    hardwareAcceleration: 'no-preference',
  };
}

function getDecoder(rendition: DecoderKey, clip: EncodedClip): DecoderHolder {
  const configKey = `${clip.codec}|${clip.width}x${clip.height}|${Array.from(clip.description).join(',')}`;
  const d = decoders.get(rendition);
  if (d && d.decoder.state === 'configured' && d.configKey === configKey) return d;
  if (d && d.decoder.state === 'unconfigured' && d.configKey === configKey) {
    // reset() by a cancel (a jump): configure the same decoder again rather than build a new one.
    d.decoder.configure(decoderConfig(clip));
    return d;
  }
  if (d && d.decoder.state !== 'closed') d.decoder.close();
  const holder = {
    sink: (f: VideoFrame) => f.close(),
    fail: (_e: unknown) => {},
    cursor: undefined,
  } as unknown as DecoderHolder;
  holder.decoder = new VideoDecoder({
    output: (f) => {
      mark('decoded');
      stats.openFrames++;
      stats.maxOpenFrames = Math.max(stats.maxOpenFrames, stats.openFrames);
      holder.sink(f);
    },
    error: (e) => holder.fail(e),
  });
  mark('configure');
  holder.decoder.configure(decoderConfig(clip));
  mark('configured');
  holder.configKey = configKey;
  decoders.set(rendition, holder);
  return holder;
}

/** Index of the last keyframe at or before sample `i` of a clip (0 at worst: a clip starts on one). */
function keyframeAtOrBefore(clip: EncodedClip, i: number): number {
  for (let k = i; k > 0; k--) if (clip.samples[k]!.key) return k;
  return 0;
}

function closeFrame(f: VideoFrame): void {
  f.close();
  stats.openFrames--;
}

/**
 * The plan of one decode: which frames are copied out, which samples go in, and whether the decoder may be left as it
 * is.
 */
interface DecodePlan {
  clip: EncodedClip;
  from: number;
  last: number;
  /** First sample fed: the decoder's cursor when it can go on, else the last keyframe at or before `from`. */
  start: number;
  feedLast: number;
  /** Left without a flush, so a later request in the same clip goes on from here. */
  resumable: boolean;
}

/**
 * Step 1, demux: the clip (only its first sample for a keyframe request, decoded while the rest downloads), and the
 * plan.
 */
async function planDecode(
  req: DecodeRequest,
  decoderKey: DecoderKey,
): Promise<{ plan: DecodePlan; d: DecoderHolder } | undefined> {
  const loadingClip = loadClip(req.rendition, req.clipIndex, req.url);
  const clip = req.to === 0 ? await loadingClip.first : await loadingClip.full;
  if (req.id !== undefined && cancelled.has(req.id)) return undefined;
  const last = Math.min(req.to, clip.samples.length - 1);
  const from = Math.max(0, Math.min(req.from, last));
  const d = getDecoder(decoderKey, clip);
  // Go on from where this decoder stopped in the same clip, or start at the last keyframe at or before `from`
  // (clips carry a keyframe every few frames in closed GOPs, so a jump decodes only the frames since that one),
  // whichever is later. With B-frames output order differs from decode order: those clips are always fed whole
  // from their first sample and flushed.
  const resumable = !clip.reordered && decoderKey !== 'keyframe';
  const keyStart = clip.reordered ? 0 : keyframeAtOrBefore(clip, from);
  const start =
    resumable && d.cursor?.clip === clip && d.cursor.fed <= from && d.cursor.fed >= keyStart ? d.cursor.fed : keyStart;
  if (decoderKey === 'high' && resumable && start > keyStart) {
    stats.resumedPasses++;
    stats.resumedSamples += last - start + 1;
    if (last === start && last < clip.samples.length - 1) stats.resumedSingles++;
  }
  d.cursor = undefined;
  traceEvent('from', req.id, start);
  // Outputs come in presentation order; with B-frames a frame may need later samples, so feed all.
  const feedLast = clip.reordered && req.to !== 0 ? clip.samples.length - 1 : last;
  return { plan: { clip, from, last, start, feedLast, resumable }, d };
}

/**
 * Step 2, decode: feeds the plan's samples and waits until they have come out. A resumable decode is not flushed (a
 * flush demands a keyframe next) unless the decoder holds frames back; it leaves the decoder's cursor after the last
 * sample.
 */
async function feedAndDrain(
  d: DecoderHolder,
  plan: DecodePlan,
  id: number | undefined,
  outputs: () => number,
): Promise<unknown> {
  let failure: unknown;
  let wake = () => {};
  let stopped = false;
  d.fail = (e) => {
    failure = e;
    wake();
  };
  const sink = d.sink;
  d.sink = (frame) => {
    sink(frame);
    wake();
  };
  stats.framesThroughDecoder += plan.feedLast + 1 - plan.start;
  for (let i = plan.start; i <= plan.feedLast; i++) {
    const s = plan.clip.samples[i]!;
    d.decoder.decode(
      new EncodedVideoChunk({
        type: s.key ? 'key' : 'delta',
        timestamp: s.timestamp,
        duration: s.duration,
        data: s.data,
      }),
    );
  }
  traceEvent('fed', id, d.decoder.decodeQueueSize);
  running = {
    id,
    decoder: d.decoder,
    stop: () => {
      stopped = true;
      wake();
    },
  };
  const done = () => plan.start + outputs() > plan.feedLast;
  try {
    if (!plan.resumable) {
      await d.decoder.flush();
      return failure;
    }
    let lastOutputAt = performance.now();
    let seen = outputs();
    while (!done() && !failure && !stopped && d.decoder.state === 'configured') {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, STALL_MS);
      });
      wake = () => {};
      if (outputs() !== seen) {
        seen = outputs();
        lastOutputAt = performance.now();
      } else if (!done() && d.decoder.decodeQueueSize === 0 && performance.now() - lastOutputAt >= STALL_MS) {
        // This decoder holds frames back: flush them out (the next request starts at a keyframe).
        stats.stallFlushes++;
        await d.decoder.flush();
        return failure;
      }
    }
    if (!failure && !stopped && done() && d.decoder.state === 'configured')
      d.cursor = { clip: plan.clip, fed: plan.feedLast + 1 };
    return failure;
  } catch (e) {
    // reset() by cancel(): not an error, the frames copied so far are still delivered.
    if (id === undefined || !cancelled.has(id)) throw e;
    return failure;
  } finally {
    running = undefined;
  }
}

/**
 * Decodes frames [from, to] of a clip in three steps: plan (demux), feed and drain (decode), copy out. Resolves with
 * the frames sent.
 */
async function runDecode(
  req: DecodeRequest,
  onBatch: OnBatch,
  decoderKey: DecoderKey = req.rendition,
): Promise<number> {
  const planned = await planDecode(req, decoderKey);
  if (!planned) return 0;
  const { plan, d } = planned;
  const rushed = () => (req.id === undefined ? undefined : rushes.get(req.id));
  const copyOut = createCopyOut(req, plan, onBatch, closeFrame, () => stats.decodedFrames++, rushed);
  // (A decode's, told of a rest; removed when the decode ends, in api.decode.)
  if (req.id !== undefined && decoderKey !== 'keyframe') copyOuts.set(req.id, copyOut);
  let outputs = 0;
  d.sink = (frame) => {
    const i = plan.start + outputs++;
    if (i === plan.start) traceEvent('first out', req.id, i);
    if (i === req.urgent) traceEvent('out', req.id, i);
    copyOut.take(frame, i);
  };
  const t0 = performance.now();
  let failure: unknown;
  try {
    failure = await feedAndDrain(d, plan, req.id, () => outputs);
  } finally {
    stats.decodeMs += performance.now() - t0;
  }
  if (failure && !(req.id !== undefined && cancelled.has(req.id)))
    throw failure instanceof Error ? failure : new Error(String(failure));
  await copyOut.finish();
  return plan.last - plan.from + 1;
}

const api = {
  /** Fetches and demuxes a clip without decoding it (buffer progress). Resolves with its sample count. */
  async prefetch(rendition: Rendition, clipIndex: number, url: string): Promise<number> {
    const clip = await loadClip(rendition, clipIndex, url).full;
    return clip.samples.length;
  },
  /**
   * Decodes only a clip's keyframe on its own decoder, beside any running decode: the
   * placeholder shown at once after a jump, and the first frame on a slow network.
   */
  keyframe(req: DecodeRequest, onBatch: OnBatch): Promise<number> {
    traceEvent('req', req.id);
    const run = keyframeQueue.then(() => {
      traceEvent('run', req.id);
      return runDecode({ ...req, from: 0, to: 0, batchSize: 1 }, onBatch, 'keyframe');
    });
    keyframeQueue = run.catch(() => undefined);
    return run;
  },
  /** Decodes frames [from, to] of a clip; batches are delivered through onBatch as they are ready. */
  decode(req: DecodeRequest, onBatch: OnBatch): Promise<number> {
    // One decode at a time per worker: the decoder is stateful.
    traceEvent('req', req.id);
    const run = queue.then(() => {
      traceEvent('run', req.id);
      return req.id !== undefined && cancelled.has(req.id) ? 0 : runDecode(req, onBatch);
    });
    queue = run.catch(() => undefined);
    return run.finally(() => {
      traceEvent('end', req.id);
      if (req.id !== undefined) {
        cancelled.delete(req.id);
        rushes.delete(req.id);
        copyOuts.delete(req.id);
      }
    });
  },
  /**
   * The finger rests on frame `rush.frame` of request `id` (running or queued): that frame first. Its frames before
   * that one are decoded (the decoder needs them) but no longer copied out, which in Firefox ESR costs 10 ms a frame
   * beside 2 for decoding (docs/results.md); that frame is sent the moment it is copied, as a bitmap where asked, or
   * at once if it is copied already.
   */
  rush(id: number, rush: Rush): void {
    traceEvent('rush', id, rush.frame);
    rushes.set(id, rush);
    // Already copied and waiting for its batch to fill: sent now (it then goes through the paint worker).
    copyOuts.get(id)?.rush();
  },
  /**
   * A small bitmap of a clip's keyframe (the jump placeholder). Decoded on the keyframe decoder, copied out and scaled
   * on a canvas (frame-bitmap.ts); the VideoFrame is closed at once.
   */
  thumbnail(rendition: Rendition, clipIndex: number, url: string, width: number, height: number): Promise<ImageBitmap> {
    const run = keyframeQueue.then(async () => {
      const clip = await loadClip(rendition, clipIndex, url).first;
      const d = getDecoder('keyframe', clip);
      let out: VideoFrame | undefined;
      let failure: unknown;
      d.sink = (f) => {
        if (out) closeFrame(f);
        else out = f;
      };
      d.fail = (e) => {
        failure = e;
      };
      const s0 = clip.samples[0]!;
      d.decoder.decode(
        new EncodedVideoChunk({ type: 'key', timestamp: s0.timestamp, duration: s0.duration, data: s0.data }),
      );
      await d.decoder.flush();
      if (failure || !out) throw failure instanceof Error ? failure : new Error('no keyframe');
      const frame: VideoFrame = out;
      try {
        const bitmap = await thumbnailBitmap(frame, width, height, clip.fullRange);
        return transfer(bitmap, [bitmap]);
      } finally {
        closeFrame(frame);
      }
    });
    keyframeQueue = run.catch(() => undefined);
    return run;
  },
  /** Drops a queued decode, or stops a running one at once (the playhead went elsewhere). */
  cancel(id: number): void {
    cancelled.add(id);
    traceEvent('cancel', id, running?.id === id ? 1 : 0);
    if (running?.id === id) {
      if (running.decoder.state === 'configured') running.decoder.reset();
      running.stop();
    }
  },
  stats(): WorkerStats {
    return { ...stats, encodedBytes: encodedBytesHeld() };
  },
  /**
   * Pays the decoder's one-time set-up while the tour query is in flight: asking whether the tours' codec is supported
   * loads the platform's decoder (WebKitGTK builds its GStreamer elements here, up to a second on a busy machine).
   */
  async warm(codec: string): Promise<boolean> {
    mark('warm');
    const { supported } = await VideoDecoder.isConfigSupported({
      codec,
      codedWidth: 1280,
      codedHeight: 720,
      optimizeForLatency: true,
    });
    mark('warmed');
    return supported === true;
  },
  /** First-time marks of this worker's start-up (timeline.ts): the bench's first-frame breakdown. */
  timeline,
  /** Per-request events (timeline.ts trace): the engines bench's jump breakdown. */
  trace,
  dispose(): void {
    for (const d of decoders.values()) if (d.decoder.state !== 'closed') d.decoder.close();
    decoders.clear();
    clearClips();
  },
};

export type DecodeWorkerApi = typeof api;
expose(api);
