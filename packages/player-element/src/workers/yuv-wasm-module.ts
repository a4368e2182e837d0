/**
 * The WebAssembly SIMD module of yuv-wasm.ts (I420 to RGBA, the same arithmetic as yuv-to-rgba.ts), written here
 * byte by byte by a small assembler: this file is its source. Tests and the dev server run it as it is; the build
 * (scripts/build.mjs, `wasmModule`) runs it once and puts the bytes it makes into the workers instead of the
 * assembler (0.8 KB gzip a worker against 2.5 KB). No binary is kept anywhere.
 *
 * Two functions over one exported memory, eight pixels (full size) or four (scaled) a loop turn in 32-bit lanes,
 * clamped to 0..255 by saturating narrows. The scaled one reads its source samples through tables its caller fills
 * (each output column's left and right luma sample, weight and chroma column; each output row's two luma rows,
 * chroma rows and weight): the rules of `i420ToRGBAScaled`, computed by the same expressions.
 */
import {
  ADD,
  type Code,
  LT_U,
  MUL,
  SHL,
  SHR_U,
  V,
  bump,
  doWhile,
  func,
  get,
  i32,
  load,
  load8,
  module,
  set,
  splats,
} from './wasm-assembler.js';

const COEFFICIENTS = ['yOff', 'ky', 'rv', 'gu', 'gv', 'bu'];
const VECTORS = ['kyv', 'yoffv', 'rvv', 'guv', 'gvv', 'buv', 'halfv', 'c128'];
/** The vectors of the coefficients, 1 << 15 (rounding) and 128 (chroma's zero). */
const prologue = (l: Record<string, number>) =>
  splats(l, [
    ['kyv', 'ky'],
    ['yoffv', 'yOff'],
    ['rvv', 'rv'],
    ['guv', 'gu'],
    ['gvv', 'gv'],
    ['buv', 'bu'],
    ['halfv', 1 << 15],
    ['c128', 128],
  ]);
/** (luma + term) >> 16 for luma and chroma terms on the stack. */
const channel = [V.add, i32(16), V.shr];
/** The r, g and b chroma terms of u and v (locals, already less 128) into rT, gT, bT. */
const terms = (l: Record<string, number>) => [
  [get(l.rvv!), get(l.v!), V.mul, get(l.halfv!), V.add, set(l.rT!)],
  [get(l.halfv!), get(l.guv!), get(l.u!), V.mul, V.sub, get(l.gvv!), get(l.v!), V.mul, V.sub, set(l.gT!)],
  [get(l.buv!), get(l.u!), V.mul, get(l.halfv!), V.add, set(l.bT!)],
];
const lanes = (...groups: number[][]) => groups.flat();
const word = (i: number) => [4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3];

/**
 * full(src, out, width, height, cw, u, v, coefficients…): `i420ToRGBA` with every address absolute. Eight pixels a
 * turn; a row's last turn may read and write up to seven pixels past its end (into the next row, written again after,
 * or the padding the caller leaves).
 */
const full = func(
  ['src', 'out', 'width', 'height', 'cw', 'uPlane', 'vPlane', ...COEFFICIENTS],
  ['y', 'x', 'yRow', 'outRow', 'uRow', 'vRow'],
  [...VECTORS, 'a255', 'yy', 'yl', 'yh', 'u', 'v', 'rT', 'gT', 'bT', 'rg', 'ba'],
  (l) => {
    // Chroma's lanes 0, 0, 1, 1 and 2, 2, 3, 3 (each sample serves two pixels); pixel k's R, G, B, A bytes of the
    // narrowed [R0..7 G0..7] and [B0..7 A0..7].
    const dupLow = lanes(word(0), word(0), word(1), word(1));
    const dupHigh = lanes(word(2), word(2), word(3), word(3));
    const rgba = (k: number) => [k, 8 + k, 16 + k, 24 + k];
    const pixels = (from: number) => lanes(rgba(from), rgba(from + 1), rgba(from + 2), rgba(from + 3));
    /** The i16x8 of one channel's eight pixels: (yl|yh + the term's lanes) >> 16, narrowed. */
    const eight = (t: number) => [
      [get(l.yl!), get(t), get(t), V.shuffle(dupLow), channel],
      [get(l.yh!), get(t), get(t), V.shuffle(dupHigh), channel],
      V.narrow32,
    ];
    /** u or v: four chroma samples at row + x / 2, less 128, as i32x4. */
    const chroma = (row: number, to: number) => [
      [get(row), get(l.x!), i32(1), SHR_U, ADD, V.load32(), V.widen8, V.widenLow],
      [get(l.c128!), V.sub, set(to)],
    ];
    return [
      prologue(l),
      [i32(255), V.splat16, set(l.a255!)],
      doWhile(
        [
          [get(l.src!), get(l.y!), get(l.width!), MUL, ADD, set(l.yRow!)],
          [get(l.out!), get(l.y!), get(l.width!), MUL, i32(2), SHL, ADD, set(l.outRow!)],
          [get(l.uPlane!), get(l.y!), i32(1), SHR_U, get(l.cw!), MUL, ADD, set(l.uRow!)],
          [get(l.vPlane!), get(l.y!), i32(1), SHR_U, get(l.cw!), MUL, ADD, set(l.vRow!)],
          [i32(0), set(l.x!)],
          doWhile(
            [
              [get(l.yRow!), get(l.x!), ADD, V.load8x8(), set(l.yy!)],
              [get(l.yy!), V.widenLow, get(l.yoffv!), V.sub, get(l.kyv!), V.mul, set(l.yl!)],
              [get(l.yy!), V.widenHigh, get(l.yoffv!), V.sub, get(l.kyv!), V.mul, set(l.yh!)],
              chroma(l.uRow!, l.u!),
              chroma(l.vRow!, l.v!),
              terms(l),
              // [R G] and [B A] as bytes, stored as pixels 0-3 and 4-7.
              [eight(l.rT!), eight(l.gT!), V.narrow16, set(l.rg!)],
              [eight(l.bT!), get(l.a255!), V.narrow16, set(l.ba!)],
              [get(l.outRow!), get(l.x!), i32(2), SHL, ADD, get(l.rg!), get(l.ba!), V.shuffle(pixels(0)), V.store()],
              [get(l.outRow!), get(l.x!), i32(2), SHL, ADD, get(l.rg!), get(l.ba!), V.shuffle(pixels(4)), V.store(16)],
              bump(l.x!, 8),
            ],
            [get(l.x!), get(l.width!), LT_U],
          ),
          bump(l.y!, 1),
        ],
        [get(l.y!), get(l.height!), LT_U],
      ),
    ];
  },
);

