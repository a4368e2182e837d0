/**
 * A transcode's command lines (the filter graph step): what ffmpeg reads (the untrusted input, hardened: file protocol
 * only, the probed demuxer, bounded allocation and picture size), the filter graph's input, and what it writes (both
 * renditions cut into 36-frame clips with their lists, the thumbnail). media/transcode-run.ts runs them;
 * media/transcode-collect.ts reads what they wrote.
 */
import { join } from 'node:path';
import {
  CLIP_FPS,
  CLIP_FRAMES,
  type FilterGraphInput,
  RENDITIONS,
  THUMBNAIL_FRAME,
  segmentArgs,
  x264Args,
} from './encoding.js';
import { ffmpegCapabilities } from './ffmpeg-binaries.js';
import { MAX_SOURCE_SIDE, type ProbeResult } from './probe-video.js';
import { type FrameRange, planSource } from './source-frames.js';

export interface TranscodePlan {
  workDir: string;
  portrait: boolean;
  /** Input options and the input (untrusted file) of the decoding process. */
  input: string[];
  /** The filter graph's input (without the thumbnail branch, which `wantThumbnail` adds). */
  graphInput: Omit<FilterGraphInput, 'thumbnail'>;
  /** Output options of the encoding process: both renditions' clips and lists, and the thumbnail. */
  outputs: string[];
  progressArgs: string[];
  /** The range holds THUMBNAIL_FRAME: this transcode makes the tour's thumbnail. */
  wantThumbnail: boolean;
  /**
   * The source is in the clip format (media/clip-format.ts): its 720p clips are cut from it by stream copy
   * (media/copy-clips.ts), the outputs hold the 360p rendition and the thumbnail only.
   */
  copyHigh: boolean;
  /** The tour frames this transcode makes. */
  range: FrameRange;
  /** Tour frames of the range (for progress and time limits). */
  rangeFrames: number;
  highList: string;
  lowList: string;
  thumbnailPath: string;
  /** The source file (untrusted), for a plan of part of its range (the copy path's blurred clips, copy-faces.ts). */
  source: string;
}

/** The command lines that turn tour frames `range` of the probed source into clips under `workDir`. */
export function planTranscode(
  opts: { input: string; workDir: string },
  probe: ProbeResult,
  range: FrameRange,
): TranscodePlan {
  const { workDir } = opts;
  const caps = ffmpegCapabilities();
  if (!caps.libx264) throw new Error('This ffmpeg has no libx264 encoder');
  const portrait = probe.portrait;
  const copyHigh = probe.clipFormat?.copy === true;
  const source = planSource(probe, range);
  const wantThumbnail = range.first <= THUMBNAIL_FRAME;
  const videoFrames = Math.ceil(probe.durationSeconds * CLIP_FPS);
  const rangeFrames = Math.max(0, Math.min(range.end ?? videoFrames, videoFrames) - range.first);
  const maxFrames = (range.end !== undefined ? range.end - range.first : rangeFrames) + CLIP_FRAMES;
  const graphInput = {
    stream: `0:${probe.streamIndex}`,
    portrait,
    colour: probe.colour,
    toneMap: caps.toneMap,
    copyHigh,
    codedSize: { width: probe.codedWidth, height: probe.codedHeight },
    ...source.graph,
  };
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
    // The copied 720p clips carry the uploader's own bitstream to viewers: the decode that makes the 360p rendition
    // fails on the first damaged frame instead of concealing it, and processVideo then encodes (process-video.ts).
    ...(copyHigh ? ['-err_detect', 'explode', '-xerror'] : []),
    '-i',
    `file:${opts.input}`,
    ...source.outputArgs,
  ];
  const high = [
    '-map',
    '[high]',
    ...x264Args(RENDITIONS.high),
    '-fps_mode',
    'passthrough',
    ...segmentArgs(maxFrames, highList),
    join(workDir, 'high-%05d.mp4'),
  ];
  const outputs = [
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    ...(copyHigh ? [] : high),
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

  return {
    workDir,
    portrait,
    input,
    graphInput,
    outputs,
    progressArgs,
    wantThumbnail,
    copyHigh,
    range,
    rangeFrames,
    highList,
    lowList,
    thumbnailPath,
    source: opts.input,
  };
}
