/**
 * When and how the upload screen turns a phone video into a light mezzanine on the device before it is uploaded
 * (docs/upload-conversion.md): which sources it converts, the mezzanine's size, and whether converting still beats
 * uploading the original, judged from the first seconds of both. Pure: the worker and the upload flow ask, tests pin.
 */

/**
 * The mezzanine: H.264 High 4.0, 1080p on the long side, 30 fps, a keyframe a second, 5 Mbit/s (measured, see docs).
 */
const MEZZANINE = {
  /** avc1.640028: High profile, level 4.0 (1920x1080 at 30 fps); Debian's Chromium encodes it in software. */
  codec: 'avc1.640028',
  longSide: 1920,
  fps: 30,
  bitrate: 5_000_000,
  keyFrameSeconds: 1,
} as const;

/**
 * The tour's clip format (the server's media/encoding.ts, checked by its media/clip-format.ts): what the device makes
 * when its encoder can, so the server cuts the 720p clips from the upload by stream copy and encodes only the 360p
 * rendition (docs/decisions.md, "Copy what is already right"). Where the device cannot, it makes the MEZZANINE.
 */
export const CLIP_FORMAT = {
  /** avc1.64001f: High profile, level 3.1 (1280x720 at 15 fps), the codec of the tours' clips. */
  codec: 'avc1.64001f',
  /** The 720p rendition; a portrait source gets 720x1280. Other shapes are cropped to it at the centre, as on the server. */
  landscape: { width: 1280, height: 720 },
  fps: 15,
  /** A keyframe every 12 frames: every 36-frame clip starts on one, and a jump in the player decodes at most 12. */
  keyFrameFrames: 12,
  /**
   * The server's 720p clips are capped at 720 kbit/s (VBV, bufsize 1440 kbit); the server copies only clips within
   * what that admits (2.4 s × 720 kbit + 1440 kbit), so the device aims at the cap's average.
   */
  bitrate: 720_000,
} as const;

/** What the encoder is asked for: the clip format or the mezzanine, at the source's orientation. */
export interface EncodingTarget {
  name: 'clip-format' | 'mezzanine';
  codec: string;
  width: number;
  height: number;
  fps: number;
  bitrate: number;
  /** mediabunny's `keyFrameInterval` (seconds; a keyframe wherever floor(timestamp / interval) changes). */
  keyFrameInterval: number;
  /** `cover`: scale to cover the size and crop the centre; `fill`: the size has the source's shape already. */
  fit: 'cover' | 'fill';
}

/**
 * mediabunny's keyframe interval for a keyframe every `frames` frames at `fps`: just under frames / fps, so a frame's
 * timestamp k / fps, rounded in floating point, never puts the keyframe a frame late (2.4 / 0.8 = 2.9999999999999996).
 */
const keyFrameIntervalFor = (frames: number, fps: number) => frames / fps - 1e-6;

/** The clip format for a source displayed at width x height. */
export function clipFormatTarget(width: number, height: number): EncodingTarget {
  const { width: w, height: h } = CLIP_FORMAT.landscape;
  return {
    name: 'clip-format',
    codec: CLIP_FORMAT.codec,
    ...(height > width ? { width: h, height: w } : { width: w, height: h }),
    fps: CLIP_FORMAT.fps,
    bitrate: CLIP_FORMAT.bitrate,
    keyFrameInterval: keyFrameIntervalFor(CLIP_FORMAT.keyFrameFrames, CLIP_FORMAT.fps),
    fit: 'cover',
  };
}

/** The mezzanine for a source displayed at width x height (the device's encoder cannot make the clip format). */
export function mezzanineTarget(width: number, height: number): EncodingTarget {
  return {
    name: 'mezzanine',
    codec: MEZZANINE.codec,
    ...mezzanineSize(width, height),
    fps: MEZZANINE.fps,
    bitrate: MEZZANINE.bitrate,
    keyFrameInterval: MEZZANINE.keyFrameSeconds,
    fit: 'fill',
  };
}

/** What the worker reads of the source before deciding (mediabunny's track facts). */
export interface SourceFacts {
  /** The full codec string, e.g. avc1.640033, hvc1.2.4.L153.B0. */
  codec: string | null;
  /** Displayed size (after the container's rotation). */
  width: number;
  height: number;
  /** Transfer characteristic when the container says (bt709, pq, hlg…). */
  transfer: string | null;
  durationSeconds: number;
  /** The file's size. */
  bytes: number;
}

/** A source already this light (bits a second, against the mezzanine's) gains too little to convert. */
const MIN_GAIN = 1.5;

/**
 * The codec strings of 10-bit (or more) profiles: H.264 High 10/4:2:2/4:4:4, HEVC Main 10, VP9 profile 2/3, AV1 10-bit.
 */
function isHighBitDepth(codec: string): boolean {
  const c = codec.toLowerCase();
  if (/^avc[13]\.(6e|7a|f4)/.test(c)) return true;
  if (/^(hvc1|hev1)\.2\./.test(c)) return true;
  if (/^vp09\.0[23]\./.test(c) || /^vp09\.\d\d\.\d\d\.(10|12)/.test(c)) return true;
  return /^av01\.\d\.\d\d[mh]\.(10|12)/.test(c);
}

