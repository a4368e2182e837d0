/**
 * How ffmpeg reads an (already probed) source so that only the frames the tour keeps cost anything:
 *
 * - Non-reference frames are not decoded (`-skip_frame noref`) when the source runs at ≥ 45 fps (phones' 50/60 fps):
 *   nothing refers to them, so skipping them changes no other picture, and encoders never put more than two or three
 *   of them in a row, so every 1/15 s window still holds decoded frames (a 60 fps HEVC from x265 or a phone keeps 2 of
 *   5). The `fps` filter then takes the last decoded frame of each window instead of the last of all frames: each tour
 *   frame is still within half a tour frame (33 ms) of its time, the rule VFR sources already follow, and no frame is
 *   repeated. Below 45 fps a run of skipped frames could leave a window empty (a repeated frame), so there they are
 *   skipped only where the probe read every packet's reference flag (reference-frames.ts) and found no run of them as
 *   long as a window's source frames: a steady 30 fps H.264 or HEVC with single B-frames between references (x264's
 *   defaults: a third of the decoding saved on a 1080p30 source) skips them; one without B-frames has nothing to skip.
 * - The rotation is applied by the graph after the downscale (`-noautorotate`): ffmpeg's autorotate transposes every
 *   full-size frame before the graph, 60 4K frames a second on a portrait phone video.
 * - Timestamps are kept as stored (`-copyts`) and the tour's frames are ticks of the absolute 1/15 s grid
 *   (encoding.ts `TourFrames`), so a segment decoded from a keyframe gives the same frames as the whole video.
 */
import { CLIP_FPS, CLIP_FRAMES, type FilterGraphInput, type TourFrames } from './encoding.js';
import type { ProbeResult } from './probe-video.js';

/** Sources at or above this frame rate skip non-reference frames (see the header). */
const SKIP_NONREF_MIN_FPS = 45;
const SKIP_NONREF_CODECS = new Set(['h264', 'hevc']);

/** A part of the tour, in tour frames: `[first, end)`; `first` is a multiple of CLIP_FRAMES in practice. */
export interface FrameRange {
  first: number;
  /** Exclusive; absent: to the end of the video. */
  end?: number;
}

export interface SourcePlan {
  /** Input options, placed before `-i`. */
  inputArgs: string[];
  /** Output options that must come with them (`-copyts`). */
  outputArgs: string[];
  /** For buildFilterGraph / buildNormaliseGraph. */
  graph: Pick<FilterGraphInput, 'rotation' | 'frames'>;
  skipNonRef: boolean;
}

/**
 * The tick (1/CLIP_FPS grid, stored timestamps) of the tour's frame 0: where the first frame falls, as `fps` rounds it.
 */
function originTick(probe: Pick<ProbeResult, 'startSeconds'>): number {
  return Math.round(probe.startSeconds * CLIP_FPS);
}

function skipsNonRef(probe: Pick<ProbeResult, 'codec' | 'averageFps' | 'nonReferenceRun'>): boolean {
  if (!SKIP_NONREF_CODECS.has(probe.codec)) return false;
  if (probe.averageFps >= SKIP_NONREF_MIN_FPS) return true;
  // Below that, only where the stream's own frames show it is safe: its longest run of non-reference frames is
  // shorter than the source frames of a tour frame (a 30 fps source: single non-reference frames between references).
  const run = probe.nonReferenceRun ?? 0;
  return run >= 1 && run < Math.floor(probe.averageFps / CLIP_FPS + 0.01);
}

/**
 * The keyframe to start decoding at for a range starting at tour frame `first`: the last keyframe whose time is at or
 * before the range's first tick (that keyframe is decoded and, as it rounds to no later tick, the frame `fps` picks for
 * the first tick is it or a later one, exactly as in the whole video). Null: decode from the start.
 */
export function seekKeyframe(
  probe: Pick<ProbeResult, 'startSeconds' | 'keyframeSeconds'>,
  first: number,
): number | null {
  if (first <= 0) return null;
  const tick = originTick(probe) + first;
  let best: number | null = null;
  for (const k of probe.keyframeSeconds) {
    if (k * CLIP_FPS <= tick) best = k;
    else break;
  }
  return best !== null && best > probe.startSeconds ? best : null;
}

export function planSource(probe: ProbeResult, range: FrameRange = { first: 0 }): SourcePlan {
  const origin = originTick(probe);
  const skipNonRef = skipsNonRef(probe);
  const seek = seekKeyframe(probe, range.first);
  const frames: TourFrames = {
    // The fps filter's start: a tick at or before the first decoded frame (the keyframe sought, or the video's start).
    gridStart: seek === null ? origin : Math.min(origin + range.first, Math.floor(seek * CLIP_FPS)),
    first: origin + range.first,
    ...(range.end !== undefined ? { end: origin + range.end } : {}),
  };
  const inputArgs = [
    '-noautorotate',
    ...(skipNonRef ? ['-skip_frame', 'noref'] : []),
    // Seek by the stored timestamp to just past the keyframe (the demuxer goes back to it) and keep every frame from
    // there: the graph's trim decides, on ticks, what is kept.
    ...(seek !== null ? ['-seek_timestamp', '1', '-noaccurate_seek', '-ss', (seek + 0.001).toFixed(6)] : []),
  ];
  return { inputArgs, outputArgs: ['-copyts'], graph: { rotation: probe.rotation, frames }, skipNonRef };
}

/**
 * The segments of a video for processing by several workers: whole clips of about `segmentSeconds` each, the last one
 * open-ended (to the end of the video). A video no longer than 1.5 segments, or without keyframe timing, stays one
 * piece: each segment pays a job pick-up, a source download and up to a second of decoding before its first keyframe,
 * which is lost in a 48 s segment but not in a short video. The last segment takes a remainder under half a segment.
 */
export function planSegments(
  probe: Pick<ProbeResult, 'durationSeconds' | 'keyframeSeconds' | 'startSeconds'>,
  segmentSeconds: number,
): FrameRange[] {
  const size = Math.max(1, Math.round((segmentSeconds * CLIP_FPS) / CLIP_FRAMES)) * CLIP_FRAMES;
  const frames = Math.ceil(probe.durationSeconds * CLIP_FPS);
  if (frames <= size * 1.5 || probe.keyframeSeconds.length < 2) return [{ first: 0 }];
  const ranges: FrameRange[] = [];
  let first = 0;
  while (frames - first >= size * 1.5) {
    ranges.push({ first, end: first + size });
    first += size;
  }
  ranges.push({ first });
  return ranges;
}
