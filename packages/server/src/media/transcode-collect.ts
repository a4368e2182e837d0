/**
 * A transcode's collect step: the clips ffmpeg wrote (from the segment muxer's lists, the last clip's frames counted
 * exactly), the frames the filter changed per clip, the thumbnail (an unchanged frame near THUMBNAIL_FRAME, or the
 * first frame when the range is shorter), and the stored sizes.
 */
import { existsSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CLIP_FPS, CLIP_FRAMES, RENDITIONS, THUMBNAIL_FRAME, renditionSize } from './encoding.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { abortError } from './probe-video.js';
import { runProcess, stderrTail as tail } from './run-process.js';
import type { TranscodePlan } from './transcode-plan.js';
import { VideoRejectedError } from './video-rejected-error.js';

export interface ProcessedClip {
  /** 0-based position in the tour. */
  index: number;
  /** Frames in the clip: CLIP_FRAMES except possibly the last. */
  frameCount: number;
  /** Seconds: frameCount / fps. */
  duration: number;
  highPath: string;
  lowPath: string;
  /** Frames of this clip the frame filter changed (faces blurred); absent without a filter. */
  changedFrames?: number;
}

/** What `plan`'s run wrote under its work folder, as clips, thumbnail and sizes. */
export async function collectClips(
  plan: TranscodePlan,
  run: { stderr: string; changed: ReadonlySet<number> | undefined },
  signal: AbortSignal | undefined,
): Promise<{
  clips: ProcessedClip[];
  thumbnailPath: string | null;
  videoInfo: { width: number; height: number; fullSize: number; mediumSize: number; smallSize: number };
}> {
  const { workDir, highList, lowList, thumbnailPath, wantThumbnail, portrait } = plan;
  const { changed } = run;

  const high = await readSegmentList(highList);
  const low = await readSegmentList(lowList);
  if (high.length === 0) throw VideoRejectedError.invalid(`no frames decoded: ${tail(run.stderr)}`);
  if (high.length !== low.length)
    throw new Error(`rendition clip counts differ: ${high.length} high, ${low.length} low`);
  const clips: ProcessedClip[] = high.map((h, index) => {
    const frameCount = Math.round((h.end - h.start) * CLIP_FPS);
    return {
      index,
      frameCount,
      duration: frameCount / CLIP_FPS,
      highPath: join(workDir, h.file),
      lowPath: join(workDir, low[index]!.file),
    };
  });
  // The segment list's end time of the last clip is derived; count its frames for certain.
  const last = clips[clips.length - 1]!;
  last.frameCount = await countFrames(last.highPath, signal);
  last.duration = last.frameCount / CLIP_FPS;
  await rm(highList, { force: true });
  await rm(lowList, { force: true });
  if (changed) {
    let first = 0;
    for (const c of clips) {
      c.changedFrames = 0;
      for (let i = first; i < first + c.frameCount; i++) if (changed.has(i)) c.changedFrames++;
      first += c.frameCount;
    }
  }
  // The thumbnail shows an unchanged frame (no blur box on the card): the one nearest THUMBNAIL_FRAME, later first.
  const thumbFrame =
    wantThumbnail && changed?.has(THUMBNAIL_FRAME)
      ? unchangedNear(
          changed,
          THUMBNAIL_FRAME,
          clips.reduce((n, c) => n + c.frameCount, 0),
        )
      : -1;
  if (thumbFrame >= 0) {
    const k = Math.floor(thumbFrame / CLIP_FRAMES);
    await thumbnailFromClip(clips[k]!.highPath, thumbnailPath, portrait, signal, thumbFrame - k * CLIP_FRAMES);
  } else if (wantThumbnail && !existsSync(thumbnailPath))
    await thumbnailFromClip(clips[0]!.highPath, thumbnailPath, portrait, signal);

  const size = async (paths: string[]) =>
    (await Promise.all(paths.map((p) => stat(p)))).reduce((s, st) => s + st.size, 0);
  const hi = renditionSize(RENDITIONS.high, portrait);
  return {
    clips,
    thumbnailPath: wantThumbnail ? thumbnailPath : null,
    videoInfo: {
      width: hi.width,
      height: hi.height,
      fullSize: await size(clips.map((c) => c.highPath)),
      mediumSize: await size(clips.map((c) => c.lowPath)),
      smallSize: wantThumbnail ? await size([thumbnailPath]) : 0,
    },
  };
}

interface SegmentEntry {
  file: string;
  start: number;
  end: number;
}

async function readSegmentList(path: string): Promise<SegmentEntry[]> {
  if (!existsSync(path)) return [];
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [file, start, end] = line.split(',');
      // The segment muxer writes basenames; anything else would be a bug, never a path to follow.
      if (!file || !/^(high|low)-\d{5}\.mp4$/.test(file)) throw new Error(`unexpected segment list entry: ${line}`);
      return { file, start: Number(start), end: Number(end) };
    });
}

/** Exact frame count of one of our own clips (cheap: demux only). */
async function countFrames(path: string, signal?: AbortSignal): Promise<number> {
  const { ffprobe } = ffmpegBinaries();
  const r = await runProcess(
    ffprobe,
    [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-count_packets',
      '-show_entries',
      'stream=nb_read_packets',
      '-of',
      'csv=p=0',
      path,
    ],
    {
      timeoutMs: 30_000,
      maxOutputBytes: 4096,
      signal,
    },
  ).done;
  if (r.stopped === 'abort') throw abortError();
  const n = Number(r.stdout.trim());
  if (r.code !== 0 || !Number.isInteger(n) || n <= 0)
    throw new Error(`cannot count frames of ${path}: ${tail(r.stderr)}`);
  return n;
}

/** The frame nearest `at` (after it first, on a tie) that is not in `changed`, or -1 when every frame is. */
function unchangedNear(changed: ReadonlySet<number>, at: number, frames: number): number {
  for (let d = 0; d < frames; d++) {
    if (at + d < frames && !changed.has(at + d)) return at + d;
    if (at - d >= 0 && !changed.has(at - d)) return at - d;
  }
  return -1;
}

/**
 * Thumbnail from frame `frame` of a high clip: the fallback when the source had fewer frames than THUMBNAIL_FRAME
 * (the first frame), or the unblurred frame chosen instead of a blurred THUMBNAIL_FRAME.
 */
async function thumbnailFromClip(
  clip: string,
  out: string,
  portrait: boolean,
  signal?: AbortSignal,
  frame = 0,
): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  const steps = [
    ...(frame > 0 ? [`select=eq(n\\,${frame})`] : []),
    ...(portrait ? ['crop=iw:trunc(iw*9/16/2)*2'] : []),
  ];
  const vf = steps.length ? ['-vf', steps.join(',')] : [];
  const r = await runProcess(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-i',
      clip,
      ...vf,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      '-update',
      '1',
      '-y',
      out,
    ],
    {
      timeoutMs: 30_000,
      maxOutputBytes: 1024 ** 2,
      signal,
    },
  ).done;
  if (r.stopped === 'abort') throw abortError();
  if (r.code !== 0 || !existsSync(out)) throw new Error(`thumbnail failed: ${tail(r.stderr)}`);
}
