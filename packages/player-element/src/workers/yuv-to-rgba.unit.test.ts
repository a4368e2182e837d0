import { describe, expect, it } from 'vitest';
import { i420ToRGBA, i420ToRGBAScaled, type YuvColourSpace } from './yuv-to-rgba.js';

/** The YUV of an RGB colour in a colour space, by the textbook formulas (independent of the code under test). */
function yuvOf([r, g, b]: number[], kr: number, kb: number, full: boolean): [number, number, number] {
  const [R, G, B] = [r! / 255, g! / 255, b! / 255];
  const y = kr * R + (1 - kr - kb) * G + kb * B;
  const u = (B - y) / (2 * (1 - kb));
  const v = (R - y) / (2 * (1 - kr));
  return full ? [255 * y, 128 + 255 * u, 128 + 255 * v] : [16 + 219 * y, 128 + 224 * u, 128 + 224 * v];
}

/** A 4x2 I420 picture: two 2x2 blocks side by side, each one colour. */
function picture(colours: number[][], kr: number, kb: number, full: boolean): Uint8Array {
  const w = 4;
  const out = new Uint8Array(w * 2 + 2 * 2);
  colours.forEach((c, block) => {
    const [y, u, v] = yuvOf(c, kr, kb, full).map(Math.round) as [number, number, number];
    for (const row of [0, 1]) for (const col of [0, 1]) out[row * w + block * 2 + col] = y;
    out[8 + block] = u;
    out[10 + block] = v;
  });
  return out;
}

/** The four pixels: block 0 (rows 0 and 1), then block 1. */
function convert(src: Uint8Array, cs: YuvColourSpace | undefined): number[][] {
  const out = new Uint8ClampedArray(4 * 2 * 4);
  i420ToRGBA(src, 4, 2, cs, out);
  return [0, 4, 2, 6].map((x) => Array.from(out.subarray(x * 4, x * 4 + 4)));
}

const COLOURS = [
  [200, 40, 40],
  [40, 180, 60],
  [50, 60, 200],
  [235, 235, 235],
  [20, 20, 20],
  [210, 200, 50],
];

describe('i420ToRGBA', () => {
  const cases: [string, YuvColourSpace | undefined, number, number, boolean][] = [
    ['BT.709 limited (no colour space: the WebCodecs default)', undefined, 0.2126, 0.0722, false],
    ['BT.709 limited', { matrix: 'bt709', fullRange: false }, 0.2126, 0.0722, false],
    ['BT.601 limited', { matrix: 'smpte170m', fullRange: false }, 0.299, 0.114, false],
    ['BT.601 full range', { matrix: 'bt470bg', fullRange: true }, 0.299, 0.114, true],
    ['BT.2020 limited', { matrix: 'bt2020-ncl' }, 0.2627, 0.0593, false],
  ];
  for (const [name, cs, kr, kb, full] of cases) {
    it(`gives back the colours of ${name} within 3 levels`, () => {
      for (let i = 0; i < COLOURS.length; i += 2) {
        const pair = [COLOURS[i]!, COLOURS[i + 1]!];
        const got = convert(picture(pair, kr, kb, full), cs);
        pair.forEach((c, block) => {
          for (const px of got.slice(block * 2, block * 2 + 2)) {
            for (let ch = 0; ch < 3; ch++)
              expect(Math.abs(px[ch]! - c[ch]!), `${name} ${c} channel ${ch}: got ${px}`).toBeLessThanOrEqual(3);
            expect(px[3]).toBe(255);
          }
        });
      }
    });
  }

  it('clamps out-of-range samples (limited-range black and white beyond 16..235)', () => {
    const src = new Uint8Array(12).fill(128);
    src.fill(0, 0, 4);
    src.fill(255, 4, 8);
    const out = new Uint8ClampedArray(32);
    i420ToRGBA(src, 4, 2, undefined, out);
    expect(Array.from(out.subarray(0, 4))).toEqual([0, 0, 0, 255]);
    expect(Array.from(out.subarray(16, 20))).toEqual([255, 255, 255, 255]);
  });

  it('handles odd sizes (chroma planes rounded up)', () => {
    // 3x3: luma 9, chroma 2x2 each.
    const src = new Uint8Array(9 + 8).fill(128);
    src.fill(235, 0, 9);
    const out = new Uint8ClampedArray(36);
    i420ToRGBA(src, 3, 3, undefined, out);
    expect(Array.from(out.subarray(32, 36))).toEqual([255, 255, 255, 255]);
  });

  it('refuses buffers too small for the size, before writing anything', () => {
    const out = new Uint8ClampedArray(32);
    expect(() => i420ToRGBA(new Uint8Array(11), 4, 2, undefined, out)).toThrow(/needs 12 bytes/);
    expect(() => i420ToRGBA(new Uint8Array(12), 4, 2, undefined, new Uint8ClampedArray(31))).toThrow(/needs 32 bytes/);
    expect(out.every((b) => b === 0)).toBe(true);
  });
});

