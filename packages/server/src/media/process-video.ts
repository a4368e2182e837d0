/**
 * The media processing core: an uploaded video file in, tour clips out. Database-free; the job worker calls
 * {@link processVideo}, stores the files it returns and writes the tour rows.
 *
 * Steps: hardened probe (probe-video.ts) → rules (spec texts via VideoRejectedError) → ONE ffmpeg pass
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
import { mkdir, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLIP_FPS, CLIP_FRAMES, isHdr } from './encoding.js';
import type { FrameFilterFactory } from './frame-pipe.js';
import { assertAcceptable, probeVideo, type ProbeResult } from './probe-video.js';
import { PROGRESS_TEXT } from './progress-text.js';
import type { FrameRange } from './source-frames.js';
import { copyHighClips } from './copy-clips.js';
import { collectClips, type ProcessedClip } from './transcode-collect.js';
import { planTranscode } from './transcode-plan.js';
import { runTranscode } from './transcode-run.js';
import { VideoRejectedError } from './video-rejected-error.js';

export { VideoRejectedError } from './video-rejected-error.js';
export { probeVideo, assertAcceptable, type ProbeResult } from './probe-video.js';
export { planSegments, type FrameRange } from './source-frames.js';
export type { ProcessedClip } from './transcode-collect.js';

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
   * the thumbnail. Without it, one ffmpeg process does everything. A source in the clip format keeps its copied 720p
   * clips with the privacy blur's face pass (only the clips with a face are encoded again, media/copy-faces.ts); with
   * any other filter it is encoded.
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
const OUTPUT_NAME =
  /^(high|low|blurred-high|blurred-low)-\d{5}\.mp4$|^(high|low|blurred-high|blurred-low)\.csv$|^thumbnail\.jpg$/;

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

/** One transcode: its command lines, their run, and the clips they wrote (media/transcode-*.ts). */
async function transcode(
  opts: ProcessVideoOptions,
  probe: ProbeResult,
  report: Reporter,
  range: FrameRange,
): Promise<ProcessSegmentResult> {
  if (!probe.clipFormat?.copy) return transcodeOnce(opts, probe, report, range);
  // A frame filter other than the privacy pass changes frames the copied clips would not show: encode them all.
  if (opts.frameFilter && !opts.frameFilter.facePass)
    return transcodeOnce(
      opts,
      { ...probe, clipFormat: { copy: false, why: 'a frame filter changes every frame' } },
      report,
      range,
    );
  try {
    return await transcodeOnce(opts, probe, report, range);
  } catch (err) {
    // A source in the clip format whose strict decode failed (a damaged frame): its bitstream is not handed on; the
    // encode path conceals the damage as it does for any upload.
    if (!(err instanceof VideoRejectedError) || opts.signal?.aborted) throw err;
    await removeOutputs(opts.workDir);
    const why = `not copied: ${err.message.slice(0, 200)}`;
    return transcodeOnce(opts, { ...probe, clipFormat: { copy: false, why } }, report, range);
  }
}

async function transcodeOnce(
  opts: ProcessVideoOptions,
  probe: ProbeResult,
  report: Reporter,
  range: FrameRange,
): Promise<ProcessSegmentResult> {
  const plan = planTranscode(opts, probe, range);
  // A source in the clip format gives its 720p clips by stream copy (media/copy-clips.ts); the run then makes the rest.
  if (plan.copyHigh) await copyHighClips(plan, probe, opts.input, opts.signal);
  const run = await runTranscode(plan, probe, opts, (share) =>
    report(PROBE_SHARE + (FINISH_AT - PROBE_SHARE) * share, PROGRESS_TEXT.processing),
  );
  report(FINISH_AT, PROGRESS_TEXT.finishing);
  const collected = await collectClips(plan, run, opts.signal);
  return {
    ...collected,
    fps: CLIP_FPS,
    durationSeconds: probe.durationSeconds,
    sourceWidth: probe.width,
    sourceHeight: probe.height,
    portrait: probe.portrait,
    probe,
  };
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

/** Re-exported for the job worker's logs and the benchmark. */
export { CLIP_FPS, CLIP_FRAMES, isHdr };
