/** Test helpers: generate small videos with real ffmpeg (moving testsrc2 pattern) and inspect produced clips. */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { CLIP_FPS, KEYFRAME_INTERVAL, RENDITIONS, renditionSize, x264Args } from '../../src/media/encoding.js';
import { cachedVideo } from '../../../../scripts/test-video-cache.mjs';
import { ffmpegBinaries } from '../../src/media/ffmpeg-binaries.js';

const run = promisify(execFile);

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `roomwalk-media-${prefix}-`));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

export interface GenerateOptions {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** Add a sine tone audio track. */
  audio?: boolean;
  /** Extra output options (codec, pixel format, flags) replacing the default fast H.264. */
  codecArgs?: string[];
  /** Extra video filter after the source (e.g. a frame-dropping select for VFR). */
  filter?: string;
  outputArgs?: string[];
}

/**
 * Writes a video of a moving test pattern to `path`; ultrafast and small, so tests stay quick. Made once per machine
 * (scripts/test-video-cache.mjs) and copied, so a test may change or delete its copy.
 */
export async function generateVideo(path: string, o: GenerateOptions): Promise<string> {
  const { ffmpeg } = ffmpegBinaries();
  const fps = o.fps ?? 30;
  const args = ['-f', 'lavfi', '-i', `testsrc2=size=${o.width}x${o.height}:rate=${fps}`];
  if (o.audio) args.push('-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000');
  args.push('-t', String(o.seconds));
  if (o.filter) args.push('-vf', o.filter);
  args.push(...(o.codecArgs ?? ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-pix_fmt', 'yuv420p']));
  if (o.audio) args.push('-c:a', 'aac', '-b:a', '64k', '-shortest');
  args.push(...(o.outputArgs ?? []));
  const made = await cachedVideo(args, { name: `video${extname(path)}`, ffmpeg, timeout: 120_000 });
  await copyFile(made, path);
  return path;
}

/** Copies `src` to `dest` with a display-matrix rotation (the way phones store portrait video). */
export async function withRotation(src: string, dest: string, degrees: number): Promise<string> {
  const { ffmpeg } = ffmpegBinaries();
  await run(ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-i',
    src,
    '-c',
    'copy',
    '-metadata:s:v:0',
    `rotate=${degrees}`,
    dest,
  ]);
  return dest;
}

/** Keeps the first `fraction` of the file's bytes, like an upload cut off midway. */
export async function truncateFile(src: string, dest: string, fraction: number): Promise<string> {
  const data = await readFile(src);
  await writeFile(dest, data.subarray(0, Math.floor(data.length * fraction)));
  return dest;
}

/**
 * Rewrites the duration fields of the mvhd, tkhd and mdhd boxes so the header claims `seconds`, while the sample
 * tables (the real data) stay as they are.
 */
export async function claimDuration(src: string, dest: string, seconds: number): Promise<string> {
  const data = Buffer.from(await readFile(src));
  let movieTimescale = 1000;
  for (const box of ['mvhd', 'tkhd', 'mdhd'] as const) {
    let at = data.indexOf(box, 0, 'latin1');
    while (at >= 0) {
      const version = data[at + 4];
      if (version !== 0) throw new Error(`claimDuration handles version-0 ${box} only`);
      const body = at + 8; // after type, version and flags
      if (box === 'mvhd') {
        movieTimescale = data.readUInt32BE(body + 8);
        data.writeUInt32BE(Math.min(0xffffffff, movieTimescale * seconds), body + 12);
      } else if (box === 'tkhd') {
        data.writeUInt32BE(Math.min(0xffffffff, movieTimescale * seconds), body + 16);
      } else {
        const timescale = data.readUInt32BE(body + 8);
        data.writeUInt32BE(Math.min(0xffffffff, timescale * seconds), body + 12);
      }
      at = data.indexOf(box, at + 4, 'latin1');
    }
  }
  await writeFile(dest, data);
  return dest;
}

export interface ClipInspection {
  width: number;
  height: number;
  frames: number;
  firstIsKey: boolean;
  /** Indices of the keyframes (a clip is closed GOPs of KEYFRAME_INTERVAL frames: 0, 12, 24). */
  keyframes: number[];
  bFrames: number;
  codec: string;
  /** Streams in the file: 1 (audio and everything else dropped). */
  streams: number;
}

/** Decodes a clip fully with ffprobe -count_frames and reports its shape. */
export async function inspectClip(path: string): Promise<ClipInspection> {
  const { ffprobe } = ffmpegBinaries();
  const { stdout } = await run(
    ffprobe,
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_frames',
      '-show_entries',
      'stream=codec_name,width,height,nb_read_frames:frame=key_frame,pict_type:format=nb_streams',
      '-of',
      'json',
      path,
    ],
    { maxBuffer: 16 * 1024 ** 2 },
  );
  const j = JSON.parse(stdout) as {
    streams: Array<{ codec_name: string; width: number; height: number; nb_read_frames: string }>;
    frames: Array<{ key_frame: number; pict_type: string }>;
    format: { nb_streams: number };
  };
  const s = j.streams[0]!;
  return {
    codec: s.codec_name,
    streams: j.format.nb_streams,
    width: s.width,
    height: s.height,
    frames: Number(s.nb_read_frames),
    firstIsKey: j.frames[0]?.key_frame === 1 && j.frames[0]?.pict_type === 'I',
    keyframes: j.frames.flatMap((f, i) => (f.key_frame === 1 ? [i] : [])),
    bFrames: j.frames.filter((f) => f.pict_type === 'B').length,
  };
}

