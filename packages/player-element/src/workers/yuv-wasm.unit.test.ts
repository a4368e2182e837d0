import { describe, expect, it } from 'vitest';
import { i420ToRGBA, i420ToRGBAScaled, type YuvColourSpace } from './yuv-to-rgba.js';
import { MODULE, wasmYuv } from './yuv-wasm.js';

/** Packed I420 of `width` x `height`, every byte from a seeded generator (all values, extremes included). */
function noise(width: number, height: number, seed: number): Uint8Array {
  const n = width * height + 2 * Math.ceil(width / 2) * Math.ceil(height / 2);
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

/** A smooth picture (ramps), as decoded video mostly is: luma 16..235, chroma around 128. */
function ramps(width: number, height: number): Uint8Array {
  const cw = Math.ceil(width / 2);
  const ch = Math.ceil(height / 2);
  const out = new Uint8Array(width * height + 2 * cw * ch);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) out[y * width + x] = 16 + ((x * 3 + y * 5) % 220);
  for (let i = 0; i < cw * ch; i++) {
    out[width * height + i] = 64 + (i % 128);
    out[width * height + cw * ch + i] = 190 - (i % 128);
  }
  return out;
}

const SPACES: [string, YuvColourSpace | undefined][] = [
  ['none (BT.709 limited)', undefined],
  ['BT.709 limited', { matrix: 'bt709', fullRange: false }],
  ['BT.709 full', { matrix: 'bt709', fullRange: true }],
  ['BT.601 limited', { matrix: 'smpte170m', fullRange: false }],
  ['BT.601 full', { matrix: 'bt470bg', fullRange: true }],
  ['BT.2020 limited', { matrix: 'bt2020-ncl' }],
  ['BT.2020 full', { matrix: 'bt2020-ncl', fullRange: true }],
];

/** The first differing pixel, for the failure message. */
function firstDifference(a: Uint8ClampedArray, b: Uint8ClampedArray, width: number): string {
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i]) {
      const p = i >> 2;
      return `pixel (${p % width}, ${Math.floor(p / width)}): script ${Array.from(a.subarray(p * 4, p * 4 + 4))}, wasm ${Array.from(b.subarray(p * 4, p * 4 + 4))}`;
    }
  return 'none';
}

const wasm = wasmYuv();

describe('WebAssembly SIMD I420 to RGBA (yuv-wasm.ts)', () => {
  it('validates and compiles in Node (SIMD wasm)', () => {
    expect(WebAssembly.validate(MODULE)).toBe(true);
    expect(wasm).toBeDefined();
  });

  const fullSizes: [number, number][] = [
    [1280, 720],
    [640, 360],
    [720, 1280],
    [8, 2],
    [4, 2],
    [3, 3],
    [1, 1],
    [17, 9],
    [33, 7],
    [330, 185],
  ];
  for (const [name, cs] of SPACES)
    it(`i420ToRGBA gives the script's bytes, ${name}, ${fullSizes.length} sizes`, () => {
      for (const [w, h] of fullSizes)
        for (const src of [noise(w, h, w * 31 + h), ramps(w, h)]) {
          const want = new Uint8ClampedArray(w * h * 4);
          const got = new Uint8ClampedArray(w * h * 4).fill(7);
          i420ToRGBA(src, w, h, cs, want);
          wasm!.i420ToRGBA(src, w, h, cs, got);
          expect(firstDifference(want, got, w), `${w}x${h} ${name}`).toBe('none');
        }
    });

  const scaledSizes: [number, number, number, number][] = [
    [1280, 720, 650, 366],
    [1280, 720, 420, 236],
    [1280, 720, 1279, 719],
    [1280, 720, 640, 360],
    [720, 1280, 366, 650],
    [640, 360, 333, 187],
    [17, 9, 5, 3],
    [9, 17, 1, 1],
    [3, 3, 2, 2],
    [1280, 720, 1280, 719],
  ];
  for (const [name, cs] of SPACES)
    it(`i420ToRGBAScaled gives the script's bytes, ${name}, ${scaledSizes.length} sizes`, () => {
      for (const [w, h, ow, oh] of scaledSizes)
        for (const src of [noise(w, h, w + h * 7), ramps(w, h)]) {
          const want = new Uint8ClampedArray(ow * oh * 4);
          const got = new Uint8ClampedArray(ow * oh * 4).fill(7);
          i420ToRGBAScaled(src, w, h, cs, want, ow, oh);
          wasm!.i420ToRGBAScaled(src, w, h, cs, got, ow, oh);
          expect(firstDifference(want, got, ow), `${w}x${h} -> ${ow}x${oh} ${name}`).toBe('none');
        }
    });

  it('gives the same bytes call after call, across sizes (memory reused and grown)', () => {
    const sizes: [number, number, number, number][] = [
      [640, 360, 320, 180],
      [1280, 720, 650, 366],
      [17, 9, 5, 3],
      [1280, 720, 650, 366],
    ];
    for (const [w, h, ow, oh] of sizes) {
      const src = noise(w, h, ow);
      const want = new Uint8ClampedArray(ow * oh * 4);
      const got = new Uint8ClampedArray(ow * oh * 4);
      i420ToRGBAScaled(src, w, h, undefined, want, ow, oh);
      wasm!.i420ToRGBAScaled(src, w, h, undefined, got, ow, oh);
      expect(firstDifference(want, got, ow)).toBe('none');
      const fullWant = new Uint8ClampedArray(w * h * 4);
      const fullGot = new Uint8ClampedArray(w * h * 4);
      i420ToRGBA(src, w, h, undefined, fullWant);
      wasm!.i420ToRGBA(src, w, h, undefined, fullGot);
      expect(firstDifference(fullWant, fullGot, w)).toBe('none');
    }
  });

  it('reads a source longer than the I420 (a pooled buffer) and writes only its own pixels into a longer out', () => {
    const src = new Uint8Array(4 * 2 + 2 * 2 + 10).fill(200);
    const want = new Uint8ClampedArray(4 * 2 * 4 + 8).fill(9);
    const got = new Uint8ClampedArray(4 * 2 * 4 + 8).fill(9);
    i420ToRGBA(src, 4, 2, undefined, want);
    wasm!.i420ToRGBA(src, 4, 2, undefined, got);
    expect(Array.from(got)).toEqual(Array.from(want));
    expect(Array.from(got.subarray(32))).toEqual(Array(8).fill(9));
  });

  it('refuses what the script refuses', () => {
    const out = new Uint8ClampedArray(16 * 4);
    expect(() => wasm!.i420ToRGBA(new Uint8Array(5), 4, 2, undefined, out)).toThrow(RangeError);
    expect(() => wasm!.i420ToRGBA(new Uint8Array(12), 4, 2, undefined, new Uint8ClampedArray(8))).toThrow(RangeError);
    expect(() => wasm!.i420ToRGBAScaled(new Uint8Array(12), 4, 2, undefined, out, 8, 2)).toThrow(RangeError);
  });
});
