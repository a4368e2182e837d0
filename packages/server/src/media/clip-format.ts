/**
 * Is an upload's video stream already in the tour's clip format (encoding.ts), so its 720p clips can be cut from it by
 * stream copy (media/copy-clips.ts) instead of decoded, scaled and encoded again? Decided from the probe alone (the
 * stream's header and its packets as ffprobe lists them), never from anything the client says.
 *
 * What the format requires, and why each point matters to the player (docs/decisions.md, "Copy what is already
 * right"):
 * - H.264 (High, Main or Constrained Baseline: every decoder of the tours' High profile decodes them), 8-bit 4:2:0,
 *   progressive, in MP4 with its parameter sets in the sample description (`avc1`): the player configures WebCodecs
 *   from that description and the `<video>` fallback from the same file.
 * - The high rendition's size exactly (1280x720, or 720x1280 upright), square pixels, no display rotation, BT.709 (or
 *   untagged) matrix and primaries: the tour's frames need no scaling, cropping or turning. Limited or full range, BT.709
 *   or sRGB transfer: the player converts each decoded frame by the colour space the decoder reports (its
 *   yuv-to-rgba.ts honours full range; Chromium reports it from the stream), and Chromium's encoder, fed the canvas's
 *   RGB frames, writes full-range sRGB-tagged BT.709 (measured in Debian's Chromium through mediabunny).
 * - CLIP_FPS constant: packet k sits at k / CLIP_FPS (to a few milliseconds of the container's time base), in decode
 *   order, so no B-frames (`has_b_frames` 0, presentation order = decode order) and no frame missing or doubled.
 * - A keyframe at every multiple of KEYFRAME_INTERVAL: every clip (CLIP_FRAMES, a multiple of it) starts on one, and a
 *   jump decodes at most KEYFRAME_INTERVAL frames, as in the clips the server encodes.
 * - Each clip's bytes within what the high rendition's VBV admits (maxrate × clip seconds + bufsize): a viewer fetches
 *   no heavier clips than a server-made tour's.
 * - Not required: slices. The player decodes each frame as one unit whatever its slices; the four slices of the
 *   server's 720p clips only let Chromium's software decoder use more cores (encoding.ts).
 */
import { CLIP_FPS, CLIP_FRAMES, KEYFRAME_INTERVAL, RENDITIONS, renditionSize } from './encoding.js';

/** The probe's verdict: `copy` when the clips may be cut from the source by stream copy, else why not (for logs). */
export interface ClipFormatVerdict {
  copy: boolean;
  why: string;
}

/** The stream header facts the format check reads (ffprobe's `-show_streams` names). */
export interface ClipFormatHeader {
  demuxer: string;
  codec_name?: string;
  codec_tag_string?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  field_order?: string;
  has_b_frames?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
  color_range?: string;
  rotation: number;
}

/** Profiles a High-profile decoder decodes; ffprobe's names. */
const PROFILES = new Set(['High', 'Main', 'Constrained Baseline']);
/** Colour tags that mean BT.709 (or nothing said, which HD video is in practice). */
const BT709 = new Set([undefined, '', 'unknown', 'bt709']);
/** Transfers shown as BT.709 SDR (sRGB's curve is what Chromium tags frames from a canvas with). */
const SDR_TRANSFERS = new Set([...BT709, 'iec61966-2-1']);
/** 8-bit 4:2:0, limited (`yuv420p`) or full range (`yuvj420p`). */
const PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
/** How far a packet's time may sit from its place on the CLIP_FPS grid: container time bases round (1 ms at 1/1000). */
const GRID_TOLERANCE_SECONDS = 0.005;
/** Bytes a clip of the high rendition may hold: what its VBV admits over the clip (maxrate × seconds + bufsize). */
export const MAX_CLIP_BYTES =
  ((RENDITIONS.high.maxrateK * (CLIP_FRAMES / CLIP_FPS) + RENDITIONS.high.bufsizeK) * 1000) / 8;

const no = (why: string): ClipFormatVerdict => ({ copy: false, why });

function rate(text: string | undefined): number | null {
  const [a, b] = (text ?? '').split('/').map(Number);
  return a !== undefined && b !== undefined && Number.isFinite(a) && b > 0 ? a / b : null;
}

