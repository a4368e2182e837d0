/// <reference lib="webworker" />
/**
 * Decode worker: decodes the clips (fragmented-MP4 H.264, fetched and demuxed by clip-loader.ts) with WebCodecs. Every VideoFrame is copied out (I420 or RGBA, whatever format the decoder
 * hands out: frame-formats.ts) and closed at once, so at most a handful are ever open; the copies
 * are transferred (not cloned) to the main thread.
 */
import { expose, transfer } from 'comlink';
import { frameBitmap } from './frame-bitmap.js';
import { copyFrame } from './frame-formats.js';
import { clearClips, type EncodedClip, encodedBytesHeld, loadClip } from './clip-loader.js';
import type { DecodedFrame, DecodeRequest, Rendition, WorkerStats } from './decode-types.js';

const stats: WorkerStats = { openFrames: 0, maxOpenFrames: 0, encodedBytes: 0, decodedFrames: 0, decodeMs: 0, framesThroughDecoder: 0 };

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
      stats.openFrames++;
      stats.maxOpenFrames = Math.max(stats.maxOpenFrames, stats.openFrames);
      holder.sink(f);
    },
    error: (e) => holder.fail(e),
  });
  holder.decoder.configure(decoderConfig(clip));
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

async function runDecode(req: DecodeRequest, onBatch: (frames: DecodedFrame[]) => void | Promise<void>, decoderKey: DecoderKey = req.rendition): Promise<number> {
  const loadingClip = loadClip(req.rendition, req.clipIndex, req.url);
  // A keyframe-only request needs only the first sample: decode it while the rest downloads.
  const clip = req.to === 0 ? await loadingClip.first : await loadingClip.full;
  // Cancelled while the clip was downloading.
  if (req.id !== undefined && cancelled.has(req.id)) return 0;
  const last = Math.min(req.to, clip.samples.length - 1);
  const from = Math.max(0, Math.min(req.from, last));
  const d = getDecoder(decoderKey, clip);
  // Go on from where this decoder stopped in the same clip, or start at the last keyframe at or before `from`
  // (clips carry a keyframe every few frames in closed GOPs, so a jump decodes only the frames since that one),
  // whichever is later. With B-frames output order differs from decode order: those clips are always fed whole
  // from their first sample and flushed.
  const resumable = !clip.reordered && decoderKey !== 'keyframe';
  const keyStart = clip.reordered ? 0 : keyframeAtOrBefore(clip, from);
  const start = resumable && d.cursor?.clip === clip && d.cursor.fed <= from && d.cursor.fed >= keyStart ? d.cursor.fed : keyStart;
  d.cursor = undefined;
  let index = start;
  let batch: DecodedFrame[] = [];
  let copying: Promise<void> = Promise.resolve();
  let failure: unknown;
  let wake = () => {};
  const flushBatch = async () => {
    if (!batch.length) return;
    const out = batch;
    batch = [];
    await onBatch(
      transfer(
        out,
        out.flatMap((f) => (f.bitmap ? [f.data, f.bitmap] : [f.data])),
      ),
    );
  };
  d.fail = (e) => {
    failure = e;
    wake();
  };
  d.sink = (frame) => {
    const i = index++;
    wake();
    if (i < from || i > last) {
      closeFrame(frame);
      return;
    }
    // Copy out (any pixel format: frame-formats.ts) and close the VideoFrame as soon as that copy and the bitmap a
    // jump waits for are made, independent of batching.
    const size = { width: frame.visibleRect?.width ?? frame.codedWidth, height: frame.visibleRect?.height ?? frame.codedHeight };
    const copied = Promise.all([copyFrame(frame), i === req.urgent && req.canvas ? frameBitmap(frame, size, req.canvas) : undefined]).finally(() => closeFrame(frame));
    copied.catch(() => undefined);
    copying = copying
      .then(() => copied)
      .then(async ([pixels, bitmap]) => {
        stats.decodedFrames++;
        batch.push({ rendition: req.rendition, clipIndex: req.clipIndex, frame: i, ...pixels, ...(bitmap ? { bitmap } : {}) });
        if (batch.length >= req.batchSize || i === last || i === req.urgent) await flushBatch();
      });
  };
  const t0 = performance.now();
  // Outputs come in presentation order; with B-frames a frame may need later samples, so feed all.
  const feedLast = clip.reordered && req.to !== 0 ? clip.samples.length - 1 : last;
  stats.framesThroughDecoder += feedLast + 1 - start;
  for (let i = start; i <= feedLast; i++) {
    const s = clip.samples[i]!;
    d.decoder.decode(new EncodedVideoChunk({ type: s.key ? 'key' : 'delta', timestamp: s.timestamp, duration: s.duration, data: s.data }));
  }
  let stopped = false;
  running = {
    id: req.id,
    decoder: d.decoder,
    stop: () => {
      stopped = true;
      wake();
    },
  };
  try {
    if (resumable) {
      // No flush (it would demand a keyframe next): wait until the last fed sample has come out.
      let lastOutputAt = performance.now();
      let seen = index;
      let flushed = false;
      while (index <= feedLast && !failure && !stopped && d.decoder.state === 'configured') {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, STALL_MS);
        });
        wake = () => {};
        if (index !== seen) {
          seen = index;
          lastOutputAt = performance.now();
        } else if (index <= feedLast && d.decoder.decodeQueueSize === 0 && performance.now() - lastOutputAt >= STALL_MS) {
          // This decoder holds frames back: flush them out (the next request starts at a keyframe).
          flushed = true;
          await d.decoder.flush();
          break;
        }
      }
      if (!flushed && !failure && !stopped && index > feedLast && d.decoder.state === 'configured') d.cursor = { clip, fed: feedLast + 1 };
    } else {
      await d.decoder.flush();
    }
  } catch (e) {
    // reset() by cancel(): not an error, the frames copied so far are still delivered.
    if (req.id === undefined || !cancelled.has(req.id)) throw e;
  } finally {
    running = undefined;
    stats.decodeMs += performance.now() - t0;
  }
  if (failure && !(req.id !== undefined && cancelled.has(req.id))) throw failure instanceof Error ? failure : new Error(String(failure));
  await copying;
  await flushBatch();
  return last - from + 1;
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
  keyframe(req: DecodeRequest, onBatch: (frames: DecodedFrame[]) => void | Promise<void>): Promise<number> {
    const run = keyframeQueue.then(() => runDecode({ ...req, from: 0, to: 0, batchSize: 1 }, onBatch, 'keyframe'));
    keyframeQueue = run.catch(() => undefined);
    return run;
  },
  /** Decodes frames [from, to] of a clip; batches are delivered through onBatch as they are ready. */
  decode(req: DecodeRequest, onBatch: (frames: DecodedFrame[]) => void | Promise<void>): Promise<number> {
    // One decode at a time per worker: the decoder is stateful.
    const run = queue.then(() => (req.id !== undefined && cancelled.has(req.id) ? 0 : runDecode(req, onBatch)));
    queue = run.catch(() => undefined);
    return run.finally(() => {
      if (req.id !== undefined) cancelled.delete(req.id);
    });
  },
  /**
   * A small bitmap of a clip's keyframe (the jump placeholder). Decoded on the keyframe decoder
   * and scaled by the browser; the VideoFrame is closed at once.
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
      d.decoder.decode(new EncodedVideoChunk({ type: 'key', timestamp: s0.timestamp, duration: s0.duration, data: s0.data }));
      await d.decoder.flush();
      if (failure || !out) throw failure instanceof Error ? failure : new Error('no keyframe');
      const frame: VideoFrame = out;
      try {
        const bitmap = await createImageBitmap(frame, { resizeWidth: width, resizeHeight: height, resizeQuality: 'medium' });
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
    const { supported } = await VideoDecoder.isConfigSupported({ codec, codedWidth: 1280, codedHeight: 720, optimizeForLatency: true });
    return supported === true;
  },
  dispose(): void {
    for (const d of decoders.values()) if (d.decoder.state !== 'closed') d.decoder.close();
    decoders.clear();
    clearClips();
  },
};

export type DecodeWorkerApi = typeof api;
expose(api);
