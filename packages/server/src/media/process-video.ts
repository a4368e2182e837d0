/**
 * The media processing core: an uploaded video file in, tour clips out. Database-free; the job worker calls
 * {@link processVideo}, stores the files it returns and writes the tour rows.
 *
 * Steps: hardened probe (probe-video.ts) → rules of tours §5 (spec texts via VideoRejectedError) → ONE ffmpeg pass
 * that decodes once, resamples to CLIP_FPS, scales/crops (and tone maps HDR), splits into the 720p and 360p
 * renditions and a thumbnail, encodes both with x264 and cuts them into 36-frame fragmented MP4 clips with the
 * segment muxer → result with sizes. Progress comes from ffmpeg's `-progress` output.
 *
 * Output files, all directly in `workDir`: `high-00000.mp4`…, `low-00000.mp4`…, `thumbnail.jpg`. Files of an
 * earlier, interrupted attempt with those names are removed first, and every file this call made is removed when
 * it fails or is aborted (and `workDir` itself when this call created it), so a retry starts clean.
 *
 * `videoInfo` sizes: `fullSize` is the total bytes of the high (720p) clips, `mediumSize` the total bytes of the
 * low (360p) clips, `smallSize` the bytes of the thumbnail. `width`/`height` are those of the high rendition.
 *
 * Audio, subtitles, data streams, chapters and all metadata (phones put GPS location there) are dropped.
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLIP_FPS, CLIP_FRAMES, RENDITIONS, THUMBNAIL_FRAME, buildFilterGraph, buildNormaliseGraph, buildSplitGraph, isHdr, renditionSize, segmentArgs, x264Args } from './encoding.js';
import { pipeFrames, yuv420pBytes, type FrameFilterFactory } from './frame-pipe.js';
import { ffmpegBinaries, ffmpegCapabilities } from './ffmpeg-binaries.js';
import { MAX_SOURCE_SIDE, abortError, assertAcceptable, probeVideo, type ProbeResult } from './probe-video.js';
import { PROGRESS_TEXT } from './progress-text.js';
import { runProcess, type RunResult } from './run-process.js';
import { planSource, type FrameRange } from './source-frames.js';
import { VideoRejectedError } from './video-rejected-error.js';

export { VideoRejectedError } from './video-rejected-error.js';
export { probeVideo, assertAcceptable, type ProbeResult } from './probe-video.js';
export { planSegments, type FrameRange } from './source-frames.js';

export interface ProcessVideoOptions {
  /** Path of the uploaded file (untrusted). */
  input: string;
  /** Directory for the outputs; created when missing. Nothing is written anywhere else. */
  workDir: string;
  /** Called as the work advances; `progress` runs from 0 to 1. */
  onProgress?: (p: { progress: number; text: string }) => void;
  /** Aborting kills ffprobe/ffmpeg at once and removes the partial outputs. */
  signal?: AbortSignal;
  /** Kill ffmpeg when its output time has not advanced for this long (default 120 s). */
  stallTimeoutMs?: number;
  /**
   * Work on the pixels between decoding and encoding (the privacy blur): ffmpeg then runs as two processes, one
   * decoding the source to raw high-rendition frames, one encoding the filtered frames into both renditions and
   * the thumbnail. Without it, one ffmpeg process does everything.
   */
  frameFilter?: FrameFilterFactory;
  /** The source's probe when the caller already made it (the job, to choose segments); else processVideo probes. */
  probe?: ProbeResult;
}

export interface ProcessSegmentOptions extends ProcessVideoOptions {
  /** The probe of the whole source, made once by whoever planned the segments. */
  probe: ProbeResult;
  /** The segment's tour frames; `first` a multiple of CLIP_FRAMES so its clips are the whole video's clips. */
  range: FrameRange;
}

export interface ProcessSegmentResult extends Omit<ProcessVideoResult, 'thumbnailPath'> {
  /** Only the segment with the tour's first frames makes the thumbnail. */
  thumbnailPath: string | null;
}

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

export interface ProcessVideoResult {
  clips: ProcessedClip[];
  thumbnailPath: string;
  videoInfo: { width: number; height: number; fullSize: number; mediumSize: number; smallSize: number };
  /** Frame rate of the clips (CLIP_FPS). */
  fps: number;
  /** Measured duration of the source (from its packets, not its header). */
  durationSeconds: number;
  /** Source size as displayed (rotation applied). */
  sourceWidth: number;
  sourceHeight: number;
  portrait: boolean;
  /** The full probe, for logs. */
  probe: ProbeResult;
}

