/// <reference lib="webworker" />
/**
 * Copies a decoded VideoFrame of any pixel format out into the one layout the player keeps: tightly packed I420.
 * Decoders choose the format, not us: software Chromium gives I420, Firefox BGRX, hardware decoders on phones NV12 or
 * GPU frames with no format at all.
 *
 * Every YUV format (I420 itself, I420A, I422/I444, NV12, their 10- and 12-bit variants) is repacked; RGB (the RGB
 * formats, and frames without a format, which the browser copies or draws as RGBA) is converted in WebAssembly SIMD
 * (yuv-wasm.ts `wasmRgbToI420`) where it runs and the shape suits it, else in script (rgb-to-i420.ts): the same bytes. 1.5 bytes a pixel, where RGBA takes 4: the frame cache holds 2.7 times more frames, which is what
 * backward scrubbing needs (a clip decodes from its keyframe forward, so going back the whole clip must fit). The
 * conversion costs about twice the byte swap of BGRX to RGBA it replaces (2.0 against 1.0 ms a 720p frame in V8), and
 * the paint worker's conversion back to RGB is the browser's own. Alpha is dropped: a tour is opaque.
 */
import { fullRangeReadBack, fullRangeSpace, I420_FROM_RGB, rgbToI420 } from './rgb-to-i420.js';
import { mark } from './timeline.js';
import { wasmRgbToI420 } from './rgb-wasm.js';

/** What the decode worker keeps of a frame: its pixels, their layout and the colour space YUV is to be read in. */
export interface FramePixels {
  format: StoredFormat;
  width: number;
  height: number;
  /** Y plane then U then V (chroma planes ceil(width/2) x ceil(height/2)). */
  data: ArrayBuffer;
  colorSpace?: VideoColorSpaceInit;
}
export type StoredFormat = 'I420';

/** Planar YUV formats: chroma subsampling (horizontal, vertical) and bits per sample (an alpha plane is dropped). */
interface Planar {
  sx: number;
  sy: number;
  bits: number;
}

/** Bytes of a frame kept as packed I420 at this size. */
const storedBytes = (width: number, height: number): number =>
  width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);

/** The I420 planes' layout in a buffer of storedBytes('I420', ...). */
function i420Layout(width: number, height: number): PlaneLayout[] {
  const cw = Math.ceil(width / 2);
  const chroma = cw * Math.ceil(height / 2);
  return [
    { offset: 0, stride: width },
    { offset: width * height, stride: cw },
    { offset: width * height + chroma, stride: cw },
  ];
}

/** The visible picture of a frame: where it is in the coded one and its size. */
type Box = { x: number; y: number; width: number; height: number };

/**
 * How one pixel format's frame becomes packed I420: copied straight (I420), as planar YUV of a subsampling and depth
 * (repacked), as NV12 (its interleaved chroma split), or as 4 bytes a pixel (`bgr`: blue first; converted in script).
 */
type FormatRow = { copy: 'i420' } | ({ copy: 'planar' } & Planar) | { copy: 'nv12' } | { copy: 'rgb'; bgr: boolean };

/**
 * Every pixel format the player copies out, and how: a format a decoder starts handing out is a row here (and a row of
 * FORMATS in frame-formats.test.ts, which builds a frame of it from known pixels and checks its colours on the
 * canvas). A frame of a format without a row, or without a format (a GPU frame), goes to the browser's own conversion
 * (unformatted). Plain data, so a bundle that never copies a frame (the paint worker) leaves it out.
 */
