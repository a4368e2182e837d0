/**
 * Face detection on raw yuv420p frames (the privacy blur's step 1, see blur-faces.ts): a downscaled RGB copy straight
 * from the frame, then BlazeFace. Kept apart from blur-faces.ts (no sharp) because it also runs inside the detection
 * thread (face-detect-worker.ts).
 */
import { detectFaces, type FaceBox } from './faces.js';

/**
 * Confidence needed to blur. It was 0.35 (a missed face costs more than a blurred poster), which blurred fractals,
 * cellular patterns and printed letters in a third of the face-free frames; at 0.5 with plausibleFace and the
 * confirmation rule (CONFIRM_SCORE) the privacy bench still hides every face (media/README.md, "False positives").
 */
export const BLUR_MIN_SCORE = 0.5;
/**
 * A face found at one sample only, not at the sample before or after it, is blurred only from this score up: textures
 * (fractals, cellular patterns, printed letters) give BlazeFace flickering detections that real faces, which stay
 * in the picture, do not (privacy bench and face-free footage, media/README.md).
 */
export const CONFIRM_SCORE = 0.8;
/**
 * The largest plausible face box (BlazeFace's brow-to-chin box) as a share of the frame's short side: a face filling
 * more is a person standing closer than the phone can focus in a walkthrough; the boxes the issue saw (texture
 * detections grown to ~60 % of the frame) were all above it.
 */
export const MAX_FACE_SHARE = 0.3;
/** The largest box ever blurred (grown, with motion), as a share of the frame's short side. */
export const MAX_BOX_SHARE = 0.6;
/** Short side of the copy the detector sees (the 360p rendition's). */
const DETECT_SHORT_SIDE = 360;

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
  score?: number;
}

/**
 * Is this detection shaped like a face? Its box is about square and not larger than MAX_FACE_SHARE of the frame's
 * short side, and its keypoints sit where a face's do: eyes about 0.35–0.6 of the box apart and roughly level, the
 * nose below them and the mouth below the nose (bounds from the real faces of the privacy bench, with margin: their
 * eye distance was 0.41–0.51 of the box, nose 0.2–0.65 and mouth 0.7–1.1 eye distances below the eyes). Without
 * keypoints only size and shape count.
 */
export function plausibleFace(b: FaceBox, width: number, height: number): boolean {
  const side = Math.max(b.width, b.height);
  if (side > MAX_FACE_SHARE * Math.min(width, height)) return false;
  if (b.width > 1.4 * b.height || b.height > 1.4 * b.width) return false;
  if (!b.keypoints) return true;
  const [re, le, nose, mouth] = b.keypoints as Array<[number, number]>;
  const eye = Math.hypot(le![0] - re![0], le![1] - re![1]);
  if (eye < 0.33 * b.width || eye > 0.62 * b.width) return false;
  const mx = (le![0] + re![0]) / 2;
  const my = (le![1] + re![1]) / 2;
  const noseDown = (nose![1] - my) / eye;
  const mouthDown = (mouth![1] - my) / eye;
  return (
    Math.abs(le![1] - re![1]) <= 0.8 * eye &&
    noseDown >= 0.05 &&
    noseDown <= 0.85 &&
    mouthDown >= 0.55 &&
    mouthDown <= 1.3 &&
    mouthDown - noseDown >= 0.2 &&
    Math.abs(nose![0] - mx) <= 0.8 * eye
  );
}

/** A packed RGB copy of a yuv420p frame, `k` times smaller (k x k luma average, BT.709 limited range). */
function yuv420ToRgb(
  frame: Uint8Array,
  width: number,
  height: number,
  k: number,
): { rgb: Uint8Array; width: number; height: number } {
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
        for (let j = 0, row = row0 + x * k; j < k; j++, row += width)
          for (let i = 0; i < k; i++) sum += frame[row + i]!;
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
 * Plausible faces (plausibleFace; frame pixels, not grown, with their score) in one yuv420p frame, detected on a copy
 * of about DETECT_SHORT_SIDE px (tiles), or with `letterbox` in one run on the whole frame (see detectFaces).
 */
export async function detectFacesInYuv420(
  frame: Uint8Array,
  width: number,
  height: number,
  letterbox = false,
): Promise<Rect[]> {
  const k = Math.max(1, Math.round(Math.min(width, height) / DETECT_SHORT_SIDE));
  const small = yuv420ToRgb(frame, width, height, k);
  const faces = await detectFaces(small.rgb, small.width, small.height, BLUR_MIN_SCORE, { letterbox });
  return faces
    .filter((b) => plausibleFace(b, small.width, small.height))
    .map((b) => ({ x: b.x * k, y: b.y * k, width: b.width * k, height: b.height * k, score: b.score }));
}
