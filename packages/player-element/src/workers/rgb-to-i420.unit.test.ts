import { describe, expect, it } from 'vitest';
import { fullRangeReadBack, I420_FROM_RGB, rgbToI420 } from './rgb-to-i420.js';
import { i420ToRGBA } from './yuv-to-rgba.js';
import { wasmRgbToI420 } from './rgb-wasm.js';

/** BT.601 limited range by the textbook formulas (independent of the code under test). */
function yuv601([r, g, b]: number[]): [number, number, number] {
  const [R, G, B] = [r! / 255, g! / 255, b! / 255];
  const y = 0.299 * R + 0.587 * G + 0.114 * B;
  return [16 + 219 * y, 128 + 224 * ((B - y) / 1.772), 128 + 224 * ((R - y) / 1.402)];
}

/** `width` x `height` pixels of 4 bytes in `order` (the X or A byte 0), each 2x2 block one colour from `colours`. */
function pixels(width: number, height: number, order: 'RGBX' | 'BGRX', colours: number[][]): ArrayBuffer {
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = colours[((y >> 1) * ((width + 1) >> 1) + (x >> 1)) % colours.length]!;
      const at = (y * width + x) * 4;
      out.set(order === 'RGBX' ? [r!, g!, b!, 0] : [b!, g!, r!, 0], at);
    }
  return out.buffer;
}

const COLOURS = [
  [200, 40, 40],
  [40, 180, 60],
  [50, 60, 200],
  [235, 235, 235],
  [20, 20, 20],
  [210, 200, 50],
  [0, 0, 0],
  [255, 255, 255],
];

describe('rgbToI420', () => {
  for (const order of ['RGBX', 'BGRX'] as const) {
    it(`${order}: each block's Y, U and V are BT.601 limited range within one level`, () => {
      const w = 8;
      const h = 4;
      const out = new Uint8Array(w * h + 2 * 4 * 2);
      rgbToI420(pixels(w, h, order, COLOURS), w, h, order === 'BGRX', out);
      for (let block = 0; block < 8; block++) {
        const [y, u, v] = yuv601(COLOURS[block]!);
        const bx = (block % 4) * 2;
        const by = Math.floor(block / 4) * 2;
        for (const [dx, dy] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ])
          expect(Math.abs(out[(by + dy!) * w + bx + dx!]! - y), `Y of ${COLOURS[block]}`).toBeLessThanOrEqual(1);
        expect(Math.abs(out[w * h + block]! - u), `U of ${COLOURS[block]}`).toBeLessThanOrEqual(1);
        expect(Math.abs(out[w * h + 8 + block]! - v), `V of ${COLOURS[block]}`).toBeLessThanOrEqual(1);
      }
    });
  }

  it('round-trips through the paint path (i420ToRGBA in the colour space it names) within 3 levels', () => {
    const w = 8;
    const h = 4;
    const i420 = new Uint8Array(w * h + 16);
    rgbToI420(pixels(w, h, 'BGRX', COLOURS), w, h, true, i420);
    const back = new Uint8ClampedArray(w * h * 4);
    i420ToRGBA(i420, w, h, I420_FROM_RGB, back);
    for (let block = 0; block < 8; block++) {
      const at = (Math.floor(block / 4) * 2 * w + (block % 4) * 2) * 4;
      for (let c = 0; c < 3; c++)
        expect(Math.abs(back[at + c]! - COLOURS[block]![c]!), `${COLOURS[block]} channel ${c}`).toBeLessThanOrEqual(3);
    }
  });

  it('averages chroma over each 2x2 block and handles odd sizes', () => {
    // 3x3: the right column and bottom row are blocks of their own pixels.
    const red = [255, 0, 0];
    const blue = [0, 0, 255];
    const src = new Uint8Array(9 * 4);
    for (let i = 0; i < 9; i++) src.set([...(i % 3 === 0 ? red : blue), 0], i * 4);
    const out = new Uint8Array(9 + 8);
    rgbToI420(src.buffer, 3, 3, false, out);
    // Block (0,0): two red, two blue pixels: V is the mean of red's and blue's.
    const mean = (yuv601(red)[2] + yuv601(blue)[2]) / 2;
    expect(Math.abs(out[9 + 4]! - mean)).toBeLessThanOrEqual(1);
    // Block (1,0) covers only column 2 (blue): blue's V.
    expect(Math.abs(out[9 + 5]! - yuv601(blue)[2])).toBeLessThanOrEqual(1);
    expect(Math.abs(out[8]! - yuv601(blue)[0])).toBeLessThanOrEqual(1);
  });

  it('refuses buffers too small for the size', () => {
    expect(() => rgbToI420(new ArrayBuffer(31), 4, 2, false, new Uint8Array(12))).toThrow(/needs 32 bytes/);
    expect(() => rgbToI420(new ArrayBuffer(32), 4, 2, false, new Uint8Array(11))).toThrow(/does not fit/);
  });

  it('reads back full-range samples an engine converted as limited BT.709 (Firefox ESR): the samples, ends kept', () => {
    // RGB as the engine paints full-range samples: read as limited range BT.709, rounded and clipped.
    const kr = 0.2126;
    const kb = 0.0722;
    const engineRGB = ([y, u, v]: number[]) => {
      const Y = ((y! - 16) * 255) / 219;
      const [U, V] = [((u! - 128) * 255) / 224, ((v! - 128) * 255) / 224];
      return [
        Y + 2 * (1 - kr) * V,
        Y - ((2 * kb * (1 - kb)) / (1 - kr - kb)) * U - ((2 * kr * (1 - kr)) / (1 - kr - kb)) * V,
        Y + 2 * (1 - kb) * U,
      ].map((c) => Math.max(0, Math.min(255, Math.round(c))));
    };
    // Greys and colours inside the limited range (given back within 2 levels), and black and white beyond it (the
    // engine clipped them: they stay black and white).
    const samples = [
      [64, 128, 128],
      [200, 128, 128],
      [74, 110, 208],
      [142, 84, 64],
      [68, 199, 117],
      [0, 128, 128],
      [255, 128, 128],
    ];
    const want = (s: number[]) => (s[0] === 0 ? [0, 128, 128] : s[0] === 255 ? [255, 128, 128] : s);
    const w = samples.length * 2;
    const h = 2;
    const out = new Uint8Array(w * h * 1.5);
    // One 2x2 block a sample, as the engine paints it.
    rgbToI420(pixels(w, h, 'BGRX', samples.map(engineRGB)), w, h, true, out, fullRangeReadBack('bt709'));
    samples.forEach((s, i) => {
      const [y, u, v] = want(s);
      const got = [out[i * 2]!, out[w * h + i]!, out[w * h + w / 2 + i]!];
      expect(Math.abs(got[0]! - y!), `Y of ${s}: ${got}`).toBeLessThanOrEqual(2);
      expect(Math.abs(got[1]! - u!), `U of ${s}: ${got}`).toBeLessThanOrEqual(2);
      expect(Math.abs(got[2]! - v!), `V of ${s}: ${got}`).toBeLessThanOrEqual(2);
    });
  });
});