/**
 * Why this source goes to the server as it is, or null when the device may convert it. HDR (PQ/HLG) and 10-bit
 * sources take the server path: its tone map is the reference and the browser's would not match it (nor do hardware
 * decoders always hand out readable frames for them, Chrome's `format === null`).
 */
export function sourceRefusal(f: SourceFacts): string | null {
  if (!f.codec) return 'the container names no codec';
  if (f.transfer === 'pq' || f.transfer === 'hlg') return `HDR source (${f.transfer}): the server tone-maps it`;
  if (isHighBitDepth(f.codec)) return `10-bit source (${f.codec}): the server converts it`;
  if (!(f.durationSeconds > 0)) return 'no duration';
  return null;
}

const s = (n: number) => `${n.toFixed(1)} s`;

/** A source whose video ends this much sooner than its index declares is cut short (edit lists round less). */
const INCOMPLETE_SECONDS = 0.5;

/**
 * Why a source is not whole, or null: its index declares `declaredSeconds` of video but the file holds the samples
 * only up to `readableSeconds` (a copy cut short). Converting it would make a shorter, whole-looking file, and the
 * server would judge that one (a short video, or a short tour); the original goes instead, and the server's probe
 * gives the owner the precise reason (incomplete file).
 */
export function incompleteSource(declaredSeconds: number, readableSeconds: number): string | null {
  return declaredSeconds - readableSeconds > INCOMPLETE_SECONDS
    ? `incomplete: the index declares ${s(declaredSeconds)} of video, the file holds ${s(readableSeconds)}`
    : null;
}

/**
 * Why converting this source gains too little (asked once the device has shown it can convert it), or null;
 * `targetBitrate`: the bitrate of what the device would make (its EncodingTarget's).
 */
export function littleToGain(f: Pick<SourceFacts, 'bytes' | 'durationSeconds'>, targetBitrate: number): string | null {
  const bitrate = (f.bytes * 8) / f.durationSeconds;
  return bitrate < targetBitrate * MIN_GAIN
    ? `already light (${(bitrate / 1e6).toFixed(1)} Mbit/s): little to gain`
    : null;
}

/** The mezzanine's size: the source's shape with its long side at MEZZANINE.longSide, even numbers, never larger. */
export function mezzanineSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, MEZZANINE.longSide / Math.max(width, height));
  const even = (n: number) => Math.max(2, Math.round((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

/** Seconds both run before the first verdict: enough for the upload's speed meter and the converter's pace. */
const RACE_MIN_SECONDS = 3;
/** After this long without a measurement on one side, the side that has one decides. */
const RACE_MAX_SECONDS = 12;

/**
 * The first seconds' pace overstates the conversion's speed (the decoder runs ahead of the encoder while the pipeline
 * fills): measured, the rest took 25–35 % longer than projected in the journey and 2.7x in the bench under load 25.
 * The projection is stretched by this much before it is compared.
 */
const CONVERSION_PACE_MARGIN = 1.5;

export interface RaceSample {
  elapsedSeconds: number;
  /** Share of the source converted, 0..1. */
  converted: number;
  durationSeconds: number;
  originalBytes: number;
  /** Bytes of the original uploaded meanwhile. */
  uploadedBytes: number;
  /** The uplink's speed measured on the original's upload; null until measured. */
  bytesPerSecond: number | null;
  /** Bits a second of what the device makes (its EncodingTarget's bitrate: the clip format's or the mezzanine's). */
  targetBitrate: number;
}

export type RaceVerdict = { choice: 'wait' } | { choice: 'convert' | 'original'; reason: string };

/**
 * Convert, or upload the original: whichever ends sooner at the pace of the first seconds. Converting costs the rest of
 * the conversion plus the converted file's upload (its target's bitrate × duration: the clip format's or the
 * mezzanine's); the original costs the rest of its upload.
 */
export function raceVerdict(m: RaceSample): RaceVerdict {
  if (m.elapsedSeconds < RACE_MIN_SECONDS) return { choice: 'wait' };
  const late = m.elapsedSeconds >= RACE_MAX_SECONDS;
  if (m.converted <= 0)
    return late ? { choice: 'original', reason: `no frame converted in ${s(m.elapsedSeconds)}` } : { choice: 'wait' };
  const convertLeft = (CONVERSION_PACE_MARGIN * m.elapsedSeconds * (1 - m.converted)) / m.converted;
  if (!m.bytesPerSecond)
    return late
      ? { choice: 'convert', reason: `the uplink moved nothing measurable in ${s(m.elapsedSeconds)}` }
      : { choice: 'wait' };
  const convertedUpload = ((m.targetBitrate / 8) * m.durationSeconds) / m.bytesPerSecond;
  const originalLeft = Math.max(0, m.originalBytes - m.uploadedBytes) / m.bytesPerSecond;
  const figures = `converting ${s(convertLeft)} + uploading ${s(convertedUpload)} vs the original's ${s(originalLeft)} at ${(m.bytesPerSecond / 125_000).toFixed(1)} Mbit/s`;
  return convertLeft + convertedUpload < originalLeft
    ? { choice: 'convert', reason: figures }
    : { choice: 'original', reason: figures };
}