/** The header half of the check; null when the header is in the format. */
function headerMismatch(h: ClipFormatHeader): string | null {
  if (h.demuxer !== 'mov') return `container ${h.demuxer}, not MP4`;
  if (h.codec_name !== 'h264') return `codec ${h.codec_name}`;
  if (h.codec_tag_string !== 'avc1') return `sample entry ${h.codec_tag_string}, not avc1`;
  if (!PROFILES.has(h.profile ?? '')) return `profile ${h.profile}`;
  if (!PIXEL_FORMATS.has(h.pix_fmt ?? '')) return `pixel format ${h.pix_fmt}`;
  const landscape = renditionSize(RENDITIONS.high, false);
  const portrait = renditionSize(RENDITIONS.high, true);
  const size = `${h.width}x${h.height}`;
  if (size !== `${landscape.width}x${landscape.height}` && size !== `${portrait.width}x${portrait.height}`)
    return `size ${size}`;
  if (h.rotation !== 0) return `display rotation ${h.rotation}`;
  if (h.sample_aspect_ratio && h.sample_aspect_ratio !== '1:1' && h.sample_aspect_ratio !== '0:1')
    return `sample aspect ratio ${h.sample_aspect_ratio}`;
  if (h.field_order && h.field_order !== 'progressive' && h.field_order !== 'unknown')
    return `field order ${h.field_order}`;
  if (h.has_b_frames !== 0) return `has_b_frames ${h.has_b_frames}`;
  for (const fps of [h.r_frame_rate, h.avg_frame_rate]) {
    const r = rate(fps);
    if (r === null || Math.abs(r - CLIP_FPS) > CLIP_FPS * 1e-3) return `frame rate ${fps}`;
  }
  if (!SDR_TRANSFERS.has(h.color_transfer) || !BT709.has(h.color_primaries) || !BT709.has(h.color_space))
    return `colour ${h.color_primaries}/${h.color_transfer}/${h.color_space}`;
  return null;
}

/**
 * The packet half of the check, fed ffprobe's video packets in file (decode) order as the probe reads them; `verdict`
 * then combines it with the header's.
 */
export class ClipFormatScan {
  #count = 0;
  #first = 0;
  #clipBytes = 0;
  #mismatch: string | null = null;

  /** One packet: its presentation time (seconds, null when absent), key flag and size in bytes. */
  packet(pts: number | null, key: boolean, bytes: number): void {
    if (this.#mismatch) return;
    const k = this.#count++;
    if (pts === null) {
      this.#mismatch = `packet ${k} has no timestamp`;
      return;
    }
    if (k === 0) this.#first = pts;
    // On the grid, in decode order: constant rate, nothing missing or doubled, nothing reordered (no B-frames).
    if (Math.abs(pts - this.#first - k / CLIP_FPS) > GRID_TOLERANCE_SECONDS) {
      this.#mismatch = `packet ${k} at ${(pts - this.#first).toFixed(4)} s, not ${(k / CLIP_FPS).toFixed(4)} s`;
      return;
    }
    if (k % KEYFRAME_INTERVAL === 0 && !key) {
      this.#mismatch = `frame ${k} is not a keyframe`;
      return;
    }
    if (k % CLIP_FRAMES === 0) this.#clipBytes = 0;
    this.#clipBytes += bytes;
    if (this.#clipBytes > MAX_CLIP_BYTES)
      this.#mismatch = `clip ${Math.floor(k / CLIP_FRAMES)} over ${Math.round(MAX_CLIP_BYTES / 1000)} KB`;
  }

  /** The verdict once every packet went in (`partial`: the file is cut off, so its end cannot be trusted). */
  verdict(header: ClipFormatHeader, o: { partial: boolean; stoppedAtLimit: boolean }): ClipFormatVerdict {
    const h = headerMismatch(header);
    if (h) return no(h);
    if (o.partial || o.stoppedAtLimit) return no('the packets were not read to a whole file');
    if (this.#count === 0) return no('no packets');
    if (this.#mismatch) return no(this.#mismatch);
    return { copy: true, why: `${this.#count} frames in the clip format` };
  }
}
