/**
 * RGB to I420 in WebAssembly SIMD: rgb-to-i420.ts's `rgbToI420`, the same fixed-point arithmetic, so the same bytes out
 * (rgb-to-i420.unit.test.ts), for every frame of a decoder that hands out RGB (Firefox ESR: BGRX), where the script
 * conversion cost the decode worker 5 ms or more a 720p frame. The module itself: rgb-wasm-module.ts.
 *
 * A feature test, never the user agent: false where `WebAssembly.validate` refuses the module (no SIMD) or compiling
 * it throws (a Content-Security-Policy without 'wasm-unsafe-eval'), and for a shape it does not convert (a width that
 * is not a multiple of 8, an odd height): the script conversion then runs. Pure: no DOM, no worker.
 */
import { BT601, checkSizes, rgbCoefficients, type RgbToI420Options } from './rgb-to-i420.js';
import { MODULE } from './rgb-wasm-module.js';
import { instantiate } from './wasm-instance.js';

class WasmRgb {
  private readonly memory: WebAssembly.Memory;
  private readonly rgb: (...args: number[]) => void;

  constructor(instance: WebAssembly.Instance) {
    const e = instance.exports as { m: WebAssembly.Memory; rgb: (...args: number[]) => void };
    this.memory = e.m;
    this.rgb = e.rgb;
  }

  convert(
    src: ArrayBuffer,
    width: number,
    height: number,
    bgr: boolean,
    out: Uint8Array,
    options: RgbToI420Options = BT601,
  ): boolean {
    if (width % 8 || height % 2 || !width || !height) return false;
    checkSizes(src, width, height, out);
    const n = width * height * 4;
    const size = (width * height * 3) / 2;
    // Layout: the RGB in at 0, the I420 out after it (16-byte aligned).
    const to = (n + 15) & ~15;
    const short = to + size - this.memory.buffer.byteLength;
    if (short > 0) this.memory.grow(Math.ceil(short / 65536));
    new Uint8Array(this.memory.buffer, 0, n).set(new Uint8Array(src, 0, n));
    const k = rgbCoefficients(options);
    // The coefficients of the pixel's bytes 0, 1, 2: R, G, B, or B, G, R.
    const [y0, y2, u0, u2, v0, v2] = bgr ? [k.YB, k.YR, k.UB, k.UR, k.VB, k.VR] : [k.YR, k.YB, k.UR, k.UB, k.VR, k.VB];
    const u = to + width * height;
    const v = u + (width / 2) * (height / 2);
    const { lo, hi } = options.ends;
    this.rgb(0, to, width, height, u, v, y0, k.YG, y2, u0, k.UG, u2, v0, k.VG, v2, lo, hi);
    out.set(new Uint8Array(this.memory.buffer, to, size));
    return true;
  }
}

let made: WasmRgb | null | undefined;

/**
 * `rgbToI420`'s arguments: true once converted, false where this engine has no such module or the shape is not one it
 * converts (the caller then runs the script's).
 */
export function wasmRgbToI420(...args: Parameters<WasmRgb['convert']>): boolean {
  if (made === undefined) {
    const instance = instantiate(MODULE);
    made = instance ? new WasmRgb(instance) : null;
  }
  return made ? made.convert(...args) : false;
}
