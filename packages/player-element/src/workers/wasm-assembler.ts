/**
 * A small WebAssembly assembler: instructions as nested lists of bytes, LEB128, sections, functions with named
 * locals. yuv-wasm-module.ts writes its conversions with it; nothing else ships it (the build runs that module once
 * and keeps only the bytes, scripts/build.mjs `wasmModule`).
 */
export type Code = number | Code[];
/** The instructions as one list of bytes. */
function bytes(...code: Code[]): number[] {
  const out: number[] = [];
  const walk = (c: Code): void => {
    if (typeof c === 'number') out.push(c);
    else for (const part of c) walk(part);
  };
  walk(code);
  return out;
}

/** Unsigned and signed LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}
const vec = (items: Code[]): number[] => [...uleb(items.length), ...bytes(items)];
const section = (id: number, content: number[]): number[] => [id, ...uleb(content.length), ...content];
const text = (s: string): number[] => vec([...s].map((c) => c.charCodeAt(0)));

// Scalar instructions.
export const get = (i: number) => [0x20, ...uleb(i)];
export const set = (i: number) => [0x21, ...uleb(i)];
export const i32 = (n: number) => [0x41, ...sleb(n)];
export const ADD = 0x6a;
export const MUL = 0x6c;
export const SHL = 0x74;
export const SHR_U = 0x76;
export const LT_U = 0x49;
/** i32.load / i32.load8_u at a constant offset from the address on the stack. */
export const load = (offset = 0) => [0x28, 2, ...uleb(offset)];
export const load8 = (offset = 0) => [0x2d, 0, ...uleb(offset)];
/** A do-while loop: `body`, then again while `cond` (an i32) is not zero. */
export const doWhile = (body: Code[], cond: Code[]) => [0x03, 0x40, body, cond, 0x0d, 0, 0x0b];
/** local[i] += n. */
export const bump = (i: number, n: number | Code[]) => [get(i), typeof n === 'number' ? i32(n) : n, ADD, set(i)];

// SIMD instructions (prefix 0xfd; memory alignment hints 0).
const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
export const V = {
  load: (offset = 0) => simd(0x00, 0, ...uleb(offset)),
  /** 8 bytes, zero-extended to i16x8. */
  load8x8: (offset = 0) => simd(0x02, 0, ...uleb(offset)),
  /** 4 bytes into the low lanes, the rest zero. */
  load32: (offset = 0) => simd(0x5c, 0, ...uleb(offset)),
  store: (offset = 0) => simd(0x0b, 0, ...uleb(offset)),
  shuffle: (lanes: number[]) => simd(0x0d, ...lanes),
  splat16: simd(0x10),
  splat: simd(0x11),
  replace: (lane: number) => simd(0x1c, lane),
  /** i16x8.extend_low_i8x16_u, i32x4.extend_low / high_i16x8_u. */
  widen8: simd(0x89),
  widenLow: simd(0xa9),
  widenHigh: simd(0xaa),
  /** i16x8.narrow_i32x4_s and i8x16.narrow_i16x8_u: together, a clamp of i32 lanes to 0..255. */
  narrow32: simd(0x85),
  narrow16: simd(0x66),
  shl: simd(0xab),
  shr: simd(0xac),
  add: simd(0xae),
  sub: simd(0xb1),
  mul: simd(0xb5),
  /** 8 or 4 bytes of lane 0 stored (v128.store64_lane, v128.store32_lane). */
  store64: (offset = 0) => simd(0x5b, 0, ...uleb(offset), 0),
  store32: (offset = 0) => simd(0x5a, 0, ...uleb(offset), 0),
  add16: simd(0x8e),
  /** i32x4.extadd_pairwise_i16x8_u: lanes 2k and 2k + 1 added, as i32. */
  pairs: simd(0x7f),
  leS: simd(0x3d),
  geS: simd(0x3f),
  andnot: simd(0x4f),
  bitselect: simd(0x52),
};
const I32 = 0x7f;
const V128 = 0x7b;

/** A function body: its locals by name (parameters first, then i32s, then v128s) handed to `code`. */
export function func(params: string[], i32s: string[], v128s: string[], code: (l: Record<string, number>) => Code[]) {
  const l: Record<string, number> = {};
  for (const [i, name] of [...params, ...i32s, ...v128s].entries()) l[name] = i;
  const body = [
    ...vec([
      [...uleb(i32s.length), I32],
      [...uleb(v128s.length), V128],
    ]),
    ...bytes(code(l)),
    0x0b,
  ];
  return { params: params.length, body: [...uleb(body.length), ...body] };
}

/** local[name] = i32x4.splat(local[param]) for each pair. */
export const splats = (l: Record<string, number>, pairs: [string, string | number][]) =>
  pairs.map(([to, from]) => [typeof from === 'number' ? i32(from) : get(l[from]!), V.splat, set(l[to]!)]);

/** A module of i32-parameter functions without results over one exported memory "m", each exported by its name. */
export function module(funcs: Record<string, ReturnType<typeof func>>): Uint8Array<ArrayBuffer> {
  const list = Object.values(funcs);
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(list.map((f) => [0x60, vec(Array(f.params).fill(I32)), vec([])]))),
    ...section(3, vec(list.map((_, i) => i))),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[text('m'), 0x02, 0], ...Object.keys(funcs).map((name, i) => [text(name), 0x00, i])])),
    ...section(10, vec(list.map((f) => f.body))),
  ]);
}
