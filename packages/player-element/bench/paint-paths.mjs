// Microbench of the ways a paint worker can turn a copied-out 720p I420 frame into an ImageBitmap of the bench
// player's canvas (650x366), in a dedicated worker of each engine, alternated round by round so load moves all alike.
// Per way, ms a bitmap (median and mean of PAINT_ROUNDS rounds of 5): see WAYS below. Also: whether each way gives the
// same picture as the product's (mean absolute difference of RGBA against it, read back through a 2D canvas).
// `node bench/paint-paths.mjs`; BENCH_ENGINES (all three when unset); BENCH_PASSES: quiet,busy1,busy2 (quiet when
// unset); PAINT_ROUNDS (20).
import { cpus } from 'node:os';
import { enginesFromEnv } from '../test/engines.mjs';
import { load } from './profiles.mjs';
import { mean, median, runWorkerBench } from './worker-bench.mjs';

const engines = enginesFromEnv(process.env.BENCH_ENGINES);
const passes = (process.env.BENCH_PASSES || 'quiet').split(',');
const ROUNDS = Math.max(4, Number(process.env.PAINT_ROUNDS) || 20);

const worker = `
const W = 1280, H = 720, OW = 650, OH = 366;
function frame() {
  const cw = W / 2, ch = H / 2;
  const out = new Uint8Array(W * H + 2 * cw * ch);
  let s = 1;
  for (let i = 0; i < out.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const x = i % W, y = Math.floor(i / W);
    out[i] = i < W * H ? 16 + ((x * 3 + y) % 220) + (s >>> 29) : 64 + ((i >> 3) % 128);
  }
  return out;
}
const src = frame();
const colorSpace = { primaries: 'bt709', transfer: 'bt709', matrix: 'bt709', fullRange: false };
const vf = () => new VideoFrame(src, { format: 'I420', codedWidth: W, codedHeight: H, timestamp: 0, colorSpace });
const rgba = new Uint8ClampedArray(W * H * 4);
const full = new OffscreenCanvas(W, H), fctx = full.getContext('2d');
const out = new OffscreenCanvas(OW, OH), octx = out.getContext('2d');
octx.imageSmoothingQuality = 'low';
const out2 = new OffscreenCanvas(OW, OH), o2ctx = out2.getContext('2d');
async function copyRGBA() { const f = vf(); try { await f.copyTo(rgba, { format: 'RGBA' }); } finally { f.close(); } }
let gl, glCanvas, glTex, glReady = false;
function setupGL() {
  glCanvas = new OffscreenCanvas(OW, OH);
  gl = glCanvas.getContext('webgl2', { antialias: false, depth: false, premultipliedAlpha: false, preserveDrawingBuffer: false });
  if (!gl) return false;
  const vs = '#version 300 es\\nin vec2 p; out vec2 uv; void main(){ uv = vec2((p.x+1.)*.5, (1.-p.y)*.5); gl_Position = vec4(p,0.,1.); }';
  const fs = '#version 300 es\\nprecision mediump float; in vec2 uv; uniform sampler2D y, u, v; out vec4 o;' +
    'void main(){ float Y = 1.1643836*(texture(y,uv).r-0.0627451); float U = texture(u,uv).r-0.5; float V = texture(v,uv).r-0.5;' +
    'o = vec4(Y+1.7927411*V, Y-0.2132486*U-0.5329093*V, Y+2.1124018*U, 1.); }';
  const sh = (t, s) => { const x = gl.createShader(t); gl.shaderSource(x, s); gl.compileShader(x); if (!gl.getShaderParameter(x, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(x)); return x; };
  const p = gl.createProgram(); gl.attachShader(p, sh(gl.VERTEX_SHADER, vs)); gl.attachShader(p, sh(gl.FRAGMENT_SHADER, fs)); gl.linkProgram(p); gl.useProgram(p);
  const b = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, b); gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1,-1,1,-1,-1,1,1,1]), gl.STATIC_DRAW);
  const loc = gl.getAttribLocation(p, 'p'); gl.enableVertexAttribArray(loc); gl.vertexAttribPointer(loc, 2, gl.FLOAT, false, 0, 0);
  glTex = ['y','u','v'].map((n, i) => { const t = gl.createTexture(); gl.activeTexture(gl.TEXTURE0 + i); gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.uniform1i(gl.getUniformLocation(p, n), i); return t; });
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.viewport(0, 0, OW, OH);
  return true;
}
function glBitmap() {
  const planes = [[0, W, H], [W * H, W / 2, H / 2], [W * H * 5 / 4, W / 2, H / 2]];
  planes.forEach(([off, w, h], i) => { gl.activeTexture(gl.TEXTURE0 + i); gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, w, h, 0, gl.RED, gl.UNSIGNED_BYTE, src, off); });
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  return glCanvas.transferToImageBitmap();
}
const WAYS = {
  // The product today: copyTo RGBA, put at 1280x720, drawn scaled, transferred.
  product: async () => { await copyRGBA(); fctx.putImageData(new ImageData(rgba, W, H), 0, 0); octx.drawImage(full, 0, 0, OW, OH); return out.transferToImageBitmap(); },
  'copyTo only': async () => { await copyRGBA(); },
  'copyTo + putImageData (no scale)': async () => { await copyRGBA(); fctx.putImageData(new ImageData(rgba, W, H), 0, 0); },
  'drawImage scale only': async () => { octx.drawImage(full, 0, 0, OW, OH); return out.transferToImageBitmap(); },
  'copyTo + createImageBitmap(ImageData, resize)': async () => { await copyRGBA(); return createImageBitmap(new ImageData(rgba, W, H), { resizeWidth: OW, resizeHeight: OH, resizeQuality: 'low' }); },
  'createImageBitmap(VideoFrame, resize)': async () => { const f = vf(); try { return await createImageBitmap(f, { resizeWidth: OW, resizeHeight: OH, resizeQuality: 'low' }); } finally { f.close(); } },
  'drawImage(VideoFrame) scaled': async () => { const f = vf(); try { o2ctx.drawImage(f, 0, 0, OW, OH); return out2.transferToImageBitmap(); } finally { f.close(); } },
  'webgl2 planes': async () => glBitmap(),
};
async function pixels(bitmap) {
  const c = new OffscreenCanvas(OW, OH), x = c.getContext('2d'); x.drawImage(bitmap, 0, 0); return x.getImageData(0, 0, OW, OH).data;
}
onmessage = async ({ data: { rounds } }) => {
  const result = { webgl: false, ways: {}, diff: {}, errors: {} };
  try { result.webgl = setupGL(); if (result.webgl) result.renderer = gl.getParameter(gl.RENDERER); } catch (e) { result.errors.webgl = String(e); }
  const names = Object.keys(WAYS).filter((n) => n !== 'webgl2 planes' || result.webgl);
  let ref;
  for (const n of names) {
    try { const b = await WAYS[n](); if (b) { const p = await pixels(b); b.close(); if (n === 'product') ref = p; else if (ref) { let s = 0; for (let i = 0; i < p.length; i += 4) s += Math.abs(p[i]-ref[i]) + Math.abs(p[i+1]-ref[i+1]) + Math.abs(p[i+2]-ref[i+2]); result.diff[n] = s / (p.length / 4 * 3); } } }
    catch (e) { result.errors[n] = String(e); }
    result.ways[n] = [];
  }
  const ok = names.filter((n) => !result.errors[n]);
  for (let r = 0; r < rounds; r++)
    for (const n of ok) {
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) { const b = await WAYS[n](); b?.close(); }
      if (r >= 1) result.ways[n].push((performance.now() - t0) / 5);
    }
  postMessage(result);
};
`;

console.log(`[paint] ${cpus().length} cores (${cpus()[0]?.model ?? 'CPU unknown'}), load average ${load()} at start`);
await runWorkerBench({
  title: 'paint paths',
  worker,
  engines,
  passes,
  rounds: ROUNDS,
  report: ({ version, pass, load, result }) => {
    console.log(
      `[paint] ${version}, ${pass}: ${load}; webgl2 in a worker: ${result.webgl}${result.renderer ? ` (${result.renderer})` : ''}`,
    );
    for (const [n, t] of Object.entries(result.ways))
      console.log(
        `  ${n.padEnd(46)} ${result.errors[n] ? `fails: ${result.errors[n]}` : `median ${median(t).toFixed(2)} ms, mean ${mean(t).toFixed(2)} ms`}${n in result.diff ? `; differs from the product's by ${result.diff[n].toFixed(2)}/255` : ''}`,
      );
    if (result.errors.webgl) console.log(`  webgl setup: ${result.errors.webgl}`);
  },
});
