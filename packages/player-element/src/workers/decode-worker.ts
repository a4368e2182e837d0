/// <reference lib="webworker" />
/**
 * Decode worker: fetches fragmented-MP4 H.264 clips, demuxes them with mp4box and decodes
 * them with WebCodecs. Every VideoFrame is copied out to I420 and closed at once, so at most
 * a handful are ever open; the copies are transferred (not cloned) to the main thread.
 */
import { expose, transfer } from 'comlink';
import { createFile, DataStream, Endianness } from 'mp4box';
import type { DecodedFrame, DecodeRequest, Rendition, WorkerStats } from './decode-types.js';

interface EncodedClip {
  codec: string;
  description: Uint8Array;
  width: number;
  height: number;
  samples: { data: Uint8Array; key: boolean; timestamp: number; duration: number }[];
  bytes: number;
}

/** Encoded clips kept per worker; bounded so a long tour does not grow memory without limit. */
const ENCODED_BUDGET_BYTES = 48 * 1024 * 1024;
const encoded = new Map<string, Promise<EncodedClip>>();
const encodedSizes = new Map<string, number>();
let encodedBytes = 0;
const stats: WorkerStats = { openFrames: 0, maxOpenFrames: 0, encodedBytes: 0, decodedFrames: 0 };

function keyOf(rendition: Rendition, clipIndex: number): string {
  return `${rendition}:${clipIndex}`;
}

function demux(buffer: ArrayBuffer): EncodedClip {
  const file = createFile();
  let clip: EncodedClip | undefined;
  let error: unknown;
  file.onError = (e: unknown) => {
    error = e;
  };
  file.onReady = (info) => {
    const track = info.videoTracks[0];
    if (!track) {
      error = new Error('no video track');
      return;
    }
    const trak = file.getTrackById(track.id);
    const entry = trak?.mdia?.minf?.stbl?.stsd?.entries?.[0] as { avcC?: { write(s: DataStream): void } } | undefined;
    if (!entry?.avcC) {
      error = new Error('unsupported codec');
      return;
    }
    const stream = new DataStream(undefined, 0, Endianness.BIG_ENDIAN);
    entry.avcC.write(stream);
    clip = {
      codec: track.codec,
      description: new Uint8Array(stream.buffer as ArrayBuffer, 8),
      width: track.video?.width ?? 0,
      height: track.video?.height ?? 0,
      samples: [],
      bytes: buffer.byteLength,
    };
    file.setExtractionOptions(track.id, null, { nbSamples: 100_000 });
    file.start();
  };
  file.onSamples = (_id: number, _user: unknown, samples: { data?: Uint8Array; is_sync: boolean; cts: number; duration: number; timescale: number }[]) => {
    for (const s of samples) {
      if (!s.data || !clip) continue;
      clip.samples.push({
        data: s.data,
        key: s.is_sync,
        timestamp: Math.round((s.cts * 1e6) / s.timescale),
        duration: Math.round((s.duration * 1e6) / s.timescale),
      });
    }
  };
  const ab = buffer as ArrayBuffer & { fileStart: number };
  ab.fileStart = 0;
  file.appendBuffer(ab as never);
  file.flush();
  if (error || !clip) throw error instanceof Error ? error : new Error('demux failed');
  if (!clip.samples[0]?.key) throw new Error('clip does not start on a keyframe');
  return clip;
}

function evictEncoded(): void {
  for (const [key, size] of encodedSizes) {
    if (encodedBytes <= ENCODED_BUDGET_BYTES) break;
    encoded.delete(key);
    encodedSizes.delete(key);
    encodedBytes -= size;
  }
  stats.encodedBytes = encodedBytes;
}

function loadClip(rendition: Rendition, clipIndex: number, url: string, signalTimeoutMs = 0): Promise<EncodedClip> {
  const key = keyOf(rendition, clipIndex);
  const existing = encoded.get(key);
  if (existing) {
    // Refresh its place in the LRU order.
    const size = encodedSizes.get(key);
    if (size !== undefined) {
      encodedSizes.delete(key);
      encodedSizes.set(key, size);
    }
    return existing;
  }
  const p = (async () => {
    const res = await fetch(url, signalTimeoutMs ? { signal: AbortSignal.timeout(signalTimeoutMs) } : {});
    if (!res.ok) throw new Error(`clip ${clipIndex} (${rendition}) HTTP ${res.status}`);
    const clip = demux(await res.arrayBuffer());
    encodedSizes.set(key, clip.bytes);
    encodedBytes += clip.bytes;
    evictEncoded();
    return clip;
  })();
  encoded.set(key, p);
  p.catch(() => encoded.delete(key));
  return p;
}

// One decoder per rendition, reconfigured only when the stream description changes.
const decoders = new Map<Rendition, { decoder: VideoDecoder; configKey: string; sink: (f: VideoFrame) => void; fail: (e: unknown) => void }>();
let queue: Promise<unknown> = Promise.resolve();

