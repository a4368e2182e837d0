// Microbench of the I420 -> RGBA conversions of browsers whose copyTo cannot convert (WebKitGTK): the script one
// (src/workers/yuv-to-rgba.ts) against the WebAssembly SIMD one (src/workers/yuv-wasm.ts), and of RGB -> I420 (every
// frame of a decoder that hands out BGRX, Firefox: rgb-to-i420.ts against rgb-wasm.ts), in a dedicated worker of
// each engine, on the same machine in the same minutes, alternating (script, wasm, script, ...) so load moves both
// alike. Per shape, ms a call (median and mean of CONVERT_ROUNDS rounds of 5 calls each): the conversion alone, and the bitmap as the
// paint worker makes it (conversion, putImageData, transferToImageBitmap). Shapes: a 720p frame at the bench
// player's canvas (1280x720 -> 650x366, i420ToRGBAScaled, the paint worker's every bitmap there) and a 360p frame at
// its own size (i420ToRGBA). Also checks both give the same bytes in that engine.
// `node bench/convert.mjs`; BENCH_ENGINES: a comma list (webkit when unset); BENCH_PASSES: quiet,busy1,busy2
// (all three when unset); CONVERT_ROUNDS (30).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { build } from 'esbuild';
import { enginesFromEnv } from '../test/engines.mjs';
import { load } from './profiles.mjs';
import { mean, median, runWorkerBench } from './worker-bench.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const engines = enginesFromEnv(process.env.BENCH_ENGINES || 'webkit');
const passes = (process.env.BENCH_PASSES || 'quiet,busy1,busy2').split(',');
const ROUNDS = Math.max(4, Number(process.env.CONVERT_ROUNDS) || 30);