/** Share of the progress bar given to probing; the transcode takes the bulk, the final checks the rest. */
const PROBE_SHARE = 0.05;
const FINISH_AT = 0.97;
/** Address-space cap of the transcode (prlimit): 4K HEVC decoding plus two x264 encoders fit well within it. */
const TRANSCODE_MEMORY_BYTES = 8 * 1024 ** 3;
const OUTPUT_NAME = /^(high|low)-\d{5}\.mp4$|^(high|low)\.csv$|^thumbnail\.jpg$/;

/** Turns an uploaded video into tour clips; throws VideoRejectedError when the video cannot become a tour. */
export async function processVideo(opts: ProcessVideoOptions): Promise<ProcessVideoResult> {
  const { workDir, signal } = opts;
  const report = makeReporter(opts.onProgress);
  const createdDir = !existsSync(workDir);
  await mkdir(workDir, { recursive: true });
  await removeOutputs(workDir);
  try {
    report(0, PROGRESS_TEXT.checking);
    const probe = opts.probe ?? (await probeVideo(opts.input, { signal }));
    assertAcceptable(probe);
    report(PROBE_SHARE, PROGRESS_TEXT.processing);
    const result = await transcode(opts, probe, report, { first: 0 });
    report(1, PROGRESS_TEXT.done);
    return { ...result, thumbnailPath: result.thumbnailPath! };
  } catch (err) {
    if (createdDir) await rm(workDir, { recursive: true, force: true });
    else await removeOutputs(workDir);
    throw err;
  }
}

/**
 * One segment of a long video (tour frames `range`): its clips, numbered from 0, are exactly the whole video's clips
 * `range.first / CLIP_FRAMES` onwards; the thumbnail comes with the segment holding THUMBNAIL_FRAME. Same bounds,
 * progress (0–1 for this segment), cleanup and errors as processVideo; the probe is the caller's.
 */
export async function processVideoSegment(opts: ProcessSegmentOptions): Promise<ProcessSegmentResult> {
  const { workDir } = opts;
  const report = makeReporter(opts.onProgress);
  const createdDir = !existsSync(workDir);
  await mkdir(workDir, { recursive: true });
  await removeOutputs(workDir);
  try {
    report(0, PROGRESS_TEXT.processing);
    const result = await transcode(opts, opts.probe, report, opts.range);
    report(1, PROGRESS_TEXT.done);
    return result;
  } catch (err) {
    if (createdDir) await rm(workDir, { recursive: true, force: true });
    else await removeOutputs(workDir);
    throw err;
  }
}

type Reporter = (progress: number, text: string) => void;

function makeReporter(onProgress: ProcessVideoOptions['onProgress']): Reporter {
  let last = -1;
  let lastText = '';
  return (progress, text) => {
    const p = Math.min(1, Math.max(0, Math.round(progress * 1000) / 1000));
    // Monotonic and de-duplicated: listeners publish every call.
    if (p < last || (p === last && text === lastText)) return;
    last = p;
    lastText = text;
    onProgress?.({ progress: p, text });
  };
}

