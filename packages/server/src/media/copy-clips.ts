/**
 * The copy path: a source already in the clip format (media/clip-format.ts) gives its 720p clips by stream copy. Its
 * packets are cut at the keyframes that start each clip (every CLIP_FRAMES frames), so clip k holds exactly the
 * source's frames k × CLIP_FRAMES onwards, the frames the 360p rendition is made of (transcode-plan.ts, `copyHigh`).
 * Only where the privacy pass puts a box is a clip encoded again (media/copy-faces.ts); every other 720p clip is the
 * uploader's own bytes.
 */
import { join } from 'node:path';
import { CLIP_FPS, CLIP_FRAMES, segmentArgs } from './encoding.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { abortError, type ProbeResult } from './probe-video.js';
import { runProcess, stderrTail as tail } from './run-process.js';
import type { TranscodePlan } from './transcode-plan.js';
import { VideoRejectedError } from './video-rejected-error.js';

/** A copy moves bytes only: a minute of 720p takes well under a second, so these bounds are generous. */
const COPY_LIMITS = { timeoutMs: 120_000, maxOutputBytes: 1024 ** 2, maxMemoryBytes: 2 * 1024 ** 3 };

/** The stored time of the keyframe that is tour frame `frame` of a source in the clip format. */
function keyframeAt(probe: ProbeResult, frame: number): number {
  const at = probe.startSeconds + frame / CLIP_FPS;
  const key = probe.keyframeSeconds.find((k) => Math.abs(k - at) < 0.5 / CLIP_FPS);
  if (key === undefined) throw new Error(`no keyframe at frame ${frame} of a source in the clip format`);
  return key;
}

/**
 * Cuts the plan's range of `input` into `high-00000.mp4`… by stream copy, with the segment list the collect step reads
 * (the same muxer and fragmented MP4 flags as the encoded clips). Metadata is dropped as from encoded clips.
 */
export async function copyHighClips(
  plan: TranscodePlan,
  probe: ProbeResult,
  input: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { first, end } = plan.range;
  const seek = first > 0 ? keyframeAt(probe, first) : null;
  const { ffmpeg } = ffmpegBinaries();
  const run = await runProcess(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-max_alloc',
      String(1024 ** 3),
      '-protocol_whitelist',
      'file',
      '-f',
      probe.demuxer,
      // Just past the keyframe by its stored time: the demuxer starts at that keyframe, and the copy keeps every packet.
      ...(seek !== null ? ['-seek_timestamp', '1', '-noaccurate_seek', '-ss', (seek + 0.001).toFixed(6)] : []),
      '-i',
      `file:${input}`,
      '-map',
      `0:${probe.streamIndex}`,
      '-c:v',
      'copy',
      '-map_metadata',
      '-1',
      '-map_chapters',
      '-1',
      ...(end !== undefined ? ['-frames:v', String(end - first)] : []),
      ...segmentArgs(plan.rangeFrames + CLIP_FRAMES, plan.highList),
      join(plan.workDir, 'high-%05d.mp4'),
    ],
    { ...COPY_LIMITS, signal },
  ).done;
  if (run.stopped === 'abort' || signal?.aborted) throw abortError();
  if (run.stopped || run.code !== 0)
    throw VideoRejectedError.invalid(`stream copy failed (${run.stopped ?? run.code}): ${tail(run.stderr)}`);
}
