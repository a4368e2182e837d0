/**
 * Raw frames from one ffmpeg process, through a JavaScript frame filter, into another: decode once, work on the
 * pixels, encode once. Used by the privacy blur (clips and reels), so blurring costs no second encode.
 */
import type { Readable } from 'node:stream';
import { CLIP_FPS } from './encoding.js';
import type { FacePass } from './face-pass.js';
import type { RunResult, RunningProcess } from './run-process.js';

/**
 * Turns the stream of decoded frames (packed yuv420p, all the same size) into the frames to encode, in order. It may
 * hold some frames back (look-ahead) but must hand on every frame it was given, once, before it ends.
 */
export type FrameFilter = ((frames: AsyncIterable<Buffer>) => AsyncIterable<Buffer>) & {
  /** Indices (0-based, in order of decoding) of the frames it changed, once it has ended (the privacy blur's). */
  changed?: ReadonlySet<number>;
};

/**
 * Makes a frame filter for frames of width x height (yuv420p). The privacy blur's also gives its face pass alone
 * (`facePass`), for a source whose frames need not all come through this process (the copy path, copy-faces.ts).
 */
export type FrameFilterFactory = ((size: { width: number; height: number }) => FrameFilter) & {
  facePass?: (size: { width: number; height: number }) => FacePass;
};

/** ffmpeg output arguments: graph label `label` as raw yuv420p frames on stdout (a decoding process of a pipe). */
const rawFramesOut = (label = '[out]') => ['-map', label, '-f', 'rawvideo', '-pix_fmt', 'yuv420p', 'pipe:1'];

/**
 * A pipe's decoding process, whole: `input` (the hardened input arguments of a plan) through `graph` (its `[out]` the
 * normalised frames), raw yuv420p frames on stdout.
 */
export const rawDecoderArgs = (input: readonly string[], graph: string) => [
  '-hide_banner',
  '-nostdin',
  '-v',
  'error',
  '-nostats',
  ...input,
  '-filter_complex',
  graph,
  ...rawFramesOut(),
];

/** ffmpeg input arguments: raw yuv420p frames of `size` at CLIP_FPS on stdin (an encoding process of a pipe). */
export const rawFramesIn = (size: { width: number; height: number }) => [
  '-f',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  '-s',
  `${size.width}x${size.height}`,
  '-framerate',
  String(CLIP_FPS),
  '-i',
  'pipe:0',
];

/** Bytes of one packed yuv420p frame. */
export const yuv420pBytes = (width: number, height: number) => width * height + 2 * (width >> 1) * (height >> 1);

/** Cuts a byte stream into frames of `size` bytes (a trailing partial frame is dropped); each byte is copied once. */
export async function* readFrames(stream: Readable, size: number, onChunk?: () => void): AsyncGenerator<Buffer> {
  let frame = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    onChunk?.();
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(size - filled, chunk.length - at);
      chunk.copy(frame, filled, at, at + n);
      filled += n;
      at += n;
      if (filled === size) {
        // The filter may keep a frame while later chunks arrive: each frame is its own buffer.
        yield frame;
        frame = Buffer.allocUnsafe(size);
        filled = 0;
      }
    }
  }
}

export interface PipeResult {
  /** Frames written to the encoder. */
  frames: number;
  decoded: RunResult;
  encoded: RunResult;
  /** The encoder closed its input before the end: its result tells why (the decoder was stopped for it). */
  encoderGone: boolean;
}

/**
 * Moves frames from `decoder` (started with rawStdout) through `filter` into `encoder` (started with stdin), with
 * back-pressure both ways. `stop` kills both processes (the caller's AbortController shared by them); it is called
 * when the filter throws (the error is rethrown once both have exited) or when the encoder goes away.
 */
export async function pipeFrames(o: {
  decoder: RunningProcess;
  encoder: RunningProcess;
  frameBytes: number;
  filter?: FrameFilter | undefined;
  stop: () => void;
  onFrame?: (written: number) => void;
}): Promise<PipeResult> {
  const stdin = o.encoder.stdin!;
  let frames = 0;
  let encoderGone = false;
  try {
    const decoded = readFrames(o.decoder.stdout!, o.frameBytes, () => o.decoder.touch());
    for await (const frame of o.filter ? o.filter(decoded) : decoded) {
      if (stdin.destroyed || stdin.writableEnded) {
        encoderGone = true;
        break;
      }
      frames++;
      if (!stdin.write(frame)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stdin.off('drain', done).off('close', done);
            resolve();
          };
          stdin.on('drain', done).on('close', done);
        });
      }
      o.onFrame?.(frames);
    }
  } catch (err) {
    o.stop();
    stdin.destroy();
    await Promise.allSettled([o.decoder.done, o.encoder.done]);
    throw err;
  }
  if (encoderGone) o.stop();
  stdin.end();
  const [decoded, encoded] = await Promise.all([o.decoder.done, o.encoder.done]);
  return { frames, decoded, encoded, encoderGone };
}