const PIXEL_FORMATS: Readonly<Record<string, FormatRow>> = {
  I420: { copy: 'i420' },
  I420A: { copy: 'planar', sx: 2, sy: 2, bits: 8 },
  I420P10: { copy: 'planar', sx: 2, sy: 2, bits: 10 },
  I420P12: { copy: 'planar', sx: 2, sy: 2, bits: 12 },
  I420AP10: { copy: 'planar', sx: 2, sy: 2, bits: 10 },
  I420AP12: { copy: 'planar', sx: 2, sy: 2, bits: 12 },
  I422: { copy: 'planar', sx: 2, sy: 1, bits: 8 },
  I422A: { copy: 'planar', sx: 2, sy: 1, bits: 8 },
  I422P10: { copy: 'planar', sx: 2, sy: 1, bits: 10 },
  I422P12: { copy: 'planar', sx: 2, sy: 1, bits: 12 },
  I422AP10: { copy: 'planar', sx: 2, sy: 1, bits: 10 },
  I422AP12: { copy: 'planar', sx: 2, sy: 1, bits: 12 },
  I444: { copy: 'planar', sx: 1, sy: 1, bits: 8 },
  I444A: { copy: 'planar', sx: 1, sy: 1, bits: 8 },
  I444P10: { copy: 'planar', sx: 1, sy: 1, bits: 10 },
  I444P12: { copy: 'planar', sx: 1, sy: 1, bits: 12 },
  I444AP10: { copy: 'planar', sx: 1, sy: 1, bits: 10 },
  I444AP12: { copy: 'planar', sx: 1, sy: 1, bits: 12 },
  NV12: { copy: 'nv12' },
  RGBA: { copy: 'rgb', bgr: false },
  RGBX: { copy: 'rgb', bgr: false },
  BGRA: { copy: 'rgb', bgr: true },
  BGRX: { copy: 'rgb', bgr: true },
};

/**
 * Copies `frame`'s visible picture into the player's layout (the frame stays open: the caller closes it).
 * `fullRange`: the stream's SPS says full range (full-range.ts), whatever the frame reports: YUV is then read as full
 * range, and RGB the engine converted as limited range (Firefox ESR) is converted back to the stream's samples.
 */