const worker = (
  await build({
    stdin: {
      contents: `
import { i420ToRGBA, i420ToRGBAScaled } from './src/workers/yuv-to-rgba.ts';
import { wasmYuv } from './src/workers/yuv-wasm.ts';
import { rgbToI420 } from './src/workers/rgb-to-i420.ts';
import { wasmRgbToI420 } from './src/workers/rgb-wasm.ts';
const script = { i420ToRGBA, i420ToRGBAScaled };
const wasm = wasmYuv();
/** Smooth luma and chroma ramps with a little noise, as decoded video mostly is. */
function frame(w, h) {
  const cw = Math.ceil(w / 2), ch = Math.ceil(h / 2);
  const out = new Uint8Array(w * h + 2 * cw * ch);
  let s = 1;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const x = i % w, y = Math.floor(i / w);
    out[i] = i < w * h ? 16 + ((x + y) % 220) + (s >>> 29) : 96 + ((i >> 4) % 64);
  }
  return out;
}
const SHAPES = [
  { name: '720p -> 650x366 (scaled)', w: 1280, h: 720, ow: 650, oh: 366 },
  { name: '360p at its size (full)', w: 640, h: 360, ow: 640, oh: 360 },
];
onmessage = ({ data: { rounds } }) => {
  const result = { wasm: !!wasm, simdValidates: WebAssembly.validate(new Uint8Array([0,97,115,109,1,0,0,0,1,5,1,96,0,1,123,3,2,1,0,10,10,1,8,0,65,0,253,15,253,98,11])), shapes: [] };
  for (const s of SHAPES) {
    const src = frame(s.w, s.h);
    const outs = { script: new Uint8ClampedArray(s.ow * s.oh * 4), wasm: new Uint8ClampedArray(s.ow * s.oh * 4) };
    const canvas = new OffscreenCanvas(s.ow, s.oh);
    const ctx = canvas.getContext('2d');
    const run = (who, out) => s.ow === s.w ? who.i420ToRGBA(src, s.w, s.h, undefined, out) : who.i420ToRGBAScaled(src, s.w, s.h, undefined, out, s.ow, s.oh);
    const times = { script: { convert: [], bitmap: [] }, wasm: { convert: [], bitmap: [] } };
    const kinds = wasm ? ['script', 'wasm'] : ['script'];
    // Each round times BATCH calls of each (the engines' worker clocks are coarse: WebKit's ticks by 0.5-1 ms).
    const BATCH = 5;
    for (let r = 0; r < rounds; r++)
      for (const k of kinds) {
        const who = k === 'wasm' ? wasm : script;
        const t0 = performance.now();
        for (let i = 0; i < BATCH; i++) run(who, outs[k]);
        const t1 = performance.now();
        for (let i = 0; i < BATCH; i++) {
          run(who, outs[k]);
          ctx.putImageData(new ImageData(outs[k], s.ow, s.oh), 0, 0);
          canvas.transferToImageBitmap().close();
        }
        const t2 = performance.now();
        if (r >= 1) { times[k].convert.push((t1 - t0) / BATCH); times[k].bitmap.push((t2 - t1) / BATCH); }
      }
    let same = !!wasm;
    if (wasm) for (let i = 0; i < outs.script.length; i++) if (outs.script[i] !== outs.wasm[i]) { same = false; break; }
    result.shapes.push({ name: s.name, same, times });
  }
  // RGB to I420 (Firefox's decoders hand out BGRX: the decode worker's copy-out of every frame), script against wasm.
  {
    const w = 1280, h = 720;
    const src = new Uint8Array(w * h * 4);
    for (let i = 0; i < src.length; i++) src[i] = (i * 7 + (i >> 12)) & 255;
    const outs = { script: new Uint8Array(w * h * 1.5), wasm: new Uint8Array(w * h * 1.5) };
    const times = { script: { convert: [], bitmap: [] }, wasm: { convert: [], bitmap: [] } };
    const kinds = wasmRgbToI420(src.buffer, w, h, true, outs.wasm) ? ['script', 'wasm'] : ['script'];
    for (let r = 0; r < rounds; r++)
      for (const k of kinds) {
        const t0 = performance.now();
        for (let i = 0; i < 5; i++)
          if (k === 'wasm') wasmRgbToI420(src.buffer, w, h, true, outs.wasm);
          else rgbToI420(src.buffer, w, h, true, outs.script);
        if (r >= 1) times[k].convert.push((performance.now() - t0) / 5);
      }
    let same = kinds.length === 2;
    if (same) for (let i = 0; i < outs.script.length; i++) if (outs.script[i] !== outs.wasm[i]) { same = false; break; }
    result.shapes.push({ name: 'BGRX 1280x720 -> I420 (the decode worker, Firefox)', same, times });
  }
  postMessage(result);
};
`,
      resolveDir: join(here, '..'),
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    write: false,
  })
).outputFiles[0].text;

const ms = (a) => `median ${median(a).toFixed(2)} ms, mean ${mean(a).toFixed(2)} ms`;

console.log(`[convert] ${cpus().length} cores (${cpus()[0]?.model ?? 'CPU unknown'}), load average ${load()} at start`);
await runWorkerBench({
  title: 'convert',
  worker,
  engines,
  passes,
  rounds: ROUNDS,
  report: ({ version, pass, load, result }) => {
    console.log(
      `[convert] ${version}, ${pass}: ${load}; SIMD wasm validates in a worker: ${result.simdValidates}; wasm conversion in use: ${result.wasm}`,
    );
    for (const s of result.shapes) {
      console.log(`  ${s.name}: same bytes ${s.same}`);
      for (const k of Object.keys(s.times))
        if (s.times[k].convert.length)
          console.log(
            `    ${k.padEnd(6)} conversion ${ms(s.times[k].convert)}${s.times[k].bitmap.length ? `; bitmap ${ms(s.times[k].bitmap)}` : ''}`,
          );
      if (s.times.wasm.convert.length)
        console.log(
          `    wasm / script: ${(median(s.times.wasm.convert) / median(s.times.script.convert)).toFixed(2)} (medians)`,
        );
    }
  },
});
