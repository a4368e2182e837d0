/**
 * The privacy pass on the copy path (a source in the clip format, media/copy-clips.ts): no frame goes through this
 * process unless the face pass needs it.
 *
 * 1. The one ffmpeg process that makes the 360p rendition and the thumbnail also writes, beside them, every sampled
 *    frame at the high rendition's size (fd 3: what the detector and the tracker see on the raw frame pipe, pixel for
 *    pixel) and every frame's 32x18 luma glance (stdout: the cut test's points). {@link sampleFaces} hands them to the
 *    face pass (face-pass.ts: the same sampler, detection thread and plan as the raw frame pipe), the last frame decoded
 *    again when it is not a sample.
 * 2. With every sample in the plan, {@link blurCopiedClips} asks the plan for each frame's boxes, exactly the boxes the
 *    raw frame pipe blurs; only the clips with a box are decoded again, from the keyframe that starts them, the
 *    bitstream their copied 720p clips carry (no generation lost), as a segment is decoded (source-frames.ts: the same
 *    frames as the whole video's), blurred, and encoded in both renditions as the transcode encodes them (x264
 *    settings, segment muxer), over the copied 720p clip and the 360p clip made from unblurred frames; consecutive
 *    clips share one decoder and one encoder. Every other clip stays the uploader's bytes. The thumbnail, when its
 *    frame got a box, is taken again from an unblurred frame by the collect step as on any path.
 */
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Rect } from './face-detect.js';
import {
  CLIP_FRAMES,
  RENDITIONS,
  buildNormaliseGraph,
  buildSplitGraph,
  renditionSize,
  segmentArgs,
  x264Args,
} from './encoding.js';
import { type FacePass, GLANCE, MAX_DETECTIONS_OUT } from './face-pass.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { type FrameFilter, pipeFrames, rawDecoderArgs, rawFramesIn, readFrames, yuv420pBytes } from './frame-pipe.js';
import { abortError, type ProbeResult } from './probe-video.js';
import { type RunOptions, runProcess, stderrTail as tail } from './run-process.js';
import { type TranscodePlan, planTranscode } from './transcode-plan.js';

/** Arguments that add the face pass's outputs to the one-process transcode (its graph made with `faceSamples`). */
export function faceSampleOutputs(): string[] {
  const raw = (label: string, pixFmt: string, to: string) => [
    '-map',
    label,
    '-fps_mode',
    'passthrough',
    '-f',
    'rawvideo',
    '-pix_fmt',
    pixFmt,
    to,
  ];
  return [...raw('[glance]', 'gray', 'pipe:1'), ...raw('[samples]', 'yuv420p', 'pipe:3')];
}

