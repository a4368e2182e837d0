/** Following a face between samples (face-track.ts): found where it moved, lost where it is not. */
import { describe, expect, it } from 'vitest';
import { TRACK_MIN_SCORE, faceTemplate, trackFace } from './face-track.js';

const W = 640;
const H = 360;

/** A luma plane: mid grey with light noise, and a 60 px patch of smooth shapes (a stand-in for a face) at (x, y). */
function plane(x: number, y: number, seed = 1): Uint8Array {
  const out = new Uint8Array(W * H);
  let s = seed;
  const rnd = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return (s / 0x7fffffff) * 6;
  };
  for (let i = 0; i < out.length; i++) out[i] = 120 + rnd();
  for (let dy = 0; dy < 60; dy++)
    for (let dx = 0; dx < 60; dx++)
      out[(y + dy) * W + x + dx] = 128 + 50 * Math.sin(dx / 6) * Math.cos(dy / 9) + 30 * Math.sin((dx + 2 * dy) / 11);
  return out;
}

describe('trackFace', () => {
  const face = { x: 200, y: 100, width: 60, height: 60, score: 0.93 };
  const t = faceTemplate(plane(200, 100), W, H, face);

  it('finds the face where it moved (up to two face sizes), keeping its size and score', () => {
    for (const [dx, dy] of [
      [0, 0],
      [25, -10],
      [-90, 40],
      [110, 0],
    ] as const) {
      const r = trackFace(t, plane(200 + dx, 100 + dy, 7), W, H);
      expect(r.score, `${dx},${dy}`).toBeGreaterThan(TRACK_MIN_SCORE);
      expect(Math.abs(r.face.x - (200 + dx)), `${dx},${dy}`).toBeLessThanOrEqual(4);
      expect(Math.abs(r.face.y - (100 + dy)), `${dx},${dy}`).toBeLessThanOrEqual(4);
      expect(r.face).toMatchObject({ width: 60, height: 60, score: 0.93 });
    }
  });

  it('loses a face that left, or went beyond its reach', () => {
    const gone = plane(0, 0);
    // Paint the patch over with the background: nothing like the face is left.
    for (let y = 0; y < 60; y++) gone.fill(123, y * W, y * W + 60);
    expect(trackFace(t, gone, W, H).score).toBeLessThan(TRACK_MIN_SCORE);
    expect(trackFace(t, plane(200 + 250, 100, 3), W, H).score).toBeLessThan(TRACK_MIN_SCORE);
  });

  it('a flat patch (nothing to follow) matches nothing', () => {
    const flat = faceTemplate(new Uint8Array(W * H).fill(90), W, H, face);
    expect(trackFace(flat, plane(200, 100), W, H).score).toBeLessThan(TRACK_MIN_SCORE);
  });
});
