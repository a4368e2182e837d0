/**
 * 32-bit RGB pixels (RGBA, RGBX, BGRA, BGRX) to packed I420, in script: what the decode worker keeps of a frame a
 * decoder hands out as RGB (Firefox's decoder gives BGRX; GPU frames on phones come out of the browser's own copy as
 * RGBA). Kept as RGB they take 4 bytes a pixel against I420's 1.5, so the frame cache held 42 frames of the bench's tour
 * in Firefox against 114 in Chromium: less than a clip and a half, too few to scrub backward (each clip decodes from
 * its keyframe forward). Pure: no DOM, no worker.
 *
 * BT.601, limited range by default (the colour space the result says it is in, `I420_FROM_RGB`); chroma is the mean of
 * each 2x2 block (the right and bottom edges of odd sizes use the pixels there are). BT.601 rather than BT.709 because
 * every engine's conversion back honours it (test frame-formats.test.ts): Chromium's copyTo painted BT.709-tagged I420
 * made this way 7-9 levels off in blue. The one other conversion, `fullRangeReadBack`, undoes an engine's own (Firefox's
 * limited-range reading of full-range clips, whose RGB then never goes through a second correction pass).
 */

import { lumaWeights } from './yuv-to-rgba.js';

/** The colour space of the I420 this module writes by default (BT.601): what the paint worker reads it in. */
export const I420_FROM_RGB = {
  matrix: 'smpte170m',
  primaries: 'smpte170m',
  transfer: 'smpte170m',
  fullRange: false,
} as const;

/** How to convert: the matrix's luma weights (Kr, Kb), and what each computed Y sample is written as. */
export interface RgbToI420Options {
  kr: number;
  kb: number;
  /** Y sample (0..255) → the value written; the identity unless a range is being read back. */
  luma: Uint8Array;
  /** `luma` written as bounds (WebAssembly, yuv-wasm.ts): Y at or under `lo` is written 0, at or over `hi` 255. */
  ends: { lo: number; hi: number };
}

/**
 * The conversion's 16.16 fixed-point coefficients: luma scaled to 219 levels and chroma to 224 (limited range); U and
 * V are taken of four pixels' sums, hence their >> 18. The script and WebAssembly conversions share them.
 */
export function rgbCoefficients({ kr, kb }: RgbToI420Options) {
  const kg = 1 - kr - kb;
  const one = 65536;
  const cu = (224 / 255 / (2 * (1 - kb))) * one;
  const cv = (224 / 255 / (2 * (1 - kr))) * one;
  return {
    YR: Math.round(kr * (219 / 255) * one),
    YG: Math.round(kg * (219 / 255) * one),
    YB: Math.round(kb * (219 / 255) * one),
    UR: Math.round(-kr * cu),
    UG: Math.round(-kg * cu),
    UB: Math.round((1 - kb) * cu),
    VR: Math.round((1 - kr) * cv),
    VG: Math.round(-kg * cv),
    VB: Math.round(-kb * cv),
  };
}

const IDENTITY = Uint8Array.from({ length: 256 }, (_, i) => i);

/** BT.601, limited range: the conversion `I420_FROM_RGB` names (the default of both conversions). */
export const BT601: RgbToI420Options = { kr: 0.299, kb: 0.114, luma: IDENTITY, ends: { lo: -1, hi: 256 } };

/**
 * RGB an engine converted from full-range samples as if they were limited range (Firefox ESR: BT.709, whatever the
 * stream says, full-range.ts), back to the stream's own samples: the engine's own limited-range conversion run
 * backwards, in its `matrix`; the result is full range in that matrix (`fullRangeSpace`). Samples the engine clipped
 * are lost (Y 0..16 all came as black, 235..255 as white): luma read as 16 or less is written 0 and as 235 or more 255,
 * so black and white stay black and white.
 */
export function fullRangeReadBack(matrix: string | null | undefined): RgbToI420Options {
  const [kr, kb] = lumaWeights(matrix);
  return { kr, kb, luma: ENDS_KEPT, ends: { lo: 16, hi: 235 } };
}

