/**
 * Hardened ffprobe for untrusted uploads.
 *
 * - The container is sniffed from its magic bytes and the demuxer forced from a whitelist (mov/mp4/3gp, matroska/
 *   webm, raw HEVC); `-protocol_whitelist file` so nothing in the file can make ffprobe open a URL or another file.
 * - Every run is bounded: wall time, output bytes, address space (prlimit), and a decoder pixel limit.
 * - The duration is measured from the stream data — the video packets' timestamps, read to the end — never taken
 *   from the header, which a broken or hostile file can set to anything (10 hours on a 12 s clip). The packet read
 *   stops as soon as it passes the 600 s limit, so a really long video costs no more than 600 s of demuxing.
 */
import { stat } from 'node:fs/promises';
import { ERROR_CODES, VIDEO_MAX_SECONDS, checkVideoMeta } from '@roomwalk/shared';
import { ClipFormatScan, type ClipFormatHeader, type ClipFormatVerdict } from './clip-format.js';
import type { ColourInfo } from './encoding.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { longestNonReferenceRun, type PacketPlace } from './reference-frames.js';
import { runProcess } from './run-process.js';
import { ALLOWED_DEMUXERS, endsInsideBox, sniffContainer, type ContainerKind } from './sniff-container.js';
import { VideoRejectedError } from './video-rejected-error.js';

/** Largest frame side we decode; phones record at most 8K (7680x4320). A bigger claim is a hostile file. */
export const MAX_SOURCE_SIDE = 8192;
/** ffprobe/ffmpeg address-space cap (prlimit). Generous for 8K HEVC decoding with frame threads. */
const PROBE_MEMORY_BYTES = 2 * 1024 ** 3;
/** Above 600 s at 240 fps: more packets than any acceptable video has. */
const MAX_PACKETS = VIDEO_MAX_SECONDS * 240 + 1000;
/** A raw HEVC stream carries no timing; phones record at 30 fps. */
const RAW_HEVC_FPS = 30;

export interface ProbeOptions {
  signal?: AbortSignal;
  /** Wall-time cap of each ffprobe run (default 120 s; reading 600 s of 4K from a slow disk takes a while). */
  timeoutMs?: number;
}

export interface ProbeResult {
  container: ContainerKind;
  /** The ffmpeg demuxer to force when reading the file (`-f`). */
  demuxer: string;
  /** Extra input options the demuxer needs (raw HEVC: its assumed frame rate). */
  inputArgs: string[];
  /** Index of the chosen video stream in the file. */
  streamIndex: number;
  codec: string;
  pixelFormat: string;
  /** Stored (coded) picture size, before rotation. */
  codedWidth: number;
  codedHeight: number;
  /**
   * Display rotation from the display matrix (counter-clockwise degrees, as ffmpeg reports it), normalised to 0, 90,
   * 180 or 270.
   */
  rotation: 0 | 90 | 180 | 270;
  /** Size as displayed: sample aspect ratio and rotation applied. The validation rules look at this. */
  width: number;
  height: number;
  portrait: boolean;
  /** Seconds measured from the video packets' timestamps (first to last frame's end). */
  durationSeconds: number;
  /** What the container header claims, for logs only. */
  headerDurationSeconds: number | null;
  /** Timestamp of the first video frame in the file's own time (ffmpeg's `-copyts` time), seconds; 0 when unknown. */
  startSeconds: number;
  /**
   * Timestamps of the keyframes (ascending, same time as startSeconds), where a piece of the video can be decoded
   * from on its own; empty when the packets carry no timing. Segments of a long video start at these.
   */
  keyframeSeconds: number[];
  /** Video packets read (= frames for every codec phones use). */
  packetCount: number;
  /**
   * True when the packet read stopped early because the video passed VIDEO_MAX_SECONDS; the duration is then a lower
   * bound.
   */
  stoppedAtLimit: boolean;
  /** The file ends before the samples its index names (cut off part-way); the frames that are there are measured. */
  partial: boolean;
  /** Average frame rate measured from the packets. */
  averageFps: number;
  /**
   * The longest run of consecutive non-reference frames in display order (reference-frames.ts), looked up for a steady
   * 29–45 fps H.264 or HEVC source only; null elsewhere or when the packets could not be read so.
   */
  nonReferenceRun?: number | null;
  /**
   * The frame timing varies (r_frame_rate differs from avg_frame_rate); processing resamples to a constant rate anyway.
   */
  variableFrameRate: boolean;
  hasAudio: boolean;
  colour: ColourInfo;
  /** 10-bit or deeper samples. */
  highBitDepth: boolean;
  /**
   * Whether the stream is already in the tour's clip format (media/clip-format.ts), so its 720p clips are cut from it
   * by stream copy; absent in probes made before the check existed (segment jobs queued then), which encode.
   */
  clipFormat?: ClipFormatVerdict;
}