describe('i420ToRGBAScaled', () => {
  /** A `w` x `h` I420 picture of one BT.709 limited-range colour. */
  function flat(w: number, h: number, c: number[]): Uint8Array {
    const [y, u, v] = yuvOf(c, 0.2126, 0.0722, false).map(Math.round) as [number, number, number];
    const cw = Math.ceil(w / 2);
    const ch = Math.ceil(h / 2);
    const out = new Uint8Array(w * h + 2 * cw * ch);
    out.fill(y, 0, w * h);
    out.fill(u, w * h, w * h + cw * ch);
    out.fill(v, w * h + cw * ch);
    return out;
  }

  it('gives a flat picture its colour at a smaller size (odd sizes too)', () => {
    for (const c of COLOURS) {
      const out = new Uint8ClampedArray(5 * 3 * 4);
      i420ToRGBAScaled(flat(11, 7, c), 11, 7, undefined, out, 5, 3);
      for (let i = 0; i < 15; i++)
        for (let ch = 0; ch < 3; ch++) expect(Math.abs(out[i * 4 + ch]! - c[ch]!), `${c}`).toBeLessThanOrEqual(3);
    }
  });

  it('samples luma bilinearly at each output pixel: a left-black, right-white picture halves to black, grey, white', () => {
    // 8x2: columns 0-3 black (Y 16), 4-7 white (Y 235); to 4x1 each output pixel sits between two columns.
    const src = new Uint8Array(8 * 2 + 2 * 4).fill(128);
    for (const r of [0, 1]) for (let x = 0; x < 8; x++) src[r * 8 + x] = x < 4 ? 16 : 235;
    const out = new Uint8ClampedArray(4 * 4);
    i420ToRGBAScaled(src, 8, 2, undefined, out, 4, 1);
    const reds = [0, 1, 2, 3].map((i) => out[i * 4]!);
    expect(reds[0]).toBe(0);
    expect(reds[3]).toBe(255);
    // Output pixel 1 covers source columns 2-3 (black), 2 covers 4-5 (white): the edge stays sharp at half size.
    expect(reds[1]).toBe(0);
    expect(reds[2]).toBe(255);
  });

  it('keeps one-pixel lines visible at a canvas-like 0.51 scale, as bilinear scaling does (a box filter greys them)', () => {
    // The fixtures' 720p detail patch: rows alternating Y 16 / 235. The bench and the tests tell 720p from 360p by it.
    const w = 16;
    const h = 720;
    const src = new Uint8Array(w * h + 2 * 8 * 360).fill(128);
    for (let y = 0; y < h; y++) src.fill(y % 2 ? 235 : 16, y * w, (y + 1) * w);
    const oh = 366;
    const out = new Uint8ClampedArray(8 * oh * 4);
    i420ToRGBAScaled(src, w, h, undefined, out, 8, oh);
    const reds = Array.from({ length: oh }, (_, y) => out[y * 8 * 4]!);
    const mean = reds.reduce((a, b) => a + b, 0) / oh;
    const spread = Math.sqrt(reds.reduce((a, b) => a + (b - mean) ** 2, 0) / oh);
    expect(spread).toBeGreaterThan(10);
  });

  it('refuses a larger size and buffers too small, before writing anything', () => {
    const out = new Uint8ClampedArray(64);
    expect(() => i420ToRGBAScaled(new Uint8Array(12), 4, 2, undefined, out, 8, 2)).toThrow(/only makes smaller/);
    expect(() => i420ToRGBAScaled(new Uint8Array(11), 4, 2, undefined, out, 2, 1)).toThrow(/needs 12 bytes/);
    expect(out.every((b) => b === 0)).toBe(true);
  });
});
