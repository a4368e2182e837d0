/**
 * A WebAssembly module made into an instance once per worker, as a feature test, never the user agent: null where the
 * engine does not validate it (no SIMD) or will not compile it (a Content-Security-Policy without
 * 'wasm-unsafe-eval'). Used by yuv-wasm.ts and rgb-wasm.ts. Pure: no DOM, no worker.
 */
export function instantiate(module: Uint8Array<ArrayBuffer>): WebAssembly.Instance | null {
  try {
    if (typeof WebAssembly === 'object' && WebAssembly.validate(module))
      return new WebAssembly.Instance(new WebAssembly.Module(module));
  } catch {
    /* not compiled here: the script conversion stays */
  }
  return null;
}
