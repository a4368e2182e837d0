/// <reference lib="webworker" />
/**
 * The decode worker's clips: fetched, streamed into mp4box and demuxed into encoded samples as their bytes arrive (the
 * keyframe can be decoded before the rest of the clip is in), kept in a bounded LRU per worker (48 MB).
 */
import { createFile, DataStream, Endianness } from 'mp4box';
import type { Rendition } from './decode-types.js';
import { avcFullRange } from './full-range.js';
import { mark } from './timeline.js';

export interface EncodedClip {
  codec: string;
  description: Uint8Array;
  width: number;
  height: number;
  samples: { data: Uint8Array; key: boolean; timestamp: number; duration: number }[];
  bytes: number;
  /** Decode order differs from presentation order (B-frames): decode the whole clip. */
  reordered: boolean;
  /** The stream's SPS says full range (full-range.ts: engines that do not honour it). */
  fullRange: boolean;
}

/** Encoded clips kept per worker; bounded so a long tour does not grow memory without limit. */
const ENCODED_BUDGET_BYTES = 48 * 1024 * 1024;
const encodedSizes = new Map<string, number>();
let encodedBytes = 0;

function keyOf(rendition: Rendition, clipIndex: number): string {
  return `${rendition}:${clipIndex}`;
}

/**
 * Streams a clip into mp4box. Samples are collected as their bytes arrive, so the keyframe can be
 * decoded before the rest of the clip has downloaded (first frame on slow networks).
 */
class ClipDemuxer {
  clip: EncodedClip | undefined;
  error: unknown;
  private file = createFile();
  private offset = 0;
  private firstWaiters: (() => void)[] = [];

  constructor() {
    this.file.onError = (e: unknown) => {
      this.error = e instanceof Error ? e : new Error(String(e));
    };
    this.file.onReady = (info) => {
      const track = info.videoTracks[0];
      if (!track) {
        this.error = new Error('no video track');
        return;
      }
      const trak = this.file.getTrackById(track.id);
      const entry = trak?.mdia?.minf?.stbl?.stsd?.entries?.[0] as { avcC?: { write(s: DataStream): void } } | undefined;
      if (!entry?.avcC) {
        this.error = new Error('Unsupported frame format');
        return;
      }
      const stream = new DataStream(undefined, 0, Endianness.BIG_ENDIAN);
      entry.avcC.write(stream);
      const description = new Uint8Array(stream.buffer as ArrayBuffer, 8);
      this.clip = {
        codec: track.codec,
        description,
        width: track.video?.width ?? 0,
        height: track.video?.height ?? 0,
        samples: [],
        bytes: 0,
        reordered: false,
        fullRange: avcFullRange(description),
      };
      this.file.setExtractionOptions(track.id, null, { nbSamples: 1 });
      this.file.start();
    };
    this.file.onSamples = (
      _id: number,
      _user: unknown,
      samples: { data?: Uint8Array; is_sync: boolean; cts: number; dts: number; duration: number; timescale: number }[],
    ) => {
      const clip = this.clip;
      if (!clip) return;
      for (const s of samples) {
        if (!s.data) continue;
        if (s.cts !== s.dts) clip.reordered = true;
        clip.samples.push({
          data: s.data,
          key: s.is_sync,
          timestamp: Math.round((s.cts * 1e6) / s.timescale),
          duration: Math.round((s.duration * 1e6) / s.timescale),
        });
      }
      if (clip.samples.length) mark('keyframe in');
      if (clip.samples.length) for (const w of this.firstWaiters.splice(0)) w();
    };
  }

  append(chunk: Uint8Array): void {
    const ab = chunk.slice().buffer as ArrayBuffer & { fileStart: number };
    ab.fileStart = this.offset;
    this.offset += chunk.byteLength;
    this.file.appendBuffer(ab as never);
  }

  finish(): EncodedClip {
    this.file.flush();
    const clip = this.clip;
    if (this.error || !clip || !clip.samples.length)
      throw this.error instanceof Error ? this.error : new Error('demux failed');
    if (!clip.samples[0]!.key) throw new Error('clip does not start on a keyframe');
    clip.bytes = this.offset;
    return clip;
  }

  /** Resolves once the first sample (the keyframe) is available. */
  first(): Promise<void> {
    if (this.clip?.samples.length) return Promise.resolve();
    return new Promise((resolve) => this.firstWaiters.push(resolve));
  }
}

function evictEncoded(): void {
  for (const [key, size] of encodedSizes) {
    if (encodedBytes <= ENCODED_BUDGET_BYTES) break;
    loading.delete(key);
    encodedSizes.delete(key);
    encodedBytes -= size;
  }
}

interface Loading {
  full: Promise<EncodedClip>;
  /** The clip with at least its keyframe; resolves before `full` on a slow network. */
  first: Promise<EncodedClip>;
}
const loading = new Map<string, Loading>();

export function loadClip(rendition: Rendition, clipIndex: number, url: string): Loading {
  const key = keyOf(rendition, clipIndex);
  const existing = loading.get(key);
  if (existing) {
    // Refresh its place in the LRU order.
    const size = encodedSizes.get(key);
    if (size !== undefined) {
      encodedSizes.delete(key);
      encodedSizes.set(key, size);
    }
    return existing;
  }
  const demuxer = new ClipDemuxer();
  const full = (async () => {
    mark('fetch');
    const res = await fetch(url);
    mark('response');
    if (!res.ok || !res.body) throw new Error(`clip ${clipIndex} (${rendition}) HTTP ${res.status}`);
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      demuxer.append(value);
      if (demuxer.error) throw demuxer.error;
    }
    const clip = demuxer.finish();
    encodedSizes.set(key, clip.bytes);
    encodedBytes += clip.bytes;
    evictEncoded();
    return clip;
  })();
  const first = Promise.race([demuxer.first().then(() => demuxer.clip!), full]);
  const entry = { full, first };
  loading.set(key, entry);
  full.catch(() => loading.delete(key));
  first.catch(() => undefined);
  return entry;
}

/** Bytes of the encoded clips held. */
export const encodedBytesHeld = (): number => encodedBytes;

/** Forgets every clip (the tour ends). */
export function clearClips(): void {
  loading.clear();
  encodedSizes.clear();
  encodedBytes = 0;
}