export async function copyFrame(frame: VideoFrame, fullRange = false): Promise<FramePixels> {
  const rect = frame.visibleRect ?? { x: 0, y: 0, width: frame.codedWidth, height: frame.codedHeight };
  const box = { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
  const format = frame.format;
  const row = format && Object.hasOwn(PIXEL_FORMATS, format) ? PIXEL_FORMATS[format]! : undefined;
  if (!row) return unformatted(frame, box);
  const { width, height } = box;
  switch (row.copy) {
    case 'i420': {
      // The common case (software decoders): straight into the packed planes.
      const data = new ArrayBuffer(storedBytes(width, height));
      await frame.copyTo(data, { rect: box, layout: i420Layout(width, height) });
      return yuvPixels(frame, box, data, fullRange);
    }
    case 'planar':
    case 'nv12': {
      const src = new ArrayBuffer(frame.allocationSize({ rect: box }));
      const layout = await frame.copyTo(src, { rect: box });
      const data =
        row.copy === 'planar' ? planarToI420(src, layout, row, width, height) : nv12ToI420(src, layout, width, height);
      return yuvPixels(frame, box, data, fullRange);
    }
    case 'rgb': {
      // A buffer per frame: copies of several frames are in flight at once (copy-out.ts).
      const rgba = new ArrayBuffer(width * height * 4);
      try {
        await frame.copyTo(rgba, { rect: box, layout: [{ offset: 0, stride: width * 4 }] });
      } catch (e) {
        // WebKitGTK 2.50 copies no RGBX / BGRX frame out (every copyTo throws "Unable to copy data"), and drawing one
        // would go through its shared converter (unformatted): the decoder fails and the tour plays through <video>.
        throw new Error(`cannot copy ${format} frames out in this browser (${(e as Error).message})`);
      }
      // Full-range samples the engine converted as limited range (Firefox ESR): its conversion is undone, giving back
      // the stream's own samples, kept as the full range they are (full-range.ts says how the range is known).
      if (fullRange && frame.colorSpace?.fullRange !== true)
        return rgbPixels(rgba, box, row.bgr, frame.colorSpace?.toJSON?.() ?? {});
      return rgbPixels(rgba, box, row.bgr);
    }
  }
}

/** Packed I420 of a YUV frame, in the frame's own colour space (full range when the stream says so). */
function yuvPixels(frame: VideoFrame, box: Box, data: ArrayBuffer, fullRange: boolean): FramePixels {
  const own = frame.colorSpace?.toJSON?.();
  const colorSpace = fullRange && own?.fullRange !== true ? { ...own, fullRange: true } : own;
  return { format: 'I420', width: box.width, height: box.height, data, ...(colorSpace ? { colorSpace } : {}) };
}

/**
 * Packed I420 of RGBA (or BGRA) pixels, in the colour space rgb-to-i420.ts converts to; with `readBack` (the frame's
 * own colour space), of RGB the engine converted from full-range samples as limited range, back to those samples.
 */
function rgbPixels(rgba: ArrayBuffer, box: Box, bgr: boolean, readBack?: VideoColorSpaceInit): FramePixels {
  const data = new Uint8Array(storedBytes(box.width, box.height));
  const matrix = readBack?.matrix;
  const options = readBack ? fullRangeReadBack(matrix) : undefined;
  // In WebAssembly SIMD where it runs (Firefox's every frame: 1280x720 in 1.6 against 3.8 ms, bench/convert.mjs), else
  // in script.
  if (wasmRgbToI420(rgba, box.width, box.height, bgr, data, options)) mark('i420 in wasm');
  else rgbToI420(rgba, box.width, box.height, bgr, data, options);
  const colorSpace = readBack ? fullRangeSpace(readBack, matrix) : { ...I420_FROM_RGB };
  return { format: 'I420', width: box.width, height: box.height, data: data.buffer, colorSpace };
}

/**
 * No format (a GPU frame) or one without a row: the browser converts it, or copies it as I420, or draws it; never
 * drawn where the browser does not convert (WebKit).
 */
async function unformatted(frame: VideoFrame, box: Box): Promise<FramePixels> {
  const direct = await unformattedToI420(frame, box);
  if (direct) return direct;
  if (!copyConverts()) throw new Error(`cannot copy frames of format ${frame.format ?? 'none'} out in this browser`);
  const rgba = await convertedToRGBA(frame, box).catch(() => drawnToRGBA(frame, box.width, box.height));
  return rgbPixels(rgba, box, false);
}

let converts: boolean | undefined;

/**
 * Whether this browser's copyTo converts YUV to RGBA (asked once: a 2x2 I420 frame's RGBA allocation is 16 bytes).
 * Chromium and Firefox convert; WebKitGTK ignores the format asked for and copies the frame's own planes. Where it
 * does not convert, the browser's drawing of VideoFrames is WebKitGTK's converter shared by its whole web process,
 * which crashed it when two workers drew at once (test/README.md): frames are never drawn there.
 */
function copyConverts(): boolean {
  if (converts !== undefined) return converts;
  const probe = new VideoFrame(new Uint8Array(6), { format: 'I420', codedWidth: 2, codedHeight: 2, timestamp: 0 });
  try {
    converts = probe.allocationSize({ format: 'RGBA' }) === 16;
  } catch {
    converts = false;
  } finally {
    probe.close();
  }
  return converts;
}

/**
 * A frame without a format as packed I420, where the browser converts to RGBA or copies I420 when asked: undefined when
 * it does neither (then RGBA, converted or drawn, below).
 */
async function unformattedToI420(frame: VideoFrame, rect: DOMRectInit): Promise<FramePixels | undefined> {
  const width = rect.width!;
  const height = rect.height!;
  const colorSpace = frame.colorSpace?.toJSON?.();
  try {
    if (copyConverts()) {
      if (frame.allocationSize({ rect, format: 'RGBA' }) !== width * height * 4) return undefined;
      const rgba = await convertedToRGBA(frame, rect);
      const data = new Uint8Array(storedBytes(width, height));
      rgbToI420(rgba, width, height, false, data);
      return { format: 'I420', width, height, data: data.buffer, colorSpace: { ...I420_FROM_RGB } };
    }
    // The browser copies the frame's own planes whatever format is asked for (WebKit): I420 when they are I420.
    const options = { rect, format: 'I420' as VideoPixelFormat, layout: i420Layout(width, height) };
    if (frame.allocationSize(options) !== storedBytes(width, height)) return undefined;
    const data = new ArrayBuffer(storedBytes(width, height));
    await frame.copyTo(data, options);
    return { format: 'I420', width, height, data, ...(colorSpace ? { colorSpace } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * RGBA by the browser's own copyTo conversion (WebCodecs allows a destination format even where the frame has none).
 */
async function convertedToRGBA(frame: VideoFrame, rect: DOMRectInit): Promise<ArrayBuffer> {
  const width = rect.width!;
  const height = rect.height!;
  const options = { rect, format: 'RGBA' as const, layout: [{ offset: 0, stride: width * 4 }] };
  const data = new ArrayBuffer(width * height * 4);
  await frame.copyTo(data, options);
  return data;
}

/** RGBA by drawing the frame's visible picture on a canvas: always possible, the slowest way. */
export function drawnToRGBA(frame: VideoFrame, width: number, height: number): ArrayBuffer {
  const ctx = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(frame, 0, 0, width, height);
  return ctx.getImageData(0, 0, width, height).data.buffer as ArrayBuffer;
}

/** Planar YUV of any subsampling and depth to packed 8-bit I420 (chroma sampled at each 2x2 block's top left). */
function planarToI420(src: ArrayBuffer, layout: PlaneLayout[], f: Planar, width: number, height: number): ArrayBuffer {
  const out = new Uint8Array(storedBytes(width, height));
  const dst = i420Layout(width, height);
  const wide = f.bits > 8;
  const shift = f.bits - 8;
  const half = shift ? 1 << (shift - 1) : 0;
  const samples = wide ? new Uint16Array(src) : new Uint8Array(src);
  const unit = wide ? 2 : 1;
  const cw = Math.ceil(width / 2);
  const ch = Math.ceil(height / 2);
  for (let p = 0; p < 3; p++) {
    const { offset, stride } = layout[p]!;
    const w = p ? cw : width;
    const h = p ? ch : height;
    // Source position of output sample (x, y): luma 1:1; chroma at (2x / sx, 2y / sy).
    const kx = p ? 2 / f.sx : 1;
    const ky = p ? 2 / f.sy : 1;
    const o = dst[p]!.offset;
    for (let y = 0; y < h; y++) {
      const row = (offset + y * ky * stride) / unit;
      const to = o + y * w;
      if (!wide && kx === 1) {
        out.set(samples.subarray(row, row + w), to);
        continue;
      }
      for (let x = 0; x < w; x++) out[to + x] = Math.min(255, (samples[row + x * kx]! + half) >> shift);
    }
  }
  return out.buffer;
}

/** NV12 (a Y plane, then U and V interleaved) to packed I420. */
function nv12ToI420(src: ArrayBuffer, layout: PlaneLayout[], width: number, height: number): ArrayBuffer {
  const out = new Uint8Array(storedBytes(width, height));
  const [u, v] = i420Layout(width, height).slice(1) as [PlaneLayout, PlaneLayout];
  const bytes = new Uint8Array(src);
  const y0 = layout[0]!;
  for (let y = 0; y < height; y++)
    out.set(bytes.subarray(y0.offset + y * y0.stride, y0.offset + y * y0.stride + width), y * width);
  const uv = layout[1]!;
  const cw = Math.ceil(width / 2);
  for (let y = 0; y < Math.ceil(height / 2); y++) {
    const row = uv.offset + y * uv.stride;
    for (let x = 0; x < cw; x++) {
      out[u.offset + y * cw + x] = bytes[row + 2 * x]!;
      out[v.offset + y * cw + x] = bytes[row + 2 * x + 1]!;
    }
  }
  return out.buffer;
}
