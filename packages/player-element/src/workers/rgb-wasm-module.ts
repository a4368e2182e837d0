/**
 * The WebAssembly SIMD module of rgb-wasm.ts (RGB to I420, the same arithmetic as rgb-to-i420.ts), written with the
 * assembler of wasm-assembler.ts; the build keeps only its bytes (scripts/build.mjs `wasmModule`), in the decode
 * worker only (the paint worker never converts RGB).
 */
import { ADD, func, get, i32, LT_U, MUL, module, SHL, SHR_U, set, splats, V, bump, doWhile } from './wasm-assembler.js';

/**
 * rgb(src, out, width, height, uPlane, vPlane, ky0, ky1, ky2, ku0, ku1, ku2, kv0, kv1, kv2, lo, hi): rgb-to-i420.ts's
 * `rgbToI420` for a width that is a multiple of 8 and an even height, every address absolute. `kyN`, `kuN`, `kvN`: the
 * coefficients of the pixel's byte N (the caller orders them for RGBX or BGRX). Luma at or under `lo` is written 0, at
 * or over `hi` 255 (the read-back's ends; -1 and 256 for none). Eight pixels of two rows a turn: their bytes split into
 * channels by shuffles, luma in 32-bit lanes, each 2x2 block's sums by pairwise adds.
 */
const rgb = func(
  [
    ...['src', 'out', 'width', 'height', 'uPlane', 'vPlane'],
    ...['ky0', 'ky1', 'ky2', 'ku0', 'ku1', 'ku2', 'kv0', 'kv1', 'kv2', 'lo', 'hi'],
  ],
  ['cy', 'x', 's0', 's1', 'o0', 'o1', 'uo', 'vo'],
  [
    ...['ky0v', 'ky1v', 'ky2v', 'ku0v', 'ku1v', 'ku2v', 'kv0v', 'kv1v', 'kv2v'],
    ...['half', 'half18', 'c16', 'c128', 'c255', 'lov', 'hiv', 'p0', 'p1', 't'],
    ...['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'sum0', 'sum1', 'sum2'],
  ],
  (l) => {
    /** Byte `n` of each of the eight pixels in p0 (pixels 0-3) and p1 (4-7), as i16x8. */
    const channel = (n: number) => [
      get(l.p0!),
      get(l.p1!),
      V.shuffle([...Array(8).keys()].map((k) => 4 * k + n).concat(Array(8).fill(0))),
      V.widen8,
    ];
    /** The eight pixels of the row at local `at` into channel locals. */
    const split = (at: number, to: number[]) => [
      [get(at), V.load(), set(l.p0!)],
      [get(at), V.load(16), set(l.p1!)],
      to.map((c, n) => [channel(n), set(c)]),
    ];
    /** One half's luma (widen: low or high four pixels), its ends applied, as i32x4 on the stack. */
    const luma = (c: number[], widen: number[]) => [
      [get(l.ky0v!), get(c[0]!), widen, V.mul],
      [get(l.ky1v!), get(c[1]!), widen, V.mul, V.add],
      [get(l.ky2v!), get(c[2]!), widen, V.mul, V.add],
      [get(l.half!), V.add, i32(16), V.shr, get(l.c16!), V.add, set(l.t!)],
      [get(l.t!), get(l.t!), get(l.lov!), V.leS, V.andnot, set(l.t!)],
      [get(l.c255!), get(l.t!), get(l.t!), get(l.hiv!), V.geS, V.bitselect],
    ];
    /** Eight luma bytes of a row's channels stored at local `o`. */
    const storeLuma = (o: number, c: number[]) => [
      get(o),
      luma(c, V.widenLow),
      luma(c, V.widenHigh),
      V.narrow32,
      set(l.t!),
      [get(l.t!), get(l.t!), V.narrow16, V.store64()],
    ];
    /** Four chroma bytes (coefficient vectors k) of the blocks' sums stored at local `o`. */
    const storeChroma = (o: number, k: number[]) => [
      get(o),
      [get(k[0]!), get(l.sum0!), V.mul],
      [get(k[1]!), get(l.sum1!), V.mul, V.add],
      [get(k[2]!), get(l.sum2!), V.mul, V.add],
      [get(l.half18!), V.add, i32(18), V.shr, get(l.c128!), V.add, set(l.t!)],
      [get(l.t!), get(l.t!), V.narrow32, set(l.t!)],
      [get(l.t!), get(l.t!), V.narrow16, V.store32()],
    ];
    const a = [l.a0!, l.a1!, l.a2!];
    const b = [l.b0!, l.b1!, l.b2!];
    return [
      splats(l, [
        ['ky0v', 'ky0'],
        ['ky1v', 'ky1'],
        ['ky2v', 'ky2'],
        ['ku0v', 'ku0'],
        ['ku1v', 'ku1'],
        ['ku2v', 'ku2'],
        ['kv0v', 'kv0'],
        ['kv1v', 'kv1'],
        ['kv2v', 'kv2'],
        ['half', 1 << 15],
        ['half18', 1 << 17],
        ['c16', 16],
        ['c128', 128],
        ['c255', 255],
        ['lov', 'lo'],
        ['hiv', 'hi'],
      ]),
      doWhile(
        [
          // Rows 2cy and 2cy + 1: their pixels, luma and chroma rows.
          [get(l.src!), get(l.cy!), get(l.width!), MUL, i32(3), SHL, ADD, set(l.s0!)],
          [get(l.s0!), get(l.width!), i32(2), SHL, ADD, set(l.s1!)],
          [get(l.out!), get(l.cy!), get(l.width!), MUL, i32(1), SHL, ADD, set(l.o0!)],
          [get(l.o0!), get(l.width!), ADD, set(l.o1!)],
          [get(l.uPlane!), get(l.cy!), get(l.width!), i32(1), SHR_U, MUL, ADD, set(l.uo!)],
          [get(l.vPlane!), get(l.cy!), get(l.width!), i32(1), SHR_U, MUL, ADD, set(l.vo!)],
          [i32(0), set(l.x!)],
          doWhile(
            [
              split(l.s0!, a),
              split(l.s1!, b),
              storeLuma(l.o0!, a),
              storeLuma(l.o1!, b),
              [l.sum0!, l.sum1!, l.sum2!].map((sum, n) => [get(a[n]!), get(b[n]!), V.add16, V.pairs, set(sum)]),
              storeChroma(l.uo!, [l.ku0v!, l.ku1v!, l.ku2v!]),
              storeChroma(l.vo!, [l.kv0v!, l.kv1v!, l.kv2v!]),
              bump(l.s0!, 32),
              bump(l.s1!, 32),
              bump(l.o0!, 8),
              bump(l.o1!, 8),
              bump(l.uo!, 4),
              bump(l.vo!, 4),
              bump(l.x!, 8),
            ],
            [get(l.x!), get(l.width!), LT_U],
          ),
          bump(l.cy!, 1),
        ],
        [get(l.cy!), i32(1), SHL, get(l.height!), LT_U],
      ),
    ];
  },
);

/** The module: memory "m" (grown by the caller), function "rgb". */
export const MODULE = module({ rgb });
