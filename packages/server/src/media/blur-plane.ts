/**
 * The blur itself (step 3 of blur-faces.ts): a strong low-pass inside each rectangle of a frame, reading only inside
 * it.
 */
import type { Rect } from './face-detect.js';

/**
 * Strong blur of one rectangle of an 8-bit plane (stride = row length), reading only pixels inside it. The box is
 * averaged down by a factor of about radius / 3, blurred there with three box-blur passes, and brought back with
 * bilinear interpolation: the same low-pass as blurring at full size, at a cost that does not grow with the radius
 * (big boxes in 1080x1920 reels).
 */
export function blurPlane(
  plane: Uint8Array,
  stride: number,
  r: Rect,
  radius = Math.max(3, Math.round(Math.min(r.width, r.height) / 4)),
): void {
  const { x, y, width: w, height: h } = r;
  if (w < 2 || h < 2) return;
  const f = Math.max(1, Math.floor(radius / 3));
  const sw = Math.ceil(w / f);
  const sh = Math.ceil(h / f);
  const buf = new Float32Array(sw * sh);
  // Big blocks are averaged from every other pixel of every other row: the same mean for a low-pass, a quarter of
  // the reads.
  // Offsets 0, 2, 4… inside each block, so a partial last block still has its first row and column.
  const step = f >= 4 ? 2 : 1;
  const sampled = (n: number) => Array.from({ length: n }, (_, i) => i).filter((i) => (i % f) % step === 0);
  const cols = Int32Array.from(sampled(w));
  const colBlock = cols.map((i) => (i / f) | 0);
  const perCol = new Float32Array(sw);
  const perRow = new Float32Array(sh);
  for (const b of colBlock) perCol[b]! += 1;
  const rows = sampled(h);
  for (const j of rows) perRow[(j / f) | 0]! += 1;
  for (const j of rows) {
    const row = (y + j) * stride + x;
    const srow = ((j / f) | 0) * sw;
    for (let c = 0; c < cols.length; c++) buf[srow + colBlock[c]!]! += plane[row + cols[c]!]!;
  }
  for (let bj = 0; bj < sh; bj++) {
    for (let bi = 0; bi < sw; bi++) buf[bj * sw + bi] = buf[bj * sw + bi]! / (perRow[bj]! * perCol[bi]!);
  }
  const tmp = new Float32Array(Math.max(sw, sh));
  const pass = (len: number, lines: number, at: (line: number, k: number) => number) => {
    const rad = Math.min(Math.max(1, Math.round(radius / f)), len - 1);
    if (rad < 1) return;
    for (let line = 0; line < lines; line++) {
      for (let k = 0; k < len; k++) tmp[k] = buf[at(line, k)]!;
      let sum = 0;
      // Edge pixels repeated: the window never reads outside the box (no unblurred neighbour leaks in).
      for (let k = -rad; k <= rad; k++) sum += tmp[Math.min(len - 1, Math.max(0, k))]!;
      for (let k = 0; k < len; k++) {
        buf[at(line, k)] = sum / (2 * rad + 1);
        sum += tmp[Math.min(len - 1, k + rad + 1)]! - tmp[Math.max(0, k - rad)]!;
      }
    }
  };
  for (let it = 0; it < 3; it++) {
    pass(sw, sh, (line, k) => line * sw + k);
    pass(sh, sw, (line, k) => k * sw + line);
  }
  // Bilinear back to full size (sample centres aligned), separably: each small row widened once, then every output
  // row is one blend of two widened rows.
  const axis = (n: number, sn: number) => {
    const i0 = new Int32Array(n);
    const i1 = new Int32Array(n);
    const wt = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const s = Math.min(sn - 1, Math.max(0, (i + 0.5) / f - 0.5));
      i0[i] = Math.floor(s);
      i1[i] = Math.min(sn - 1, i0[i]! + 1);
      wt[i] = s - i0[i]!;
    }
    return { i0, i1, wt };
  };
  const ax = axis(w, sw);
  const ay = axis(h, sh);
  const wide = new Float32Array(sh * w);
  for (let r = 0; r < sh; r++) {
    const base = r * sw;
    for (let i = 0, o = r * w; i < w; i++, o++) {
      const a0 = buf[base + ax.i0[i]!]!;
      wide[o] = a0 + (buf[base + ax.i1[i]!]! - a0) * ax.wt[i]!;
    }
  }
  for (let j = 0; j < h; j++) {
    const r0 = ay.i0[j]! * w;
    const r1 = ay.i1[j]! * w;
    const wy = ay.wt[j]!;
    const row = (y + j) * stride + x;
    for (let i = 0; i < w; i++) {
      const top = wide[r0 + i]!;
      plane[row + i] = (top + (wide[r1 + i]! - top) * wy + 0.5) | 0;
    }
  }
}

/** Blurs rectangles (luma pixels) in one yuv420p frame. */
export function blurYuv420(frame: Uint8Array, width: number, height: number, rects: Rect[]): void {
  const ySize = width * height;
  const cw = width >> 1;
  const ch = height >> 1;
  for (const r0 of rects) {
    // Even-aligned so luma and chroma cover the same pixels.
    const x = r0.x & ~1;
    const y = r0.y & ~1;
    const r = {
      x,
      y,
      width: Math.min(width - x, (r0.width + (r0.x - x) + 1) & ~1),
      height: Math.min(height - y, (r0.height + (r0.y - y) + 1) & ~1),
    };
    blurPlane(frame.subarray(0, ySize), width, r);
    const c = {
      x: x >> 1,
      y: y >> 1,
      width: Math.min(cw - (x >> 1), r.width >> 1),
      height: Math.min(ch - (y >> 1), r.height >> 1),
    };
    blurPlane(frame.subarray(ySize, ySize + cw * ch), cw, c);
    blurPlane(frame.subarray(ySize + cw * ch, ySize + 2 * cw * ch), cw, c);
  }
}
