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

/** Luma weights (Kr, Kb) by matrix. */
const WEIGHTS: Record<string, [number, number]> = {
  bt709: [0.2126, 0.0722],
  bt470bg: [0.299, 0.114],
  smpte170m: [0.299, 0.114],
  'bt2020-ncl': [0.2627, 0.0593],
};

/** Fixed-point (16.16) coefficients of the conversion for a colour space. */
function coefficients(cs: YuvColourSpace | undefined) {
  const [kr, kb] = WEIGHTS[cs?.matrix ?? ''] ?? WEIGHTS.bt709!;
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
  const need = width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
  if (src.length < need) throw new RangeError(`I420 ${width}x${height} needs ${need} bytes, got ${src.length}`);
  if (out.length < width * height * 4)
    throw new RangeError(`RGBA ${width}x${height} needs ${width * height * 4} bytes, got ${out.length}`);
  const k = coefficients(colourSpace);
  const cw = Math.ceil(width / 2);
  const uPlane = width * height;
  const vPlane = uPlane + cw * Math.ceil(height / 2);
  const half = 1 << 15;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const chroma = (y >> 1) * cw;
    let o = row * 4;
    for (let x = 0; x < width; x++) {
      const c = chroma + (x >> 1);
      const u = src[uPlane + c]! - 128;
      const v = src[vPlane + c]! - 128;
      const l = (src[row + x]! - k.yOffset) * k.y + half;
      // Uint8ClampedArray clamps to 0..255 on store.
      out[o] = (l + k.rv * v) >> 16;
      out[o + 1] = (l - k.gu * u - k.gv * v) >> 16;
      out[o + 2] = (l + k.bu * u) >> 16;
      out[o + 3] = 255;
      o += 4;
    }
  }
}
