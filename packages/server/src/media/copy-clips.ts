/**
 * The copy path: a source already in the clip format (media/clip-format.ts) gives its 720p clips by stream copy. Its
 * packets are cut at the keyframes that start each clip (every CLIP_FRAMES frames), so clip k holds exactly the
 * source's frames k × CLIP_FRAMES onwards, the frames the 360p rendition is made of (transcode-plan.ts, `copyHigh`).
 * Only where the privacy pass blurred a face is a clip encoded again, from the blurred frames
 * ({@link encodeBlurredClips}); every other 720p clip is the uploader's own bytes.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { CLIP_FPS, CLIP_FRAMES, RENDITIONS, segmentArgs, x264Args } from './encoding.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import type { FrameFilter } from './frame-pipe.js';
import { abortError, type ProbeResult } from './probe-video.js';
import { runProcess, stderrTail as tail } from './run-process.js';
import type { TranscodePlan } from './transcode-plan.js';
import { VideoRejectedError } from './video-rejected-error.js';

/** A copy moves bytes only: a minute of 720p takes well under a second, so these bounds are generous. */
const COPY_LIMITS = { timeoutMs: 120_000, maxOutputBytes: 1024 ** 2, maxMemoryBytes: 2 * 1024 ** 3 };

const clipName = (prefix: 'high' | 'blurred', k: number) => `${prefix}-${String(k).padStart(5, '0')}.mp4`;

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

/** The frame filter with the clips it changed encoded again, and `finish` to put them in place of the copied ones. */
interface BlurredClips {
  filter: FrameFilter;
  /** Waits for the clips' encoders and renames each over its copied clip; answers the clips encoded (range-local). */
  finish(): Promise<number[]>;
}

/**
 * Wraps the privacy filter (frames of `width` x `height`, the high rendition's size): the frames it hands on go to the
 * 360p encoder as before, and the frames of a clip in which it changed any frame go to an encoder of their own, which
 * writes `blurred-0000k.mp4` with the high rendition's settings. One such encoder runs at a time beside the pipe; a
 * clip's frames are held until its last has passed (CLIP_FRAMES frames).
 */
export function encodeBlurredClips(
  inner: FrameFilter,
  o: { width: number; height: number; workDir: string; signal: AbortSignal | undefined },
): BlurredClips {
  const encoded: number[] = [];
  let running: Promise<void> = Promise.resolve();
  let failure: unknown = null;
  const encodeClip = async (k: number, frames: Buffer[]) => {
    const { ffmpeg } = ffmpegBinaries();
    const proc = runProcess(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-v',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'yuv420p',
        '-s',
        `${o.width}x${o.height}`,
        '-framerate',
        String(CLIP_FPS),
        '-i',
        'pipe:0',
        ...x264Args(RENDITIONS.high),
        '-map_metadata',
        '-1',
        '-f',
        'mp4',
        '-movflags',
        '+frag_keyframe+empty_moov+default_base_moof',
        '-y',
        join(o.workDir, clipName('blurred', k)),
      ],
      { ...COPY_LIMITS, signal: o.signal, stdin: true },
    );
    const stdin = proc.stdin!;
    stdin.on('error', () => {});
    for (const f of frames) if (!stdin.write(f)) await new Promise((r) => stdin.once('drain', r).once('close', r));
    stdin.end();
    const r = await proc.done;
    if (r.stopped === 'abort' || o.signal?.aborted) throw abortError();
    if (r.stopped || r.code !== 0)
      throw new Error(`blurred clip ${k} failed (${r.stopped ?? r.code}): ${tail(r.stderr)}`);
    encoded.push(k);
  };
  const filter: FrameFilter = async function* (frames) {
    let held: Buffer[] = [];
    let index = 0;
    const clipEnds = async () => {
      const start = index - held.length;
      let changed = false;
      for (let i = start; i < index && !changed; i++) changed = inner.changed?.has(i) ?? false;
      const clip = held;
      held = [];
      if (!changed) return;
      // One encoder at a time: wait for the one before, then leave this one running beside the pipe.
      await running;
      if (failure) throw failure;
      running = encodeClip(start / CLIP_FRAMES, clip).catch((err: unknown) => {
        failure = err;
      });
    };
    for await (const frame of inner(frames)) {
      held.push(frame);
      index++;
      yield frame;
      if (held.length === CLIP_FRAMES) await clipEnds();
    }
    if (held.length) await clipEnds();
  };
  return {
    filter: Object.assign(filter, { changed: inner.changed }),
    async finish() {
      await running;
      if (failure) throw failure;
      for (const k of encoded)
        await rename(join(o.workDir, clipName('blurred', k)), join(o.workDir, clipName('high', k)));
      return [...encoded].sort((a, b) => a - b);
    },
  };
}
