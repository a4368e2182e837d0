/**
 * A transcode's run: ffmpeg as one process (decode, filter graph, both encodes), or, with a frame filter (the privacy
 * blur) or a rotated source, a decoding process piping raw frames through the filter into an encoding process
 * (media/frame-pipe.ts). A source in the clip format with the privacy blur stays one process, which also hands the face
 * pass its sampled frames (media/copy-faces.ts). Progress comes from ffmpeg's `-progress` output (or the frames
 * sampled); a failure of the process that read the untrusted file is the video's (VideoRejectedError), anything else
 * ours.
 */
import {
  CLIP_FPS,
  RENDITIONS,
  buildFilterGraph,
  buildNormaliseGraph,
  buildSplitGraph,
  renditionSize,
} from './encoding.js';
import { blurCopiedClips, faceSampleOutputs, sampleFaces } from './copy-faces.js';
import { pipeFrames, rawDecoderArgs, rawFramesIn, yuv420pBytes, type FrameFilterFactory } from './frame-pipe.js';
import { ffmpegBinaries } from './ffmpeg-binaries.js';
import { abortError, type ProbeResult } from './probe-video.js';
import { type RunResult, runProcess, stderrTail as tail } from './run-process.js';
import type { TranscodePlan } from './transcode-plan.js';
import { VideoRejectedError } from './video-rejected-error.js';

/** Address-space cap of the transcode (prlimit): 4K HEVC decoding plus two x264 encoders fit well within it. */
const TRANSCODE_MEMORY_BYTES = 8 * 1024 ** 3;

/**
 * Runs `plan`; `onShare` gets the share of the range encoded (0–1) as it advances. Answers ffmpeg's error output (for
 * the collect step's messages) and the frames the filter changed.
 */
export async function runTranscode(
  plan: TranscodePlan,
  probe: ProbeResult,
  opts: {
    signal?: AbortSignal | undefined;
    stallTimeoutMs?: number | undefined;
    frameFilter?: FrameFilterFactory | undefined;
  },
  onShare: (share: number) => void,
): Promise<{ stderr: string; changed: ReadonlySet<number> | undefined }> {
  const { signal } = opts;
  const { input, outputs, progressArgs, graphInput, wantThumbnail, rangeFrames, portrait } = plan;
  const { ffmpeg } = ffmpegBinaries();
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
        onShare(share);
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
  const hi = renditionSize(RENDITIONS.high, portrait);
  // On the copy path the privacy pass needs only the sampled frames (media/copy-faces.ts); without its face pass
  // (another frame filter) the whole frames go through the raw frame pipe below.
  const pass = plan.copyHigh && probe.rotation === 0 ? opts.frameFilter?.facePass?.(hi) : undefined;
  // A rotated source goes through the raw frame pipe too: with the rotation done in our graph (-noautorotate), ffmpeg
  // 5.1 would copy the source's display matrix onto the clips (and no option removes it), turning them a second time.
  if (pass) {
    let ok = false;
    try {
      const graph = buildFilterGraph({ ...graphInput, thumbnail: wantThumbnail, faceSamples: pass.every });
      const stop = new AbortController();
      const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
      const run = runProcess(
        ffmpeg,
        ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', ...input, '-filter_complex', graph, ...outputs].concat(
          faceSampleOutputs(),
        ),
        { ...limits, signal: both, rawStdout: true, fd3: true },
      );
      const clips = { plan, probe, limits, signal };
      const sampling = sampleFaces(
        { stdout: run.stdout!, fd3: run.fd3!, touch: run.touch },
        pass,
        { ...clips, size: hi },
        (n) => onShare(Math.min(1, n / Math.max(1, rangeFrames))),
      ).catch((err: unknown) => {
        stop.abort();
        throw err;
      });
      sampling.catch(() => {});
      result = await run.done;
      const sampled = await sampling.then(
        (frames) => ({ frames }),
        (err: unknown) => ({ err }),
      );
      if (signal?.aborted) throw abortError();
      // ffmpeg's own failure is the video's (below); the pass's failure, or ffmpeg stopped for it, is ours.
      if ('err' in sampled && (result.code === 0 || result.stopped === 'abort')) throw sampled.err;
      if ('frames' in sampled && result.code === 0 && !result.stopped) {
        await blurCopiedClips(pass, sampled.frames, clips);
        changed = pass.changed;
      }
      ok = true;
    } finally {
      await pass.close(ok);
    }
  } else if (!opts.frameFilter && probe.rotation === 0) {
    const graph = buildFilterGraph({ ...graphInput, thumbnail: wantThumbnail });
    const run = runProcess(
      ffmpeg,
      ['-hide_banner', '-nostdin', '-v', 'error', ...progressArgs, ...input, '-filter_complex', graph, ...outputs],
      { ...limits, signal, onStdout: onProgressOutput },
    );
    touchEncoder = run.touch;
    result = await run.done;
  } else {
    // Decoder (the untrusted input, hardened as above) → frame filter → encoder (our own raw frames). Never for copied
    // clips: the filter's changes would miss them (process-video.ts encodes a source whose filter has no face pass).
    if (plan.copyHigh) throw new Error('copied 720p clips cannot go through a frame filter');
    const stop = new AbortController();
    const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const decoder = runProcess(ffmpeg, rawDecoderArgs(input, buildNormaliseGraph(graphInput)), {
      ...limits,
      signal: both,
      rawStdout: true,
    });
    const encoder = runProcess(
      ffmpeg,
      [
        '-hide_banner',
        '-v',
        'error',
        ...progressArgs,
        ...rawFramesIn(hi),
        '-filter_complex',
        buildSplitGraph(portrait, wantThumbnail, plan.copyHigh),
        ...outputs,
      ],
      { ...limits, signal: both, stdin: true, onStdout: onProgressOutput },
    );
    touchEncoder = encoder.touch;
    const filter = opts.frameFilter?.(hi);
    const piped = await pipeFrames({
      decoder,
      encoder,
      frameBytes: yuv420pBytes(hi.width, hi.height),
      filter,
      stop: () => stop.abort(),
    });
    changed = filter?.changed;
    if (signal?.aborted) throw abortError();
    const { encoded } = piped;
    if (piped.encoderGone || encoded.stopped || encoded.code !== 0)
      throw new Error(`encoder failed (${encoded.stopped ?? encoded.code}): ${tail(encoded.stderr)}`);
    // The decoder read the untrusted file: its failure is the video's, as in the one-process path.
    result = piped.decoded;
    if (piped.frames === 0 && result.code === 0 && !result.stopped)
      throw VideoRejectedError.invalid('no frames decoded');
  }
  if (result.stopped === 'abort' || signal?.aborted) throw abortError();
  if (result.stopped) throw VideoRejectedError.invalid(`ffmpeg stopped (${result.stopped}): ${tail(result.stderr)}`);
  if (result.code !== 0) {
    if (/No space left|Permission denied|Cannot allocate memory/i.test(result.stderr))
      throw new Error(`ffmpeg failed: ${tail(result.stderr)}`);
    throw VideoRejectedError.invalid(`ffmpeg exited ${result.code}: ${tail(result.stderr)}`);
  }
  return { stderr: result.stderr, changed };
}
