/**
 * The conversion worker (docs/upload-conversion.md), reached through comlink: reads the picked file (mediabunny:
 * MP4/MOV/WebM demuxers), checks the source (whole: readable-end.ts) and the device's decoder and encoder (`isConfigSupported`), then decodes,
 * turns the picture upright (the container's matrix is applied to the pixels, so the mezzanine carries no rotation),
 * scales and resamples to the tour's clip format (CLIP_FORMAT: 720p at 15 fps, a keyframe every 12 frames, which the
 * server copies instead of encoding) where the device's encoder can, else to the MEZZANINE, and encodes H.264 High with
 * WebCodecs, off the main thread; decoder and encoder are asked for the hardware ones where the device has them.
 * The MP4 is fragmented so it is written strictly in order: it is cut into the upload's parts as it is made, and each
 * full part leaves the worker at once (transferred) while the rest is still converting.
 */
import { expose, transfer } from 'comlink';
import {
  ALL_FORMATS,
  AppendOnlyStreamTarget,
  BlobSource,
  Conversion,
  Input,
  Mp4OutputFormat,
  Output,
  type InputVideoTrack,
} from 'mediabunny';
import {
  clipFormatTarget,
  type EncodingTarget,
  incompleteSource,
  littleToGain,
  mezzanineTarget,
  sourceRefusal,
} from './convert-rules.js';
import type { ConversionStart, ConvertWorkerApi, OnPart } from './convert-types.js';
import { preferHardwareDecoding } from './prefer-hardware-decoding.js';
import { readableVideoEnd } from './readable-end.js';

type Acceleration = 'hardware' | 'software';

/**
 * Whether a decoder for this config exists, and whether it is the hardware one (asked with 'prefer-hardware' first).
 */
async function decoderKind(config: VideoDecoderConfig): Promise<Acceleration | null> {
  if ((await VideoDecoder.isConfigSupported({ ...config, hardwareAcceleration: 'prefer-hardware' })).supported)
    return 'hardware';
  return (await VideoDecoder.isConfigSupported(config)).supported ? 'software' : null;
}

/**
 * The same for the mezzanine's encoder; a device with no hardware H.264 encoder (Debian's Chromium) refuses
 * 'prefer-hardware'.
 */
async function encoderKind(config: VideoEncoderConfig): Promise<Acceleration | null> {
  if ((await VideoEncoder.isConfigSupported({ ...config, hardwareAcceleration: 'prefer-hardware' })).supported)
    return 'hardware';
  return (await VideoEncoder.isConfigSupported(config)).supported ? 'software' : null;
}

/** Cuts an in-order byte stream into parts of `partSize` and hands each full one on; `end` hands the last. */
function partCutter(partSize: number, limit: number, onPart: OnPart) {
  let part = new Uint8Array(partSize);
  let filled = 0;
  let number = 1;
  let total = 0;
  const hand = async (bytes: Uint8Array<ArrayBuffer>) => {
    const n = number++;
    await onPart(n, transfer(bytes, [bytes.buffer]));
  };
  return {
    async write(chunk: Uint8Array) {
      total += chunk.length;
      if (total > limit) throw new Error(`the mezzanine passed its limit of ${limit} bytes`);
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(partSize - filled, chunk.length - at);
        part.set(chunk.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === partSize) {
          const full = part;
          part = new Uint8Array(partSize);
          filled = 0;
          await hand(full);
        }
      }
    },
    async end(): Promise<number> {
      if (filled > 0) await hand(part.slice(0, filled));
      return total;
    },
  };
}

let checked: { input: Input; track: InputVideoTrack; start: ConversionStart; target: EncodingTarget } | null = null;
let undoDecoderHint: (() => void) | null = null;
let running: Conversion | null = null;
let aborted = false;

