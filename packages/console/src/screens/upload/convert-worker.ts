/**
 * The conversion worker (docs/upload-conversion.md): reads the picked file (mediabunny: MP4/MOV/WebM demuxers),
 * checks the source and the device's decoder and encoder (`isConfigSupported`), then decodes, turns the picture upright
 * (the container's matrix is applied to the pixels, so the mezzanine carries no rotation), scales to MEZZANINE size,
 * resamples to its frame rate and encodes H.264 High with WebCodecs into an MP4, off the main thread. It answers
 * `refused` (with the reason) before converting when the device should not, `failed` when decoding or encoding breaks.
 */
import { ALL_FORMATS, BlobSource, BufferTarget, Conversion, Input, Mp4OutputFormat, Output } from 'mediabunny';
import { littleToGain, MEZZANINE, mezzanineSize, sourceRefusal } from './convert-rules.js';
import type { ConvertReply, ConvertRequest } from './convert-types.js';

const scope = self as unknown as { postMessage(m: ConvertReply, transfer?: Transferable[]): void; onmessage: ((e: MessageEvent<ConvertRequest>) => void) | null };
const post = (m: ConvertReply, transfer: Transferable[] = []) => scope.postMessage(m, transfer);
let running: Conversion | null = null;
let cancelled = false;

/** Whether a decoder for this config exists, and whether it is the hardware one. */
async function decoderKind(config: VideoDecoderConfig): Promise<'hardware' | 'software' | null> {
  if ((await VideoDecoder.isConfigSupported({ ...config, hardwareAcceleration: 'prefer-hardware' })).supported) return 'hardware';
  return (await VideoDecoder.isConfigSupported(config)).supported ? 'software' : null;
}

async function convert(file: File): Promise<void> {
  const input = new Input({ source: new BlobSource(file), formats: ALL_FORMATS });
  const track = await input.getPrimaryVideoTrack();
  if (!track) return post({ type: 'refused', reason: 'no video track the browser can read' });
  const [codec, colour, durationSeconds, decoderConfig] = await Promise.all([track.getCodecParameterString(), track.getColorSpace(), input.computeDuration(), track.getDecoderConfig()]);
  const facts = { codec, width: track.displayWidth, height: track.displayHeight, transfer: colour.transfer ?? null, durationSeconds, bytes: file.size };
  const refusal = sourceRefusal(facts);
  if (refusal) return post({ type: 'refused', reason: refusal });
  const decoder = decoderConfig ? await decoderKind(decoderConfig) : null;
  if (!decoder) return post({ type: 'refused', reason: `no decoder for ${codec} on this device` });
  const size = mezzanineSize(facts.width, facts.height);
  const encoder = await VideoEncoder.isConfigSupported({ codec: MEZZANINE.codec, ...size, bitrate: MEZZANINE.bitrate, framerate: MEZZANINE.fps });
  if (!encoder.supported) return post({ type: 'refused', reason: `no ${MEZZANINE.codec} encoder at ${size.width}x${size.height} on this device` });
  const light = littleToGain(facts);
  if (light) return post({ type: 'refused', reason: light });

  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target: new BufferTarget() });
  const conversion = await Conversion.init({
    input,
    output,
    video: {
      ...size,
      fit: 'fill',
      codec: 'avc',
      bitrate: MEZZANINE.bitrate,
      frameRate: MEZZANINE.fps,
      keyFrameInterval: MEZZANINE.keyFrameSeconds,
      // The pixels are turned, so the server's probe and the player see an upright picture with no matrix to apply.
      allowTransformationMetadata: false,
      forceTranscode: true,
    },
    audio: { discard: true },
  });
  if (!conversion.isValid) return post({ type: 'refused', reason: `cannot convert: ${conversion.discardedTracks.map((d) => d.reason).join(', ')}` });
  if (cancelled) return;
  running = conversion;
  post({ type: 'started', durationSeconds, decoder, size, codec: codec ?? '' });
  conversion.onProgress = (fraction) => post({ type: 'progress', fraction });
  await conversion.execute();
  const buffer = output.target.buffer;
  if (!buffer) throw new Error('the muxer wrote nothing');
  post({ type: 'done', buffer }, [buffer]);
}

scope.onmessage = (e) => {
  if (e.data.type === 'cancel') {
    cancelled = true;
    void running?.cancel();
    return;
  }
  convert(e.data.file).catch((err: unknown) => {
    if (!cancelled) post({ type: 'failed', reason: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  });
};
