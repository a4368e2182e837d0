/**
 * I420 to RGBA in WebAssembly SIMD: the same two conversions as yuv-to-rgba.ts (`i420ToRGBA`, `i420ToRGBAScaled`),
 * the same fixed-point arithmetic, so the same bytes out (yuv-wasm.unit.test.ts), for browsers whose
 * `VideoFrame.copyTo` cannot convert (WebKitGTK 2.50). There the script conversion was the paint worker's bottleneck
 * under load (22-24 ms a bitmap beside two busy cores, NOTES.md). The module itself: yuv-wasm-module.ts.
 *
 * `wasmYuv()` is a feature test, never the user agent: undefined where `WebAssembly.validate` refuses the module (no
 * SIMD) or compiling it throws (a page whose Content-Security-Policy forbids WebAssembly): the script conversion
 * then stays. Pure: no DOM, no worker.
 */
import { coefficients, planes, type i420ToRGBA, type i420ToRGBAScaled, type YuvColourSpace } from './yuv-to-rgba.js';
import { MODULE } from './yuv-wasm-module.js';
import { instantiate } from './wasm-instance.js';

export { MODULE };

/** The conversions, with yuv-to-rgba.ts's signatures (the script's module is one). */
export interface YuvConverter {
  i420ToRGBA: typeof i420ToRGBA;
  i420ToRGBAScaled: typeof i420ToRGBAScaled;
}

/** Past the end of the source and the output: what a row's last loop turn may read or write beyond it. */
const SLACK = 64;
const align = (n: number) => (n + 15) & ~15;

class WasmYuv implements YuvConverter {
  private readonly memory: WebAssembly.Memory;
  private readonly full: (...args: number[]) => void;
  private readonly scaled: (...args: number[]) => void;

  constructor(instance: WebAssembly.Instance) {
    const e = instance.exports as {
      m: WebAssembly.Memory;
      full: (...args: number[]) => void;
      scaled: (...args: number[]) => void;
    };
    this.memory = e.m;
    this.full = e.full;
    this.scaled = e.scaled;
  }

  /** The memory's bytes, grown to at least `size`. */
  private bytes(size: number): ArrayBuffer {
    const short = size - this.memory.buffer.byteLength;
    if (short > 0) this.memory.grow(Math.ceil(short / 65536));
    return this.memory.buffer;
  }

  /** Copies the I420 bytes in at `at`. */
  private put(buffer: ArrayBuffer, at: number, src: Uint8Array, n: number): void {
    new Uint8Array(buffer, at, n).set(src.length === n ? src : src.subarray(0, n));
  }

  i420ToRGBA(
    src: Uint8Array,
    width: number,
    height: number,
    colourSpace: YuvColourSpace | undefined,
    out: Uint8ClampedArray,
  ): void {
    const { uPlane, vPlane, cw } = planes(src, width, height, out, width, height);
    const k = coefficients(colourSpace);
    const n = vPlane + (vPlane - uPlane);
    const to = align(n + SLACK);
    const size = width * height * 4;
    const buffer = this.bytes(to + size + SLACK);
    this.put(buffer, 0, src, n);
    this.full(0, to, width, height, cw, uPlane, vPlane, k.yOffset, k.y, k.rv, k.gu, k.gv, k.bu);
    out.set(new Uint8ClampedArray(this.memory.buffer, to, size));
  }

  i420ToRGBAScaled(
    src: Uint8Array,
    width: number,
    height: number,
    colourSpace: YuvColourSpace | undefined,
    out: Uint8ClampedArray,
    outWidth: number,
    outHeight: number,
  ): void {
    if (outWidth > width || outHeight > height) throw new RangeError('i420ToRGBAScaled only makes smaller pictures');
    const { uPlane, vPlane, cw } = planes(src, width, height, out, outWidth, outHeight);
    const k = coefficients(colourSpace);
    // Layout: columns (3 x i32, padded to four), weights, rows (5 x i32), the I420 bytes, the RGBA out.
    const padded = align(outWidth * 4) / 4;
    const columns = 0;
    const weights = columns + padded * 12;
    const rows = weights + padded * 4;
    const from = align(rows + outHeight * 20);
    const n = vPlane + (vPlane - uPlane);
    const to = align(from + n + SLACK);
    const size = outWidth * outHeight * 4;
    const buffer = this.bytes(to + size + SLACK);
    // The tables: the same expressions as i420ToRGBAScaled's.
    const col = new Int32Array(buffer, columns, padded * 3);
    const wx = new Int32Array(buffer, weights, padded);
    col.fill(0);
    wx.fill(0);
    for (let x = 0; x < outWidth; x++) {
      const f = Math.max(0, ((x + 0.5) * width) / outWidth - 0.5);
      const a = Math.min(width - 1, Math.floor(f));
      col[3 * x] = a;
      col[3 * x + 1] = Math.min(width - 1, a + 1);
      col[3 * x + 2] = a >> 1;
      wx[x] = Math.round((f - Math.floor(f)) * 256);
    }
    const row = new Int32Array(buffer, rows, outHeight * 5);
    for (let y = 0; y < outHeight; y++) {
      const fy = Math.max(0, ((y + 0.5) * height) / outHeight - 0.5);
      const sy = Math.min(height - 1, Math.floor(fy));
      const chroma = (sy >> 1) * cw;
      row[5 * y] = from + sy * width;
      row[5 * y + 1] = from + Math.min(height - 1, sy + 1) * width;
      row[5 * y + 2] = from + uPlane + chroma;
      row[5 * y + 3] = from + vPlane + chroma;
      row[5 * y + 4] = Math.round((fy - Math.floor(fy)) * 256);
    }
    this.put(buffer, from, src, n);
    this.scaled(to, outWidth, outHeight, columns, weights, rows, k.yOffset, k.y, k.rv, k.gu, k.gv, k.bu);
    out.set(new Uint8ClampedArray(this.memory.buffer, to, size));
  }
}

let made: YuvConverter | null | undefined;

/**
 * The WebAssembly SIMD conversions, made once; undefined where this engine does not validate the module (no SIMD)
 * or will not compile it (a Content-Security-Policy without 'wasm-unsafe-eval').
 */
export function wasmYuv(): YuvConverter | undefined {
  if (made === undefined) {
    const instance = instantiate(MODULE);
    made = instance ? new WasmYuv(instance) : null;
  }
  return made ?? undefined;
}