const ENDS_KEPT = Uint8Array.from({ length: 256 }, (_, i) => (i <= 16 ? 0 : i >= 235 ? 255 : i));

/** The colour space of what `fullRangeReadBack(matrix)` writes, for a frame whose own space is `own`. */
export function fullRangeSpace(own: VideoColorSpaceInit | undefined, matrix: string | null | undefined) {
  return { ...own, matrix: (matrix ?? 'bt709') as VideoMatrixCoefficients, fullRange: true };
}

/** Throws when `src` holds fewer than `width` x `height` pixels of 4 bytes or `out` cannot take their I420. */
export function checkSizes(src: ArrayBuffer, width: number, height: number, out: Uint8Array): void {
  if (src.byteLength < width * height * 4)
    throw new RangeError(`RGB ${width}x${height} needs ${width * height * 4} bytes`);
  if (out.length < width * height + 2 * ((width + 1) >> 1) * ((height + 1) >> 1))
    throw new RangeError(`I420 ${width}x${height} does not fit`);
}

/**
 * Converts `width` x `height` pixels of 4 bytes (`bgr`: blue in the first byte, else red; the fourth byte is ignored)
 * into `out`, packed I420 of that size (Y plane, then U, then V; chroma planes ceil(width/2) x ceil(height/2)).
 */
export function rgbToI420(
  src: ArrayBuffer,
  width: number,
  height: number,
  bgr: boolean,
  out: Uint8Array,
  options: RgbToI420Options = BT601,
): void {
  const cw = (width + 1) >> 1;
  const ch = (height + 1) >> 1;
  checkSizes(src, width, height, out);
  // Int32 words: a Uint32 word with the top bit set (an opaque pixel's 0xff) is a double to the JIT.
  const px = new Int32Array(src, 0, width * height);
  // Little-endian words: the first byte is the low one.
  const rShift = bgr ? 16 : 0;
  const bShift = bgr ? 0 : 16;
  const uBase = width * height;
  const vBase = uBase + cw * ch;
  const { luma } = options;
  const { YR, YG, YB, UR, UG, UB, VR, VG, VB } = rgbCoefficients(options);
  for (let cy = 0; cy < ch; cy++) {
    const y0 = cy * 2;
    const y1 = y0 + 1 < height ? y0 + 1 : y0;
    const row0 = y0 * width;
    const row1 = y1 * width;
    for (let cx = 0; cx < cw; cx++) {
      const x0 = cx * 2;
      const x1 = x0 + 1 < width ? x0 + 1 : x0;
      const a = px[row0 + x0]!;
      const b = px[row0 + x1]!;
      const c = px[row1 + x0]!;
      const d = px[row1 + x1]!;
      const ra = (a >>> rShift) & 255;
      const ga = (a >>> 8) & 255;
      const ba = (a >>> bShift) & 255;
      const rb = (b >>> rShift) & 255;
      const gb = (b >>> 8) & 255;
      const bb = (b >>> bShift) & 255;
      const rc = (c >>> rShift) & 255;
      const gc = (c >>> 8) & 255;
      const bc = (c >>> bShift) & 255;
      const rd = (d >>> rShift) & 255;
      const gd = (d >>> 8) & 255;
      const bd = (d >>> bShift) & 255;
      // Writing a duplicated edge pixel twice is harmless.
      out[row0 + x0] = luma[((YR * ra + YG * ga + YB * ba + 32768) >> 16) + 16]!;
      out[row0 + x1] = luma[((YR * rb + YG * gb + YB * bb + 32768) >> 16) + 16]!;
      out[row1 + x0] = luma[((YR * rc + YG * gc + YB * bc + 32768) >> 16) + 16]!;
      out[row1 + x1] = luma[((YR * rd + YG * gd + YB * bd + 32768) >> 16) + 16]!;
      const r = ra + rb + rc + rd;
      const g = ga + gb + gc + gd;
      const bl = ba + bb + bc + bd;
      const i = cy * cw + cx;
      out[uBase + i] = ((UR * r + UG * g + UB * bl + 131072) >> 18) + 128;
      out[vBase + i] = ((VR * r + VG * g + VB * bl + 131072) >> 18) + 128;
    }
  }
}
