/**
 * Small ffmpeg/ffprobe helpers for the AI and reel work: bounded runs, raw frame sampling, one still at full size.
 * Every run goes through the one process runner (media/run-process.ts: wall-time bound, output bound, abort, minimal
 * environment).
 */
import { ffmpegBinaries } from '../../media/ffmpeg-binaries.js';
import { runProcess } from '../../media/run-process.js';

export interface RunFfmpegOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number;
  /** Receives each stdout chunk (raw frames, -progress lines). */
  onStdout?: (chunk: Buffer) => void;
}

/** Runs ffmpeg (or ffprobe with `probe`) and resolves with stdout; rejects with the tail of stderr on failure. */
export async function runFfmpeg(
  args: readonly string[],
  opts: RunFfmpegOptions & { probe?: boolean } = {},
): Promise<Buffer> {
  const bin = opts.probe ? ffmpegBinaries().ffprobe : ffmpegBinaries().ffmpeg;
  const run = runProcess(bin, ['-hide_banner', ...(opts.probe ? [] : ['-nostdin']), ...args], {
    timeoutMs: opts.timeoutMs ?? 10 * 60_000,
    // stdout is read as bytes below; the bound applies to stderr (these runs use -v error).
    maxOutputBytes: 16 * 1024 * 1024,
    rawStdout: true,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const out: Buffer[] = [];
  run.stdout!.on('data', (c: Buffer) => (opts.onStdout ? opts.onStdout(c) : out.push(c)));
  const r = await run.done;
  if (r.stopped === 'abort' || opts.signal?.aborted) throw new Error('aborted');
  if (r.code === 0 && !r.stopped) return Buffer.concat(out);
  const why = r.stopped ? `was stopped (${r.stopped})` : `exited with ${r.code}`;
  throw new Error(`${opts.probe ? 'ffprobe' : 'ffmpeg'} ${why}: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
}

/** Duration in seconds and display size of a video file. */
export async function probeDuration(file: string): Promise<{ duration: number; width: number; height: number }> {
  const out = await runFfmpeg(
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height:format=duration',
      '-of',
      'json',
      file,
    ],
    { probe: true, timeoutMs: 60_000 },
  );
  const j = JSON.parse(out.toString()) as {
    streams?: Array<{ width?: number; height?: number }>;
    format?: { duration?: string };
  };
  const duration = Number(j.format?.duration ?? 0);
  const s = j.streams?.[0];
  if (!s?.width || !s.height || !(duration > 0)) throw new Error('not a readable video');
  return { duration, width: s.width, height: s.height };
}

export interface SampledFrame {
  /** Seconds from the start. */
  t: number;
  /** Packed RGB24, width*height*3 bytes. */
  data: Buffer;
}

/** Decodes the video at `fps` frames per second, scaled to exactly width x height, as raw RGB frames. */
export async function sampleFrames(
  file: string,
  o: {
    fps: number;
    width: number;
    height: number;
    start?: number;
    duration?: number;
    signal?: AbortSignal | undefined;
    onFrame?: (f: SampledFrame) => void;
  },
): Promise<SampledFrame[]> {
  const size = o.width * o.height * 3;
  const frames: SampledFrame[] = [];
  let pending: Buffer = Buffer.alloc(0);
  const start = o.start ?? 0;
  await runFfmpeg(
    [
      '-v',
      'error',
      ...(o.start ? ['-ss', String(o.start)] : []),
      '-i',
      file,
      ...(o.duration ? ['-t', String(o.duration)] : []),
      '-an',
      '-sn',
      '-dn',
      '-vf',
      `fps=${o.fps},scale=${o.width}:${o.height}:flags=area,setsar=1`,
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      'pipe:1',
    ],
    {
      signal: o.signal,
      onStdout: (chunk) => {
        pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
        while (pending.length >= size) {
          const f = { t: start + frames.length / o.fps, data: Buffer.from(pending.subarray(0, size)) };
          pending = pending.subarray(size);
          frames.push(f);
          o.onFrame?.(f);
        }
      },
    },
  );
  return frames;
}

/** Writes the frame at `t` seconds at the source's full resolution as a high-quality JPEG. */
export async function extractStill(file: string, t: number, out: string, signal?: AbortSignal): Promise<void> {
  await runFfmpeg(
    ['-v', 'error', '-y', '-ss', t.toFixed(3), '-i', file, '-frames:v', '1', '-q:v', '2', '-update', '1', out],
    { signal, timeoutMs: 120_000 },
  );
}
