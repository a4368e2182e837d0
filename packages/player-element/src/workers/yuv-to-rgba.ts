/**
 * Packed I420 to RGBA in script: the paint path of browsers whose `VideoFrame.copyTo` cannot convert to RGBA
 * (WebKitGTK 2.50 copies I420 whatever format is asked). Those browsers would otherwise draw the VideoFrame itself
 * (`drawImage`, `createImageBitmap`), and WebKitGTK's conversion for that is one object shared by every thread of the
 * web process: two workers converting at once crash it (test/README.md, "WebKitGTK's crash"). Pure: no DOM, no worker.
 *
 * The frame's colour space is honoured (matrix BT.709, BT.601 or BT.2020; limited or full range), as the browsers'
 * own conversion does; without one, BT.709 limited range, the WebCodecs default for YUV.
 */

/** Only the fields read here (VideoColorSpaceInit's matrix and range), so Node's tests need no DOM types. */
export interface YuvColourSpace {
  matrix?: string | null;
  fullRange?: boolean | null;
}

/** 0..255 for any fixed-point result from -CLAMP_AT to 1023 - CLAMP_AT (the sums stay within -300..560). */
const CLAMP_AT = 384;
const CLAMP = Uint8Array.from({ length: 1024 }, (_, i) => Math.max(0, Math.min(255, i - CLAMP_AT)));

/** Luma weights (Kr, Kb) by matrix. */
const WEIGHTS: Record<string, [number, number]> = {
  bt709: [0.2126, 0.0722],
  bt470bg: [0.299, 0.114],
  smpte170m: [0.299, 0.114],
  'bt2020-ncl': [0.2627, 0.0593],
};

/** A matrix's luma weights (Kr, Kb); BT.709's for an unknown or missing matrix. */
export function lumaWeights(matrix: string | null | undefined): [number, number] {
  return WEIGHTS[matrix ?? ''] ?? WEIGHTS.bt709!;
}

/** Fixed-point (16.16) coefficients of the conversion for a colour space (yuv-wasm.ts uses the same). */
export function coefficients(cs: YuvColourSpace | undefined) {
  const [kr, kb] = lumaWeights(cs?.matrix);
  const kg = 1 - kr - kb;
  const full = cs?.fullRange === true;
  const ys = full ? 1 : 255 / 219;
  const cs_ = full ? 1 : 255 / 224;
  const one = 1 << 16;
  return {
    yOffset: full ? 0 : 16,
    y: Math.round(ys * one),
    rv: Math.round(2 * (1 - kr) * cs_ * one),
    gu: Math.round(((2 * kb * (1 - kb)) / kg) * cs_ * one),
    gv: Math.round(((2 * kr * (1 - kr)) / kg) * cs_ * one),
    bu: Math.round(2 * (1 - kb) * cs_ * one),
  };
}

/**
 * Checks a conversion's buffers before anything is written (`width` x `height` I420 in, `outWidth` x `outHeight` RGBA
 * out) and gives the chroma planes' width and offsets (yuv-wasm.ts checks the same way).
 */
export function planes(
  src: Uint8Array,
  width: number,
  height: number,
  out: Uint8ClampedArray,
  outWidth: number,
  outHeight: number,
) {
  if (out.byteOffset % 4) throw new RangeError('RGBA output must start on a 4-byte boundary');
  const need = width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
  if (src.length < need) throw new RangeError(`I420 ${width}x${height} needs ${need} bytes, got ${src.length}`);
  if (out.length < outWidth * outHeight * 4)
    throw new RangeError(`RGBA ${outWidth}x${outHeight} needs ${outWidth * outHeight * 4} bytes, got ${out.length}`);
  const cw = Math.ceil(width / 2);
  const uPlane = width * height;
  return { cw, uPlane, vPlane: uPlane + cw * Math.ceil(height / 2) };
}

/**
 * Converts `width` x `height` packed I420 (Y, then U, then V; chroma planes ceil(width/2) x ceil(height/2)) into
 * `out` (width * height * 4 bytes, opaque RGBA). Chroma is taken at its own sample for each 2x2 block, as libyuv does.
 */