/** Slices per frame of a clip's H.264 stream, counted in its first two frames' slice headers. */
export async function slicesPerFrame(path: string): Promise<number> {
  const { ffmpeg } = ffmpegBinaries();
  const { stderr } = await run(
    ffmpeg,
    ['-hide_banner', '-i', path, '-c:v', 'copy', '-bsf:v', 'trace_headers', '-frames:v', '2', '-f', 'null', '-'],
    { maxBuffer: 64 * 1024 ** 2 },
  );
  return (stderr.match(/\] Slice Header$/gm) ?? []).length / 2;
}

/** Width and height of an image or video file. */
export async function pictureSize(path: string): Promise<{ width: number; height: number }> {
  const { ffprobe } = ffmpegBinaries();
  const { stdout } = await run(ffprobe, ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'json', path]);
  const s = (JSON.parse(stdout) as { streams: Array<{ width: number; height: number }> }).streams[0]!;
  return { width: s.width, height: s.height };
}

/** Names in a directory, or null when it does not exist. */
export async function listDir(dir: string): Promise<string[] | null> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return null;
  }
}

export async function fileSize(path: string): Promise<number> {
  return (await stat(path)).size;
}

/** The keyframe indices a clip of `frames` frames must have: 0, then every KEYFRAME_INTERVAL frames. */
export function expectedKeyframes(frames: number): number[] {
  return Array.from({ length: Math.ceil(frames / KEYFRAME_INTERVAL) }, (_, i) => i * KEYFRAME_INTERVAL);
}

/**
 * A video already in the tour's clip format (what the on-device conversion makes when it can): the high rendition's
 * x264 settings at CLIP_FPS, one slice per frame (the format does not need the server's four), in MP4. `args` replace
 * settings (after them on the command line) to make a stream that misses the format in one respect.
 */
export async function clipFormatVideo(
  path: string,
  o: { seconds: number; portrait?: boolean; args?: string[]; fps?: number },
): Promise<string> {
  const size = renditionSize(RENDITIONS.high, o.portrait ?? false);
  return generateVideo(path, {
    width: size.width,
    height: size.height,
    seconds: o.seconds,
    fps: o.fps ?? CLIP_FPS,
    codecArgs: [...x264Args(RENDITIONS.high), '-slices', '1', ...(o.args ?? [])],
    outputArgs: ['-movflags', '+faststart'],
  });
}

/** Each video packet of `path` as `size:md5` of its bytes, in file order (timestamps left out: a cut resets them). */
export async function packetHashes(path: string): Promise<string[]> {
  const { ffmpeg } = ffmpegBinaries();
  const { stdout } = await run(
    ffmpeg,
    ['-v', 'error', '-i', path, '-map', '0:v:0', '-c', 'copy', '-f', 'framemd5', '-'],
    { maxBuffer: 64 * 1024 ** 2 },
  );
  return stdout
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const f = l.split(',').map((s) => s.trim());
      return `${f[4]}:${f[5]}`;
    });
}

/** Encodes `src` (already 1280x720 or 720x1280 at CLIP_FPS) into the clip format, as clipFormatVideo makes it. */
export async function toClipFormat(src: string, dest: string): Promise<string> {
  const { ffmpeg } = ffmpegBinaries();
  await run(ffmpeg, ['-v', 'error', '-y', '-i', src, ...x264Args(RENDITIONS.high), '-slices', '1', dest], {
    timeout: 300_000,
  });
  return dest;
}