const api: ConvertWorkerApi = {
  async check(file) {
    const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
    const track = await input.getPrimaryVideoTrack();
    if (!track) return { ok: false, reason: 'no video track the browser can read' };
    const [codec, colour, durationSeconds, decoderConfig] = await Promise.all([
      track.getCodecParameterString(),
      track.getColorSpace(),
      input.computeDuration(),
      track.getDecoderConfig(),
    ]);
    const facts = {
      codec,
      width: track.displayWidth,
      height: track.displayHeight,
      transfer: colour.transfer ?? null,
      durationSeconds,
      bytes: file.size,
    };
    const refusal = sourceRefusal(facts);
    if (refusal) return { ok: false, reason: refusal };
    // A file cut short goes as it is: converted, its readable part would look like a whole, shorter video.
    const incomplete = incompleteSource(await track.computeDuration(), await readableVideoEnd(track));
    if (incomplete) return { ok: false, reason: incomplete };
    const decoder = decoderConfig ? await decoderKind(decoderConfig) : null;
    if (!decoder) return { ok: false, reason: `no decoder for ${codec} on this device` };
    // The clip format where the device's encoder makes it, else the mezzanine.
    let target: EncodingTarget | null = null;
    let encoder: Acceleration | null = null;
    for (const t of [clipFormatTarget(facts.width, facts.height), mezzanineTarget(facts.width, facts.height)]) {
      encoder = await encoderKind({
        codec: t.codec,
        width: t.width,
        height: t.height,
        bitrate: t.bitrate,
        framerate: t.fps,
      });
      if (encoder) {
        target = t;
        break;
      }
    }
    if (!target || !encoder)
      return { ok: false, reason: 'no H.264 encoder for the clip format or the mezzanine on this device' };
    const size = { width: target.width, height: target.height };
    const light = littleToGain(facts, target.bitrate);
    if (light) return { ok: false, reason: light };
    // Where the device has a hardware decoder for the source, the conversion's decoder asks for it by name.
    undoDecoderHint?.();
    undoDecoderHint = decoder === 'hardware' && decoderConfig ? preferHardwareDecoding(decoderConfig.codec) : null;
    const start: ConversionStart = {
      durationSeconds,
      decoder,
      decoderHint: undoDecoderHint ? 'prefer-hardware' : 'no-preference',
      encoder,
      size,
      bitrate: target.bitrate,
      codec: codec ?? '',
    };
    checked = { input, track, start, target };
    return { ok: true, start };
  },

  async convert(partSize, limit, onProgress, onPart) {
    if (!checked) throw new Error('convert before check');
    const { input, start, target } = checked;
    const cutter = partCutter(partSize, limit, onPart);
    // AppendOnlyStreamTarget refuses a format that would seek back; a fragmented MP4 never does.
    const output = new Output({
      format: new Mp4OutputFormat({ fastStart: 'fragmented', minimumFragmentDuration: target.keyFrameInterval }),
      target: new AppendOnlyStreamTarget(new WritableStream<Uint8Array>({ write: (chunk) => cutter.write(chunk) })),
    });
    const conversion = await Conversion.init({
      input,
      output,
      video: {
        ...start.size,
        fit: target.fit,
        codec: 'avc',
        bitrate: target.bitrate,
        frameRate: target.fps,
        keyFrameInterval: target.keyFrameInterval,
        // Passed to the encoder only: the decoder gets 'prefer-hardware' through preferHardwareDecoding (check).
        hardwareAcceleration: start.encoder === 'hardware' ? 'prefer-hardware' : 'no-preference',
        // The pixels are turned, so the server's probe and the player see an upright picture with no matrix to apply.
        allowTransformationMetadata: false,
        forceTranscode: true,
      },
      audio: { discard: true },
    });
    if (!conversion.isValid)
      throw new Error(`cannot convert: ${conversion.discardedTracks.map((d) => d.reason).join(', ')}`);
    if (aborted) throw new DOMException('Conversion cancelled', 'AbortError');
    running = conversion;
    conversion.onProgress = (fraction) => void onProgress(fraction);
    await conversion.execute();
    return cutter.end();
  },

  abort() {
    aborted = true;
    void running?.cancel();
  },
};

expose(api);