interface FfprobeStream extends Omit<ClipFormatHeader, 'demuxer' | 'rotation'> {
  index: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  sample_aspect_ratio?: string;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
  color_range?: string;
  bits_per_raw_sample?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

/** Probes `path`; throws VideoRejectedError(VIDEO_INVALID) for anything that is not a readable video. */
/** Frame rates whose non-reference frames are looked up (reference-frames.ts; source-frames.ts decides with them). */
const NON_REF_SCAN_MIN_FPS = 29;
const NON_REF_SCAN_MAX_FPS = 45;
/** Packets whose places are kept for it: 45 fps × the longest video (600 s), and a little more. */
const MAX_PLACES = 30_000;

export async function probeVideo(path: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const size = (await stat(path)).size;
  if (size === 0) throw VideoRejectedError.invalid('empty file');
  const container = await sniffContainer(path);
  if (!container) throw VideoRejectedError.invalid('not a known video container');
  const demuxer = ALLOWED_DEMUXERS[container];
  const inputArgs = container === 'hevc' ? ['-framerate', String(RAW_HEVC_FPS)] : [];
  const { ffprobe } = ffmpegBinaries();
  const common = ['-v', 'error', '-hide_banner', '-protocol_whitelist', 'file', '-max_alloc', String(512 * 1024 ** 2)];
  const input = [
    '-f',
    demuxer,
    ...inputArgs,
    '-probesize',
    String(20 * 1024 ** 2),
    '-analyzeduration',
    '20000000',
    '-max_pixels',
    String(MAX_SOURCE_SIDE * MAX_SOURCE_SIDE),
    '-i',
    `file:${path}`,
  ];

  // 1. Streams and header.
  const header = await runProcess(
    ffprobe,
    [
      ...common,
      '-of',
      'json',
      '-show_entries',
      'stream=index,codec_type,codec_name,codec_tag_string,profile,field_order,has_b_frames,width,height,pix_fmt,sample_aspect_ratio,r_frame_rate,avg_frame_rate,color_transfer,color_primaries,color_space,color_range,bits_per_raw_sample:stream_disposition=attached_pic:stream_tags=rotate:stream_side_data=side_data_type,rotation:format=duration',
      ...input,
    ],
    {
      timeoutMs: Math.min(timeoutMs, 30_000),
      maxOutputBytes: 1024 ** 2,
      maxMemoryBytes: PROBE_MEMORY_BYTES,
      signal: opts.signal,
    },
  ).done;
  throwIfAborted(opts.signal);
  if (header.stopped) throw VideoRejectedError.invalid(`ffprobe stopped (${header.stopped})`);
  let parsed: { streams?: FfprobeStream[]; format?: { duration?: string } };
  try {
    parsed = JSON.parse(header.stdout) as typeof parsed;
  } catch {
    throw VideoRejectedError.invalid(`unreadable (${lastLine(header.stderr)})`);
  }
  if (header.code !== 0 && !parsed.streams?.length) {
    // A recognised container whose index is missing: an MP4/MOV with its moov box at the end, cut off before it.
    if (/moov atom not found/i.test(header.stderr) && (await endsInsideBox(path)))
      throw VideoRejectedError.incomplete(`no index (${lastLine(header.stderr)})`);
    throw VideoRejectedError.invalid(`unreadable (${lastLine(header.stderr)})`);
  }
  const streams = parsed.streams ?? [];
  const video = streams.find(
    (s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1 && (s.width ?? 0) > 0 && (s.height ?? 0) > 0,
  );
  if (!video) throw VideoRejectedError.invalid('no video stream');
  const codedWidth = video.width!;
  const codedHeight = video.height!;
  if (codedWidth > MAX_SOURCE_SIDE || codedHeight > MAX_SOURCE_SIDE)
    throw VideoRejectedError.invalid(`picture too large (${codedWidth}x${codedHeight})`);

  const rotation = rotationOf(video);
  const sar = ratio(video.sample_aspect_ratio);
  const displayWidth = sar && sar > 0 && Math.abs(sar - 1) > 1e-3 ? Math.round(codedWidth * sar) : codedWidth;
  const [width, height] =
    rotation === 90 || rotation === 270 ? [codedHeight, displayWidth] : [displayWidth, codedHeight];

  // 2. Packets of the video stream: the real duration, and whether they are in the clip format.
  const scan = new ClipFormatScan();
  const places: PacketPlace[] = [];
  const packets = await measurePackets(
    ffprobe,
    [
      ...common,
      '-select_streams',
      String(video.index),
      '-show_entries',
      'packet=pts_time,dts_time,duration_time,size,pos,flags',
      '-of',
      'csv=p=0',
      ...input,
    ],
    {
      timeoutMs,
      signal: opts.signal,
      onPacket: (pts, key, bytes, pos) => {
        scan.packet(pts, key, bytes);
        if (places.length <= MAX_PLACES) places.push({ pts: pts ?? Number.NaN, pos, size: bytes });
      },
    },
  );
  throwIfAborted(opts.signal);
  if (packets.count === 0) throw VideoRejectedError.invalid('no video frames');

  const r = ratio(video.r_frame_rate);
  const avg = ratio(video.avg_frame_rate);
  const variableFrameRate = !!(r && avg && Math.abs(r - avg) / r > 0.01);
  const averageFps = packets.durationSeconds > 0 ? packets.count / packets.durationSeconds : 0;
  const codec = video.codec_name ?? 'unknown';
  // Only where it decides something: a steady 30–45 fps H.264 or HEVC source (source-frames.ts).
  const nonReferenceRun =
    (codec === 'h264' || codec === 'hevc') &&
    !variableFrameRate &&
    averageFps >= NON_REF_SCAN_MIN_FPS &&
    averageFps < NON_REF_SCAN_MAX_FPS &&
    places.length === packets.count
      ? await longestNonReferenceRun(path, codec, places).catch(() => null)
      : null;
  const bits = Number(video.bits_per_raw_sample);
  const headerDuration = Number(parsed.format?.duration);
  return {
    container,
    demuxer,
    inputArgs,
    streamIndex: video.index,
    codec,
    pixelFormat: video.pix_fmt ?? 'unknown',
    codedWidth,
    codedHeight,
    rotation,
    width,
    height,
    portrait: height > width,
    durationSeconds: packets.durationSeconds,
    startSeconds: packets.startSeconds,
    keyframeSeconds: packets.keyframeSeconds,
    headerDurationSeconds: Number.isFinite(headerDuration) ? headerDuration : null,
    packetCount: packets.count,
    stoppedAtLimit: packets.stoppedAtLimit,
    partial: packets.partial,
    averageFps,
    variableFrameRate,
    nonReferenceRun,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    colour: {
      transfer: video.color_transfer,
      primaries: video.color_primaries,
      matrix: video.color_space,
      fullRange: video.color_range === 'pc' || /^yuvj/.test(video.pix_fmt ?? ''),
    },
    highBitDepth: (Number.isFinite(bits) && bits > 8) || /p1[0-6]|p9/.test(video.pix_fmt ?? ''),
    clipFormat: scan.verdict({ ...video, demuxer, rotation }, packets),
  };
}

/**
 * Throws VideoRejectedError when a probed video is outside what a tour may be made of: 10 s to 10 minutes long, at
 * least 1280x720 (landscape) or 720x1280 (portrait).
 */
export function assertAcceptable(probe: ProbeResult): void {
  const failure = checkVideoMeta({ durationSeconds: probe.durationSeconds, width: probe.width, height: probe.height });
  // A file cut off part-way whose frames still make a long enough video becomes a best-effort tour of them; one whose
  // frames are too few is refused as incomplete, not as "too short" (which would mislead the owner: the recording was
  // long enough, the file is not whole).
  if (failure && probe.partial && failure.code === ERROR_CODES.VIDEO_TOO_SHORT) {
    throw VideoRejectedError.incomplete(
      `the index names ${probe.headerDurationSeconds ?? '?'} s, the file holds ${probe.durationSeconds.toFixed(2)} s`,
    );
  }
  if (failure) {
    throw new VideoRejectedError(
      failure.code,
      failure.message,
      `${probe.width}x${probe.height}, ${probe.durationSeconds.toFixed(2)} s measured, header ${probe.headerDurationSeconds ?? '?'} s`,
    );
  }
}

interface PacketStats {
  count: number;
  startSeconds: number;
  keyframeSeconds: number[];
  durationSeconds: number;
  stoppedAtLimit: boolean;
  /** ffprobe reported a partial file: the container's index points past the end of the data. */
  partial: boolean;
}

/** Streams ffprobe's packet list and keeps only running figures; stops once the video is known to be too long. */
async function measurePackets(
  ffprobe: string,
  args: string[],
  o: {
    timeoutMs: number;
    signal?: AbortSignal;
    onPacket?: (pts: number | null, key: boolean, bytes: number, pos: number) => void;
  },
): Promise<PacketStats> {
  let count = 0;
  let first = Infinity;
  let end = -Infinity;
  let lastStart = -Infinity;
  let rest = '';
  let stoppedAtLimit = false;
  let tooMany = false;
  const keyframes: number[] = [];
  const onLine = (line: string) => {
    if (!line) return;
    // ffprobe writes the fields in its own order: pts_time, dts_time, duration_time, size, pos, flags.
    const [ptsText, dtsText, durText, sizeText, posText, flags] = line.split(',');
    const pts = Number(ptsText && ptsText !== 'N/A' ? ptsText : dtsText);
    count++;
    o.onPacket?.(
      ptsText && ptsText !== 'N/A' ? Number(ptsText) : null,
      !!flags?.includes('K'),
      Number(sizeText) || 0,
      posText && posText !== 'N/A' ? Number(posText) : -1,
    );
    if (!Number.isFinite(pts)) return;
    const dur = Number(durText);
    first = Math.min(first, pts);
    if (flags?.includes('K') && ptsText && ptsText !== 'N/A') keyframes.push(pts);
    lastStart = Math.max(lastStart, pts);
    end = Math.max(end, pts + (Number.isFinite(dur) && dur > 0 ? dur : 0));
  };
  const run = runProcess(ffprobe, args, {
    timeoutMs: o.timeoutMs,
    maxOutputBytes: 64 * 1024 ** 2,
    maxMemoryBytes: PROBE_MEMORY_BYTES,
    keepStdout: false,
    signal: o.signal,
    onStdout: (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) onLine(line.trim());
      if (count > MAX_PACKETS) {
        tooMany = true;
        return false;
      }
      if (end - first > VIDEO_MAX_SECONDS + 1) {
        stoppedAtLimit = true;
        return false;
      }
      return true;
    },
  });
  const result = await run.done;
  if (!result.stopped) onLine(rest.trim());
  if (result.stopped === 'abort') throw abortError();
  if (tooMany) throw VideoRejectedError.invalid('too many frames');
  if (result.stopped && result.stopped !== 'consumer')
    throw VideoRejectedError.invalid(`packet scan stopped (${result.stopped})`);
  const partial = /partial file/i.test(result.stderr);
  if (count === 0 || !Number.isFinite(first))
    return { count, durationSeconds: 0, stoppedAtLimit, startSeconds: 0, keyframeSeconds: [], partial };
  // Packets without a duration: the last frame lasts one average frame interval.
  if (end <= lastStart && count > 1) end = lastStart + (lastStart - first) / (count - 1);
  return {
    count,
    durationSeconds: Math.max(0, end - first),
    stoppedAtLimit,
    startSeconds: first,
    keyframeSeconds: keyframes.sort((a, b) => a - b),
    partial,
  };
}

function rotationOf(s: FfprobeStream): 0 | 90 | 180 | 270 {
  const matrix = s.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  // The display matrix rotation is counter-clockwise; the legacy `rotate` tag is clockwise. ffmpeg itself applies
  // the rotation when decoding (autorotate), so only the display size depends on this value.
  const degrees = matrix ? matrix.rotation! : -Number(s.tags?.rotate ?? 0);
  const normal = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return normal as 0 | 90 | 180 | 270;
}

function ratio(text: string | undefined): number | null {
  if (!text) return null;
  const [a, b] = text.split(/[:/]/).map(Number);
  if (a === undefined || !Number.isFinite(a)) return null;
  if (b === undefined) return a;
  return b > 0 && Number.isFinite(b) ? a / b : null;
}

function lastLine(text: string): string {
  return text.trim().split('\n').pop()?.slice(0, 200) ?? '';
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/** The error thrown when the caller's AbortSignal fired. */
export function abortError(): Error {
  const err = new Error('Video processing aborted');
  err.name = 'AbortError';
  return err;
}
