/**
 * Following a detected face to the next sample without the detector (blur-faces.ts step 1; the detection thread uses
 * it): the face's luma patch, averaged down to a TEMPLATE x TEMPLATE grid, is looked for in a window of SEARCH face
 * sizes around where it was, by normalised cross-correlation (brightness and contrast changes do not count). About a
 * millisecond a face at 720p, against some 45 ms for BlazeFace on the frame's two tiles.
 *
 * A match below TRACK_MIN_SCORE (the face turned, was covered, grew or shrank much, or left) loses the face; the caller
 * then runs the detector on that sample.
 */
import type { Rect } from './face-detect.js';

/** Cells across a face's template. */
const TEMPLATE = 16;
/** The search reaches this many face sizes from the face's last place, each way. */
const SEARCH = 2;
/** Normalised cross-correlation a match needs (1: the same pattern). */
export const TRACK_MIN_SCORE = 0.8;

export interface FaceTemplate {
  face: Rect;
  /** TEMPLATE² cell means, with their mean removed. */
  cells: Float32Array;
  /** Their root sum of squares. */
  norm: number;
}

/** Mean of the luma under each cell of a `cols` x `rows` grid of `cell`-pixel cells from (x0, y0), clamped to the frame. */
function grid(
  luma: Uint8Array,
  width: number,
  height: number,
  x0: number,
  y0: number,
  cell: number,
  cols: number,
  rows: number,
): Float32Array {
  const out = new Float32Array(cols * rows);
  const step = Math.max(1, Math.floor(cell / 3));
  for (let gy = 0; gy < rows; gy++) {
    for (let gx = 0; gx < cols; gx++) {
      let sum = 0;
      let n = 0;
      for (let dy = 0; dy < cell; dy += step) {
        const y = Math.min(height - 1, Math.max(0, Math.floor(y0 + gy * cell + dy)));
        const row = y * width;
        for (let dx = 0; dx < cell; dx += step) {
          sum += luma[row + Math.min(width - 1, Math.max(0, Math.floor(x0 + gx * cell + dx)))]!;
          n++;
        }
      }
      out[gy * cols + gx] = sum / n;
    }
  }
  return out;
}

/** The template of a face found in a frame (its luma plane: the first width x height bytes of a yuv420p frame). */
export function faceTemplate(luma: Uint8Array, width: number, height: number, face: Rect): FaceTemplate {
  const cell = Math.max(face.width, face.height) / TEMPLATE;
  const cells = grid(luma, width, height, face.x, face.y, cell, TEMPLATE, TEMPLATE);
  let mean = 0;
  for (const v of cells) mean += v;
  mean /= cells.length;
  let sq = 0;
  for (let i = 0; i < cells.length; i++) {
    cells[i]! -= mean;
    sq += cells[i]! * cells[i]!;
  }
  return { face, cells, norm: Math.sqrt(sq) };
}

/**
 * Where the template's face is in `luma` (same size of frame), within SEARCH face sizes of its last place: the box
 * (same size) and how well it matches (normalised cross-correlation, -1..1). A flat template (no pattern to follow)
 * matches nothing.
 */
export function trackFace(
  t: FaceTemplate,
  luma: Uint8Array,
  width: number,
  height: number,
): { face: Rect; score: number } {
  const cell = Math.max(t.face.width, t.face.height) / TEMPLATE;
  const reach = SEARCH * TEMPLATE;
  const span = TEMPLATE + 2 * reach;
  const x0 = t.face.x - reach * cell;
  const y0 = t.face.y - reach * cell;
  const area = grid(luma, width, height, x0, y0, cell, span, span);
  let best = { score: -1, ox: reach, oy: reach };
  if (t.norm < 1e-3) return { face: t.face, score: -1 };
  const n = TEMPLATE * TEMPLATE;
  for (let oy = 0; oy <= 2 * reach; oy++) {
    for (let ox = 0; ox <= 2 * reach; ox++) {
      let sum = 0;
      let sumSq = 0;
      let dot = 0;
      for (let gy = 0; gy < TEMPLATE; gy++) {
        const row = (oy + gy) * span + ox;
        const trow = gy * TEMPLATE;
        for (let gx = 0; gx < TEMPLATE; gx++) {
          const v = area[row + gx]!;
          sum += v;
          sumSq += v * v;
          dot += v * t.cells[trow + gx]!;
        }
      }
      // The template's cells sum to zero, so the window's mean drops out of the dot product.
      const varSum = sumSq - (sum * sum) / n;
      if (varSum <= 1e-6) continue;
      const score = dot / (t.norm * Math.sqrt(varSum));
      if (score > best.score) best = { score, ox, oy };
    }
  }
  return {
    face: { ...t.face, x: x0 + best.ox * cell, y: y0 + best.oy * cell },
    score: best.score,
  };
}