describe('rgbToI420 in WebAssembly SIMD (yuv-wasm.ts wasmRgbToI420)', () => {
  /** `width` x `height` pixels of 4 bytes, every byte from a seeded generator (all values, extremes included). */
  const noise = (width: number, height: number, seed: number): ArrayBuffer => {
    const out = new Uint8Array(width * height * 4);
    let s = seed >>> 0;
    for (let i = 0; i < out.length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      out[i] = s >>> 24;
    }
    return out.buffer;
  };
  const shapes = [
    [8, 2],
    [16, 6],
    [1280, 720],
    [360, 640],
  ] as const;
  for (const [name, options] of [
    ['BT.601 limited', undefined],
    ['read back, BT.709', fullRangeReadBack('bt709')],
    ['read back, BT.601', fullRangeReadBack('smpte170m')],
  ] as const)
    for (const bgr of [false, true])
      it(`the same bytes as the script: ${name}, ${bgr ? 'BGRX' : 'RGBX'}, noise and flat colours`, () => {
        for (const [w, h] of shapes)
          for (const src of [noise(w, h, w * h), pixels(w, h, bgr ? 'BGRX' : 'RGBX', COLOURS)]) {
            const size = (w * h * 3) / 2;
            const script = new Uint8Array(size);
            const wasm = new Uint8Array(size).fill(7);
            rgbToI420(src, w, h, bgr, script, options);
            expect(wasmRgbToI420(src, w, h, bgr, wasm, options), `${w}x${h} converted`).toBe(true);
            const first = wasm.findIndex((v, i) => v !== script[i]);
            expect(first, `${w}x${h}: first differing byte ${first}`).toBe(-1);
          }
      });

  it('leaves a shape it does not convert (a width not a multiple of 8, an odd height) to the script', () => {
    const out = new Uint8Array(64);
    expect(wasmRgbToI420(noise(6, 4, 1), 6, 4, false, out)).toBe(false);
    expect(wasmRgbToI420(noise(8, 3, 1), 8, 3, false, out)).toBe(false);
    expect(out.every((v) => v === 0)).toBe(true);
  });
});