async function transcode(opts: ProcessVideoOptions, probe: ProbeResult, report: Reporter, range: FrameRange): Promise<ProcessSegmentResult> {
  const { workDir, signal } = opts;
  const { ffmpeg } = ffmpegBinaries();
  const caps = ffmpegCapabilities();
  if (!caps.libx264) throw new Error('This ffmpeg has no libx264 encoder');
  const portrait = probe.portrait;
  const source = planSource(probe, range);
  const wantThumbnail = range.first <= THUMBNAIL_FRAME;
  const videoFrames = Math.ceil(probe.durationSeconds * CLIP_FPS);
  const rangeFrames = Math.max(0, Math.min(range.end ?? videoFrames, videoFrames) - range.first);
  const maxFrames = (range.end !== undefined ? range.end - range.first : rangeFrames) + CLIP_FRAMES;
  const graphInput = { stream: `0:${probe.streamIndex}`, portrait, colour: probe.colour, toneMap: caps.toneMap, ...source.graph };
  const highList = join(workDir, 'high.csv');
  const lowList = join(workDir, 'low.csv');
  const thumbnailPath = join(workDir, 'thumbnail.jpg');
  const input = [
    '-max_alloc',
    String(1024 ** 3),
    '-protocol_whitelist',
    'file',
    '-f',
    probe.demuxer,
    ...probe.inputArgs,
    ...source.inputArgs,
    '-max_pixels',
    String(MAX_SOURCE_SIDE * MAX_SOURCE_SIDE),
    '-i',
    `file:${opts.input}`,
    ...source.outputArgs,
  ];
  const outputs = [
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-map',
    '[high]',
    ...x264Args(RENDITIONS.high),
    '-fps_mode',
    'passthrough',
    ...segmentArgs(maxFrames, highList),
    join(workDir, 'high-%05d.mp4'),
    '-map',
    '[low]',
    ...x264Args(RENDITIONS.low),
    '-fps_mode',
    'passthrough',
    ...segmentArgs(maxFrames, lowList),
    join(workDir, 'low-%05d.mp4'),
    ...(wantThumbnail ? ['-map', '[thumb]', '-frames:v', '1', '-q:v', '3', '-update', '1', thumbnailPath] : []),
  ];
  const progressArgs = ['-nostats', '-progress', 'pipe:1', '-stats_period', '0.5'];

  const expectedUs = Math.max(1, rangeFrames / CLIP_FPS) * 1e6;
  let lastOutUs = -1;
  let buffered = '';
  let touchEncoder = () => undefined as void;
  const onProgressOutput = (chunk: string) => {
    const lines = (buffered + chunk).split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (!m) continue;
      const us = Number(m[1]);
      if (us > lastOutUs) {
        lastOutUs = us;
        touchEncoder();
        const share = Math.min(1, us / expectedUs);
        report(PROBE_SHARE + (FINISH_AT - PROBE_SHARE) * share, PROGRESS_TEXT.processing);
      }
    }
  };
  const limits = {
    // Generous: 600 s of 4K60 HEVC decodes slowly in software; the stall watchdog catches real hangs much sooner.
    timeoutMs: 120_000 + (rangeFrames / CLIP_FPS) * 10_000,
    stallMs: opts.stallTimeoutMs ?? 120_000,
    maxOutputBytes: 32 * 1024 ** 2,
    maxMemoryBytes: TRANSCODE_MEMORY_BYTES,
    keepStdout: false,
  };

  let result: RunResult;
  let changed: ReadonlySet<number> | undefined;
  // A rotated source goes through the raw frame pipe too: with the rotation done in our graph (-noautorotate), ffmpeg
  // 5.1 would copy the source's display matrix onto the clips (and no option removes it), turning them a second time.
  if (!opts.frameFilter && probe.rotation === 0) {
    const graph = buildFilterGraph({ ...graphInput, thumbnail: wantThumbnail });
    const run = runProcess(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', ...progressArgs, ...input, '-filter_complex', graph, ...outputs], { ...limits, signal, onStdout: onProgressOutput });
    touchEncoder = run.touch;
    result = await run.done;
  } else {
    // Decoder (the untrusted input, hardened as above) → frame filter → encoder (our own raw frames).
    const hi = renditionSize(RENDITIONS.high, portrait);
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const decoder = runProcess(
      ffmpeg,
      ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', ...input, '-filter_complex', buildNormaliseGraph(graphInput), '-map', '[out]', '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'],
      { ...limits, signal: both, rawStdout: true },
    );
    const encoder = runProcess(
      ffmpeg,
      [
        '-hide_banner',
        '-v',
        'error',
        ...progressArgs,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        '-s',
        `${hi.width}x${hi.height}`,
        '-framerate',
        String(CLIP_FPS),
        '-i',
        'pipe:0',
        '-filter_complex',
        buildSplitGraph(portrait, wantThumbnail),
        ...outputs,
      ],
      { ...limits, signal: both, stdin: true, onStdout: onProgressOutput },
    );
    touchEncoder = encoder.touch;
    const filter = opts.frameFilter?.(hi);
    const piped = await pipeFrames({ decoder, encoder, frameBytes: yuv420pBytes(hi.width, hi.height), filter, stop: () => stop.abort() });
    changed = filter?.changed;
    if (signal?.aborted) throw abortError();
    const { encoded } = piped;
    if (piped.encoderGone || encoded.stopped || encoded.code !== 0) throw new Error(`encoder failed (${encoded.stopped ?? encoded.code}): ${tail(encoded.stderr)}`);
    // The decoder read the untrusted file: its failure is the video's, as in the one-process path.
    result = piped.decoded;
    if (piped.frames === 0 && result.code === 0 && !result.stopped) throw VideoRejectedError.invalid('no frames decoded');
  }
  if (result.stopped === 'abort' || signal?.aborted) throw abortError();
  if (result.stopped) throw VideoRejectedError.invalid(`ffmpeg stopped (${result.stopped}): ${tail(result.stderr)}`);
  if (result.code !== 0) {
    if (/No space left|Permission denied|Cannot allocate memory/i.test(result.stderr)) throw new Error(`ffmpeg failed: ${tail(result.stderr)}`);
    throw VideoRejectedError.invalid(`ffmpeg exited ${result.code}: ${tail(result.stderr)}`);
  }
  report(FINISH_AT, PROGRESS_TEXT.finishing);

  const high = await readSegmentList(highList);
  const low = await readSegmentList(lowList);
  if (high.length === 0) throw VideoRejectedError.invalid(`no frames decoded: ${tail(result.stderr)}`);
  if (high.length !== low.length) throw new Error(`rendition clip counts differ: ${high.length} high, ${low.length} low`);
  const clips: ProcessedClip[] = high.map((h, index) => {
    const frameCount = Math.round((h.end - h.start) * CLIP_FPS);
    return { index, frameCount, duration: frameCount / CLIP_FPS, highPath: join(workDir, h.file), lowPath: join(workDir, low[index]!.file) };
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
  } else if (wantThumbnail && !existsSync(thumbnailPath)) await thumbnailFromClip(clips[0]!.highPath, thumbnailPath, portrait, signal);

  const size = async (paths: string[]) => (await Promise.all(paths.map((p) => stat(p)))).reduce((s, st) => s + st.size, 0);
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
    fps: CLIP_FPS,
    durationSeconds: probe.durationSeconds,
    sourceWidth: probe.width,
    sourceHeight: probe.height,
    portrait,
    probe,
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
  const r = await runProcess(ffprobe, ['-v', 'error', '-select_streams', 'v:0', '-count_packets', '-show_entries', 'stream=nb_read_packets', '-of', 'csv=p=0', path], {
    timeoutMs: 30_000,
    maxOutputBytes: 4096,
    signal,
  }).done;
  if (r.stopped === 'abort') throw abortError();
  const n = Number(r.stdout.trim());
  if (r.code !== 0 || !Number.isInteger(n) || n <= 0) throw new Error(`cannot count frames of ${path}: ${tail(r.stderr)}`);
  return n;
}

/** The frame nearest `at` (after it first, on a tie) that is not in `changed`, or -1 when every frame is. */
export function unchangedNear(changed: ReadonlySet<number>, at: number, frames: number): number {
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
async function thumbnailFromClip(clip: string, out: string, portrait: boolean, signal?: AbortSignal, frame = 0): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  const steps = [...(frame > 0 ? [`select=eq(n\\,${frame})`] : []), ...(portrait ? ['crop=iw:trunc(iw*9/16/2)*2'] : [])];
  const vf = steps.length ? ['-vf', steps.join(',')] : [];
  const r = await runProcess(ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-i', clip, ...vf, '-frames:v', '1', '-q:v', '3', '-update', '1', '-y', out], {
    timeoutMs: 30_000,
    maxOutputBytes: 1024 ** 2,
    signal,
  }).done;
  if (r.stopped === 'abort') throw abortError();
  if (r.code !== 0 || !existsSync(out)) throw new Error(`thumbnail failed: ${tail(r.stderr)}`);
}

async function removeOutputs(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  await Promise.all(names.filter((n) => OUTPUT_NAME.test(n)).map((n) => rm(join(dir, n), { force: true })));
}

function tail(stderr: string): string {
  return stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
}

/** Re-exported for the job worker's logs and the benchmark. */
export { CLIP_FPS, CLIP_FRAMES, isHdr };
