/**
 * Face detection on raw yuv420p frames (the privacy blur's step 1, see blur-faces.ts): a downscaled RGB copy straight
 * from the frame, then BlazeFace. Kept apart from blur-faces.ts (no sharp) because it also runs inside the detection
 * thread (face-detect-worker.ts).
 */
import { detectFaces } from '../services/ai/faces.js';

/** Confidence needed to blur: lower than the detector's default, since a missed face costs more than a blurred poster. */
export const BLUR_MIN_SCORE = 0.35;
/** Short side of the copy the detector sees (the 360p rendition's). */
export const DETECT_SHORT_SIDE = 360;

export interface Rect { x: number; y: number; width: number; height: number }

/** A packed RGB copy of a yuv420p frame, `k` times smaller (k x k luma average, BT.709 limited range). */
export function yuv420ToRgb(frame: Uint8Array, width: number, height: number, k: number): { rgb: Uint8Array; width: number; height: number } {
  const dw = Math.floor(width / k);
  const dh = Math.floor(height / k);
  const cw = width >> 1;
  const uBase = width * height;
  const vBase = uBase + cw * (height >> 1);
  const out = new Uint8Array(dw * dh * 3);
  const scale = 1.164 / (k * k);
  const half = k >> 1;
  // Chroma column of each output column, computed once.
  const ccol = new Int32Array(dw);
  for (let x = 0; x < dw; x++) ccol[x] = (x * k + half) >> 1;
  let o = 0;
  for (let y = 0; y < dh; y++) {
    const crow = ((y * k + half) >> 1) * cw;
    const row0 = y * k * width;
    for (let x = 0; x < dw; x++) {
      let sum = 0;
      if (k === 2) {
        const p = row0 + 2 * x;
        sum = frame[p]! + frame[p + 1]! + frame[p + width]! + frame[p + width + 1]!;
      } else {
        for (let j = 0, row = row0 + x * k; j < k; j++, row += width) for (let i = 0; i < k; i++) sum += frame[row + i]!;
      }
      const c = crow + ccol[x]!;
      const Y = sum * scale - 18.624;
      const U = frame[uBase + c]! - 128;
      const V = frame[vBase + c]! - 128;
      // A Uint8Array wraps out-of-range values: clamp first.
      const r = Y + 1.793 * V;
      const g = Y - 0.213 * U - 0.533 * V;
      const bl = Y + 2.112 * U;
      out[o++] = r < 0 ? 0 : r > 255 ? 255 : r;
      out[o++] = g < 0 ? 0 : g > 255 ? 255 : g;
      out[o++] = bl < 0 ? 0 : bl > 255 ? 255 : bl;
    }
  }
  return { rgb: out, width: dw, height: dh };
}

/**
 * Faces (frame pixels, not grown) in one yuv420p frame, detected on a copy of about DETECT_SHORT_SIDE px (tiles), or
 * with `letterbox` in one run on the whole frame (see detectFaces).
 */
export async function detectFacesInYuv420(frame: Uint8Array, width: number, height: number, letterbox = false): Promise<Rect[]> {
  const k = Math.max(1, Math.round(Math.min(width, height) / DETECT_SHORT_SIDE));
  const small = yuv420ToRgb(frame, width, height, k);
  const faces = await detectFaces(small.rgb, small.width, small.height, BLUR_MIN_SCORE, { letterbox });
  return faces.map((b) => ({ x: b.x * k, y: b.y * k, width: b.width * k, height: b.height * k }));
}