/** Every frame's glance from `stream`, read as fast as ffmpeg writes them (576 bytes a frame), in order. */
function glances(stream: Readable, onChunk: () => void): () => Promise<Uint8Array | null> {
  const size = GLANCE.cols * GLANCE.rows;
  const ready: Uint8Array[] = [];
  let partial: Buffer = Buffer.alloc(0);
  let ended = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  stream.on('data', (chunk: Buffer) => {
    onChunk();
    partial = partial.length ? Buffer.concat([partial, chunk]) : chunk;
    let at = 0;
    for (; at + size <= partial.length; at += size) ready.push(new Uint8Array(partial.subarray(at, at + size)));
    partial = partial.subarray(at);
    notify();
  });
  stream.once('end', () => {
    ended = true;
    notify();
  });
  stream.once('error', (err) => {
    failure = err;
    notify();
  });
  return async () => {
    for (;;) {
      if (ready.length) return ready.shift()!;
      if (failure) throw failure;
      if (ended) return null;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
}

interface ClipSource {
  plan: TranscodePlan;
  probe: ProbeResult;
  limits: Omit<RunOptions, 'signal'>;
  signal: AbortSignal | undefined;
}

/**
 * Frames [first, end) of the range decoded again as the transcode decoded them: a segment's decode of the source
 * (source-frames.ts: from the keyframe before `first`, on the same 1/15 s grid, hardened and strict as the transcode's),
 * so the same pixels, from the bitstream the copied clips carry.
 */
function decodeFrames(c: ClipSource, first: number, end: number, signal: AbortSignal) {
  const { ffmpeg } = ffmpegBinaries();
  const at = c.plan.range.first;
  const part = planTranscode({ input: c.plan.source, workDir: c.plan.workDir }, c.probe, {
    first: at + first,
    end: at + end,
  });
  return runProcess(ffmpeg, rawDecoderArgs(part.input, buildNormaliseGraph(part.graphInput)), {
    ...c.limits,
    signal,
    rawStdout: true,
  });
}

const clipName = (name: string, k: number) => `${name}-${String(k).padStart(5, '0')}.mp4`;

/**
 * Step 1 (see the header): reads the transcode's glances (stdout) and samples (fd 3) into `pass` until ffmpeg ends,
 * then the last frame; answers the frames of the range. `onFrame` gets each frame's count as it goes.
 */
export async function sampleFaces(
  run: { stdout: Readable; fd3: Readable; touch: () => void },
  pass: FacePass,
  c: ClipSource & { size: { width: number; height: number } },
  onFrame: (frames: number) => void,
): Promise<number> {
  const nextGlance = glances(run.stdout, run.touch);
  const samples = readFrames(run.fd3, yuv420pBytes(c.size.width, c.size.height), run.touch)[Symbol.asyncIterator]();
  // The next sample is read from fd 3 before its glance is asked for (one sample in hand): a sample (1.4 MB) does not
  // fit the pipe, so were ffmpeg to write a frame's sample before its glance, waiting for the glance first would leave
  // ffmpeg blocked on fd 3 and this loop waiting on stdout for good. Read freely, ffmpeg 5.1 wrote each glance two
  // frames before its sample (three runs), so this guards an order not seen; the stall it was written for (ffmpeg
  // stopped as stalled under load, twice in session 20) is not explained by it.
  const ahead = () => {
    const next = samples.next();
    next.catch(() => {});
    return next;
  };
  let nextSample = ahead();
  const stats = pass.stats;
  let index = 0;
  for (let g = await nextGlance(); g; g = await nextGlance()) {
    pass.look(g);
    if (index % pass.every === 0) {
      const s = await nextSample;
      nextSample = ahead();
      if (s.done) throw new Error(`the face samples ended before frame ${index}`);
      stats.framesInNode = (stats.framesInNode ?? 0) + 1;
      pass.offer({ frame: s.value, index }, index === 0);
      // The detection thread works on this sample while ffmpeg goes on; at most MAX_DETECTIONS_OUT are out.
      await pass.settle(MAX_DETECTIONS_OUT);
    } else await pass.settle(Infinity);
    index++;
    onFrame(index);
  }
  const last = index - 1;
  if (last > 0 && last % pass.every !== 0) {
    // Not a sample, and detected like the raw frame pipe's last frame: its pixels decoded again.
    const decoder = decodeFrames(c, last, last + 1, c.signal ?? new AbortController().signal);
    let frame: Buffer | null = null;
    for await (const f of readFrames(decoder.stdout!, yuv420pBytes(c.size.width, c.size.height), decoder.touch))
      frame ??= f;
    const r = await decoder.done;
    if (r.stopped === 'abort' || c.signal?.aborted) throw abortError();
    if (!frame || r.code !== 0) throw new Error(`last frame ${last} not decoded again: ${tail(r.stderr)}`);
    stats.framesInNode = (stats.framesInNode ?? 0) + 1;
    pass.offer({ frame, index: last }, true);
  }
  await pass.finish();
  return index;
}

/**
 * Step 2 (see the header): the plan's boxes for each of the range's `frames`; the clips with any are decoded from their
 * copied clip, blurred and encoded in both renditions over the clips the transcode wrote. Answers those clips.
 */
export async function blurCopiedClips(pass: FacePass, frames: number, c: ClipSource): Promise<number[]> {
  const boxes = new Map<number, Rect[]>();
  for (let f = 0; f < frames; f++) {
    const rects = pass.boxes(f);
    if (rects.length) boxes.set(f, rects);
  }
  const clips = [...new Set([...boxes.keys()].map((f) => Math.floor(f / CLIP_FRAMES)))].sort((a, b) => a - b);
  // Consecutive clips go through one decoder and one encoder: each pair of processes costs about 0.2 CPU s to start.
  for (let i = 0; i < clips.length; ) {
    let j = i;
    while (j + 1 < clips.length && clips[j + 1] === clips[j]! + 1) j++;
    const first = clips[i]! * CLIP_FRAMES;
    const end = Math.min((clips[j]! + 1) * CLIP_FRAMES, frames);
    const blur: FrameFilter = async function* (decoded) {
      let n = first;
      for await (const frame of decoded) {
        pass.blur(frame, n, boxes.get(n) ?? []);
        n++;
        yield frame;
      }
    };
    await encodeClips(c, first, end, blur);
    pass.stats.clipsEncodedAgain = (pass.stats.clipsEncodedAgain ?? 0) + j - i + 1;
    i = j + 1;
  }
  return clips;
}

/**
 * The clips of frames [first, end) (whole clips of the range) decoded again, through `filter`, encoded into both
 * renditions as the transcode encodes them (the same x264 settings, segment muxer and clip cuts), over its clips.
 */
async function encodeClips(c: ClipSource, first: number, end: number, filter: FrameFilter): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  const { workDir, portrait } = c.plan;
  const hi = renditionSize(RENDITIONS.high, portrait);
  const stop = new AbortController();
  const both = c.signal ? AbortSignal.any([c.signal, stop.signal]) : stop.signal;
  const decoder = decodeFrames(c, first, end, both);
  const { stallMs: _stall, ...encoderLimits } = c.limits;
  const count = end - first;
  const k0 = first / CLIP_FRAMES;
  const out = (r: 'high' | 'low') => [
    '-map',
    `[${r}]`,
    '-map_metadata',
    '-1',
    ...x264Args(RENDITIONS[r]),
    '-fps_mode',
    'passthrough',
    ...segmentArgs(count + CLIP_FRAMES, join(workDir, `blurred-${r}.csv`)),
    '-segment_start_number',
    String(k0),
    join(workDir, `blurred-${r}-%05d.mp4`),
  ];
  const encoder = runProcess(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-v',
      'error',
      '-nostats',
      ...rawFramesIn(hi),
      '-filter_complex',
      buildSplitGraph(portrait, false),
      ...out('high'),
      ...out('low'),
    ],
    // No stall watch on the encoder: it shows no progress of its own; the decoder's is watched, the time bounded.
    { ...encoderLimits, signal: both, stdin: true },
  );
  const piped = await pipeFrames({
    decoder,
    encoder,
    frameBytes: yuv420pBytes(hi.width, hi.height),
    filter,
    stop: () => stop.abort(),
  });
  if (c.signal?.aborted) throw abortError();
  const failed = [piped.decoded, piped.encoded].find((r) => r.stopped || r.code !== 0);
  if (failed || piped.encoderGone || piped.frames !== count)
    throw new Error(
      `clips from ${k0} not encoded again (${piped.frames} of ${count} frames): ${tail(failed?.stderr ?? piped.encoded.stderr)}`,
    );
  for (const r of ['high', 'low'] as const) {
    await rm(join(workDir, `blurred-${r}.csv`), { force: true });
    for (let k = k0; k * CLIP_FRAMES < end; k++)
      await rename(join(workDir, clipName(`blurred-${r}`, k)), join(workDir, clipName(r, k)));
  }
}