function getDecoder(rendition: Rendition, clip: EncodedClip) {
  const configKey = `${clip.codec}|${clip.width}x${clip.height}|${Array.from(clip.description).join(',')}`;
  let d = decoders.get(rendition);
  if (d && d.decoder.state !== 'closed' && d.configKey === configKey) return d;
  if (d && d.decoder.state !== 'closed') d.decoder.close();
  const holder = {
    sink: (f: VideoFrame) => f.close(),
    fail: (_e: unknown) => {},
  } as { decoder: VideoDecoder; configKey: string; sink: (f: VideoFrame) => void; fail: (e: unknown) => void };
  holder.decoder = new VideoDecoder({
    output: (f) => {
      stats.openFrames++;
      stats.maxOpenFrames = Math.max(stats.maxOpenFrames, stats.openFrames);
      holder.sink(f);
    },
    error: (e) => holder.fail(e),
  });
  holder.decoder.configure({
    codec: clip.codec,
    description: clip.description,
    codedWidth: clip.width,
    codedHeight: clip.height,
    optimizeForLatency: true,
    hardwareAcceleration: 'no-preference',
  });
  holder.configKey = configKey;
  decoders.set(rendition, holder);
  return holder;
}

function closeFrame(f: VideoFrame): void {
  f.close();
  stats.openFrames--;
}

async function runDecode(req: DecodeRequest, onBatch: (frames: DecodedFrame[]) => void | Promise<void>): Promise<number> {
  const clip = await loadClip(req.rendition, req.clipIndex, req.url);
  const last = Math.min(req.to, clip.samples.length - 1);
  const from = Math.max(0, Math.min(req.from, last));
  const d = getDecoder(req.rendition, clip);
  let index = 0;
  let batch: DecodedFrame[] = [];
  let copying: Promise<void> = Promise.resolve();
  let failure: unknown;
  const flushBatch = async () => {
    if (!batch.length) return;
    const out = batch;
    batch = [];
    await onBatch(transfer(out, out.map((f) => f.data)));
  };
  d.fail = (e) => {
    failure = e;
  };
  d.sink = (frame) => {
    const i = index++;
    if (i < from || i > last) {
      closeFrame(frame);
      return;
    }
    const width = frame.visibleRect?.width ?? frame.codedWidth;
    const height = frame.visibleRect?.height ?? frame.codedHeight;
    const size = width * height * 1.5;
    const data = new ArrayBuffer(size);
    // Copy out to tightly packed I420 and close the VideoFrame immediately.
    const layout: PlaneLayout[] = [
      { offset: 0, stride: width },
      { offset: width * height, stride: width / 2 },
      { offset: width * height * 1.25, stride: width / 2 },
    ];
    const p = frame.format === 'I420'
      ? frame.copyTo(data, { layout, rect: { x: 0, y: 0, width, height } })
      : Promise.reject(new Error(`unsupported frame format ${frame.format ?? 'null'}`));
    // Close as soon as this frame's copy is done, independent of batching.
    const copied = p.finally(() => closeFrame(frame));
    copied.catch(() => undefined);
    copying = copying
      .then(() => copied)
      .then(async () => {
        stats.decodedFrames++;
        batch.push({ rendition: req.rendition, clipIndex: req.clipIndex, frame: i, width, height, data });
        if (batch.length >= req.batchSize || i === last) await flushBatch();
      });
  };
  for (let i = 0; i <= last; i++) {
    const s = clip.samples[i]!;
    d.decoder.decode(new EncodedVideoChunk({ type: s.key ? 'key' : 'delta', timestamp: s.timestamp, duration: s.duration, data: s.data }));
  }
  await d.decoder.flush();
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  await copying;
  await flushBatch();
  return last - from + 1;
}

const api = {
  /** Fetches and demuxes a clip without decoding it (buffer progress). Resolves with its sample count. */
  async prefetch(rendition: Rendition, clipIndex: number, url: string): Promise<number> {
    const clip = await loadClip(rendition, clipIndex, url);
    return clip.samples.length;
  },
  /** Decodes frames [from, to] of a clip; batches are delivered through onBatch as they are ready. */
  decode(req: DecodeRequest, onBatch: (frames: DecodedFrame[]) => void | Promise<void>): Promise<number> {
    // One decode at a time per worker: the decoder is stateful.
    const run = queue.then(() => runDecode(req, onBatch));
    queue = run.catch(() => undefined);
    return run;
  },
  stats(): WorkerStats {
    return { ...stats, encodedBytes };
  },
  dispose(): void {
    for (const d of decoders.values()) if (d.decoder.state !== 'closed') d.decoder.close();
    decoders.clear();
    encoded.clear();
    encodedSizes.clear();
    encodedBytes = 0;
  },
};

export type DecodeWorkerApi = typeof api;
expose(api);
