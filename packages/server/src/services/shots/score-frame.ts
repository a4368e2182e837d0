/**
 * Photo quality of a frame, from its grey levels: sharpness (variance of the Laplacian), motion blur (how unequal
 * the horizontal and vertical gradient energies are: a smear in one direction kills one of them), exposure (mean
 * level near the middle, few clipped pixels) and level horizon (strong edges close to horizontal or vertical).
 * Each part is 0..1; frameScore is their weighted sum on 0..100.
 */
export interface FrameQuality {
  sharpness: number;
  motion: number;
  exposure: number;
  level: number;
  tiltDegrees: number;
  score: number;
}

const SCORE_WEIGHTS = { sharpness: 0.4, motion: 0.2, exposure: 0.25, level: 0.15 } as const;

/** Grey levels (0..255) of packed RGB. */
export function toGrey(rgb: Buffer | Uint8Array, width: number, height: number): Float32Array {
  const g = new Float32Array(width * height);
  for (let i = 0, j = 0; j < g.length; i += 3, j++) g[j] = 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  return g;
}

/** Dominant tilt of near-vertical edges in degrees (positive: the picture leans clockwise), and how level it is. */
export function edgeAngles(g: Float32Array, width: number, height: number): { tiltDegrees: number; level: number } {
  let devSum = 0;
  let wSum = 0;
  let tiltSum = 0;
  let tiltW = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx =
        g[i - width + 1]! + 2 * g[i + 1]! + g[i + width + 1]! - g[i - width - 1]! - 2 * g[i - 1]! - g[i + width - 1]!;
      const gy =
        g[i + width - 1]! +
        2 * g[i + width]! +
        g[i + width + 1]! -
        g[i - width - 1]! -
        2 * g[i - width]! -
        g[i - width + 1]!;
      const mag = Math.hypot(gx, gy);
      if (mag < 120) continue;
      const deg = (Math.atan2(gy, gx) * 180) / Math.PI;
      const m = ((deg % 90) + 90) % 90;
      const dev = Math.min(m, 90 - m);
      devSum += dev * mag;
      wSum += mag;
      // Near-vertical lines (gradient near horizontal): their small angle is the camera's roll.
      const h = ((((deg + 90) % 180) + 180) % 180) - 90;
      if (Math.abs(h) < 12) {
        tiltSum += h * mag;
        tiltW += mag;
      }
    }
  }
  return {
    tiltDegrees: tiltW > 0 ? tiltSum / tiltW : 0,
    level: wSum > 0 ? Math.max(0, 1 - devSum / wSum / 22.5) : 0.5,
  };
}

export function scoreFrame(rgb: Buffer | Uint8Array, width: number, height: number): FrameQuality {
  const g = toGrey(rgb, width, height);
  let lapSum = 0;
  let lapSq = 0;
  let ex = 0;
  let ey = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = 4 * g[i]! - g[i - 1]! - g[i + 1]! - g[i - width]! - g[i + width]!;
      lapSum += lap;
      lapSq += lap * lap;
      const dx = g[i + 1]! - g[i - 1]!;
      const dy = g[i + width]! - g[i - width]!;
      ex += dx * dx;
      ey += dy * dy;
      n++;
    }
  }
  const lapVar = lapSq / n - (lapSum / n) ** 2;
  const sharpness = lapVar / (lapVar + 300);
  const motion = Math.max(ex, ey) > 0 ? Math.min(ex, ey) / Math.max(ex, ey) : 0;
  let mean = 0;
  let clipped = 0;
  for (const v of g) {
    mean += v;
    if (v < 8 || v > 247) clipped++;
  }
  mean /= g.length;
  const exposure = Math.max(0, 1 - 2 * Math.abs(mean / 255 - 0.5)) * (1 - clipped / g.length);
  const { tiltDegrees, level } = edgeAngles(g, width, height);
  const score =
    100 *
    (SCORE_WEIGHTS.sharpness * sharpness +
      SCORE_WEIGHTS.motion * motion +
      SCORE_WEIGHTS.exposure * exposure +
      SCORE_WEIGHTS.level * level);
  return { sharpness, motion, exposure, level, tiltDegrees, score: Math.round(score * 10) / 10 };
}