/**
 * scaled(out, outWidth, outHeight, columns, weights, rows, coefficients…): `i420ToRGBAScaled`. `columns`: per output
 * column (padded to four) its left luma sample, right one and chroma column (3 x i32); `weights`: the right sample's
 * weight (i32); `rows`: per output row the upper and lower luma row's address, the U and V row's, the lower row's
 * weight (5 x i32). Four pixels a turn, gathered lane by lane; the last turn may write up to three pixels past the
 * row.
 */
const scaled = func(
  ['out', 'outWidth', 'outHeight', 'columns', 'weights', 'rows', ...COEFFICIENTS],
  ['y', 'x', 'top', 'bottom', 'uRow', 'vRow', 'col', 'wp', 'rp', 'op', 'a', 'b', 'c'],
  [...VECTORS, 'a255', 'wy', 'ta', 'tb', 'ba', 'bb', 'u', 'v', 'up', 'lo', 'rT', 'gT', 'bT'],
  (l) => {
    /** Lane k of vector `to` = the byte at local[base] + local[index]. */
    const gather = (to: number, base: number, index: number, k: number) => [
      get(to),
      get(base),
      get(index),
      ADD,
      load8(),
      V.replace(k),
      set(to),
    ];
    const lane = (k: number) => [
      [get(l.col!), load(12 * k), set(l.a!)],
      [get(l.col!), load(12 * k + 4), set(l.b!)],
      [get(l.col!), load(12 * k + 8), set(l.c!)],
      gather(l.ta!, l.top!, l.a!, k),
      gather(l.tb!, l.top!, l.b!, k),
      gather(l.ba!, l.bottom!, l.a!, k),
      gather(l.bb!, l.bottom!, l.b!, k),
      gather(l.u!, l.uRow!, l.c!, k),
      gather(l.v!, l.vRow!, l.c!, k),
    ];
    /** left * (256 - w) + right * w, as left * 256 + (right - left) * w (the same integer). */
    const mix = (left: number, right: number, w: Code[]) => [
      [get(left), i32(8), V.shl],
      [get(right), get(left), V.sub, w, V.mul, V.add],
    ];
    const pixels = lanes([0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]);
    return [
      prologue(l),
      splats(l, [['a255', 255]]),
      [get(l.rows!), set(l.rp!)],
      doWhile(
        [
          [get(l.rp!), load(0), set(l.top!)],
          [get(l.rp!), load(4), set(l.bottom!)],
          [get(l.rp!), load(8), set(l.uRow!)],
          [get(l.rp!), load(12), set(l.vRow!)],
          [get(l.rp!), load(16), V.splat, set(l.wy!)],
          [get(l.columns!), set(l.col!)],
          [get(l.weights!), set(l.wp!)],
          [get(l.out!), get(l.y!), get(l.outWidth!), MUL, i32(2), SHL, ADD, set(l.op!)],
          [i32(0), set(l.x!)],
          doWhile(
            [
              lane(0),
              lane(1),
              lane(2),
              lane(3),
              [mix(l.ta!, l.tb!, [get(l.wp!), V.load()]), set(l.up!)],
              [mix(l.ba!, l.bb!, [get(l.wp!), V.load()]), set(l.lo!)],
              // Luma (rounded) less its offset, times its scale, into `up`.
              [mix(l.up!, l.lo!, get(l.wy!)), get(l.halfv!), V.add, i32(16), V.shr],
              [get(l.yoffv!), V.sub, get(l.kyv!), V.mul, set(l.up!)],
              [get(l.u!), get(l.c128!), V.sub, set(l.u!)],
              [get(l.v!), get(l.c128!), V.sub, set(l.v!)],
              terms(l),
              get(l.op!),
              [get(l.up!), get(l.rT!), channel, get(l.up!), get(l.gT!), channel, V.narrow32],
              [get(l.up!), get(l.bT!), channel, get(l.a255!), V.narrow32],
              V.narrow16,
              set(l.lo!),
              [get(l.lo!), get(l.lo!), V.shuffle(pixels), V.store()],
              bump(l.col!, 48),
              bump(l.wp!, 16),
              bump(l.op!, 16),
              bump(l.x!, 4),
            ],
            [get(l.x!), get(l.outWidth!), LT_U],
          ),
          bump(l.rp!, 20),
          bump(l.y!, 1),
        ],
        [get(l.y!), get(l.outHeight!), LT_U],
      ),
    ];
  },
);

/** The module: memory "m" (grown by the caller), functions "full" and "scaled". */
export const MODULE = module({ full, scaled });