export function i420ToRGBA(
  src: Uint8Array,
  width: number,
  height: number,
  colourSpace: YuvColourSpace | undefined,
  out: Uint8ClampedArray,
): void {
  const { cw, uPlane, vPlane } = planes(src, width, height, out, width, height);
  const { yOffset, y: ky, rv, gu, gv, bu } = coefficients(colourSpace);
  const half = 1 << 15;
  const at = CLAMP_AT;
  // One 32-bit store a pixel (little-endian: R in the low byte, as frame-formats.ts assumes), clamped by table, the
  // chroma terms worked out once a pair of pixels: about 40 % faster than four clamped byte stores a pixel.
  const px = new Uint32Array(out.buffer, out.byteOffset, width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const chroma = (y >> 1) * cw;
    for (let x = 0; x < width; x += 2) {
      const c = chroma + (x >> 1);
      const u = src[uPlane + c]! - 128;
      const v = src[vPlane + c]! - 128;
      const r = rv * v + half;
      const g = half - gu * u - gv * v;
      const b = bu * u + half;
      let l = (src[row + x]! - yOffset) * ky;
      px[row + x] =
        (0xff000000 |
          (CLAMP[((l + b) >> 16) + at]! << 16) |
          (CLAMP[((l + g) >> 16) + at]! << 8) |
          CLAMP[((l + r) >> 16) + at]!) >>>
        0;
      if (x + 1 === width) break;
      l = (src[row + x + 1]! - yOffset) * ky;
      px[row + x + 1] =
        (0xff000000 |
          (CLAMP[((l + b) >> 16) + at]! << 16) |
          (CLAMP[((l + g) >> 16) + at]! << 8) |
          CLAMP[((l + r) >> 16) + at]!) >>>
        0;
    }
  }
}

/**
 * Converts `width` x `height` packed I420 straight into a smaller `outWidth` x `outHeight` RGBA picture: luma is
 * sampled bilinearly at each output pixel's centre (as a canvas scales with smoothing on), chroma at its block. Where
 * the browser cannot convert (WebKitGTK), converting the whole 720p frame and then scaling it on a canvas took about
 * 35 ms a bitmap in the paint worker, which capped the canvas near 30 frames a second; at the canvas's size the
 * conversion is a quarter of the work and there is no scaling. Sizes at least the frame's go through i420ToRGBA.
 */
export function i420ToRGBAScaled(
  src: Uint8Array,
  width: number,
  height: number,
  colourSpace: YuvColourSpace | undefined,
  out: Uint8ClampedArray,
  outWidth: number,
  outHeight: number,
): void {
  if (outWidth > width || outHeight > height) throw new RangeError('i420ToRGBAScaled only makes smaller pictures');
  const { cw, uPlane, vPlane } = planes(src, width, height, out, outWidth, outHeight);
  const { yOffset, y: ky, rv, gu, gv, bu } = coefficients(colourSpace);
  const half = 1 << 15;
  const at = CLAMP_AT;
  // Each output column's left luma sample, its right neighbour and the right one's weight (0..256).
  const x0 = new Int32Array(outWidth);
  const x1 = new Int32Array(outWidth);
  const wx = new Int32Array(outWidth);
  for (let x = 0; x < outWidth; x++) {
    const f = Math.max(0, ((x + 0.5) * width) / outWidth - 0.5);
    x0[x] = Math.min(width - 1, Math.floor(f));
    x1[x] = Math.min(width - 1, x0[x]! + 1);
    wx[x] = Math.round((f - Math.floor(f)) * 256);
  }
  const px = new Uint32Array(out.buffer, out.byteOffset, outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    const fy = Math.max(0, ((y + 0.5) * height) / outHeight - 0.5);
    const sy = Math.min(height - 1, Math.floor(fy));
    const wy = Math.round((fy - Math.floor(fy)) * 256);
    const top = sy * width;
    const bottom = Math.min(height - 1, sy + 1) * width;
    const chroma = (sy >> 1) * cw;
    const to = y * outWidth;
    for (let x = 0; x < outWidth; x++) {
      const a = x0[x]!;
      const b = x1[x]!;
      const w = wx[x]!;
      const upper = src[top + a]! * (256 - w) + src[top + b]! * w;
      const lower = src[bottom + a]! * (256 - w) + src[bottom + b]! * w;
      const luma = (upper * (256 - wy) + lower * wy + 32768) >> 16;
      const c = chroma + (a >> 1);
      const u = src[uPlane + c]! - 128;
      const v = src[vPlane + c]! - 128;
      const l = (luma - yOffset) * ky;
      px[to + x] =
        (0xff000000 |
          (CLAMP[((l + bu * u + half) >> 16) + at]! << 16) |
          (CLAMP[((l + half - gu * u - gv * v) >> 16) + at]! << 8) |
          CLAMP[((l + rv * v + half) >> 16) + at]!) >>>
        0;
    }
  }
}
