/**
 * Privacy (face blur) benchmark: `npm run bench:privacy -w packages/server`.
 *
 * Source: a generated 20 s 1080p30 H.264 video, face-heavy: four real face photographs (test/support/faces.ts) over a
 * moving testsrc2 background with light sensor-like noise — one sliding steadily (300 px), one swinging on a
 * curve (180 px), one small face crossing the picture (120 px), one appearing and disappearing (150 px). Their
 * positions are known for every frame.
 *
 * The media core runs with blurring off (the baseline) and on, RUNS times each (default 2), alternating; the best
 * wall time of each counts (the machine is shared). CPU time (own, all threads, + reaped ffmpeg children) is printed
 * too, and per blurred run the filter's figures: time the detection thread spent on the samples, time the filter
 * waited for its answers (detection left on the critical path) and time spent blurring.
 *
 * Recall, on the clips of the last run, for every 720p frame and every face shown in it:
 * - hidden: the detail left inside the face (mean |Laplacian| of its inner 76 %) is below 40 % of the unblurred
 *   clip's — the face is covered by a blur box in that frame;
 * - detectable: BlazeFace (0.5) still finds a face on the face in the blurred 360p frame (should be 0).
 * Detector recall: share of the faces shown that BlazeFace finds at the blurring threshold on the unblurred 360p
 * frames (what one detection sees; the blur's recall is higher because boxes carry over between samples).
 *
 * False positives: the blur filter runs over face-free footage (test/support/face-free.ts: lavfi test patterns and
 * textures, generated rooms, a face-free photo a package ships; FP_SECONDS each, default 8) and counts frames that
 * got any box (target ≤ 1 %) and the largest box. Precision (frames): blurred frames that show a face ÷ all blurred
 * frames, over the face source and the face-free footage together.
 *
 * Then faces that come and go (bench/privacy-brief.ts): what the sampler's sentinels find on face-free footage that a
 * face visits for 0.5–3.3 s, for each sentinel spacing in BENCH_SPARSE. BENCH_BRIEF=0 leaves that part out, `only`
 * runs nothing else.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processVideo, type ProcessVideoResult } from '../src/media/process-video.js';
import { faceBlurFilter, type FaceBlurStats } from '../src/media/blur-faces.js';
import { BLUR_MIN_SCORE } from '../src/media/face-detect.js';
import { CLIP_FPS } from '../src/media/encoding.js';
import { decodeRgb, energy, faceVideo, facesAt, type MovingFace, type Rect } from '../test/support/faces.js';
import { detectFaces, loadFaceDetector } from '../src/media/faces.js';
import { timed, type Timing } from './timing.js';
import { blurStats, faceFreeFrames, faceFreeSources } from '../test/support/face-free.js';
import { briefFaces } from './privacy-brief.js';

const SECONDS = 20;
const RUNS = Math.max(1, Number(process.env.RUNS ?? 2));
const TARGET_OVERHEAD = 0.5;
const FP_SECONDS = Math.max(1, Number(process.env.FP_SECONDS ?? 8));
const TARGET_FP_RATE = 0.01;
const cacheDir = join(tmpdir(), 'roomwalk-bench');
const source = join(cacheDir, 'faces-1080p30-20s-v1.mp4');

export const BENCH_FACES: MovingFace[] = [
  { crop: 0, size: 300, x: ['100+60*t', (t) => 100 + 60 * t], y: ['80', () => 80] },
  {
    crop: 1,
    size: 180,
    x: ['960+500*sin(0.5*t)', (t) => 960 + 500 * Math.sin(0.5 * t)],
    y: ['700+60*sin(1.3*t)', (t) => 700 + 60 * Math.sin(1.3 * t)],
  },
  { crop: 2, size: 120, x: ['1750-70*t', (t) => 1750 - 70 * t], y: ['420', () => 420] },
  {
    crop: 3,
    size: 150,
    x: ['200', () => 200],
    y: ['700', () => 700],
    shown: [
      [6, 9],
      [14, 16],
    ],
  },
];

async function generateSource(): Promise<void> {
  if (existsSync(source)) return;
  await mkdir(cacheDir, { recursive: true });
  console.log('Generating the 20 s 1080p30 face source (once)...');
  const partial = `${source}.part.mp4`;
  await faceVideo(partial, {
    width: 1920,
    height: 1080,
    fps: 30,
    seconds: SECONDS,
    background: 'testsrc2=size=1920x1080:rate=30,noise=alls=4:allf=t',
    faces: BENCH_FACES,
    dir: cacheDir,
  });
  await rename(partial, source);
  await Promise.all(BENCH_FACES.map((_, k) => rm(join(cacheDir, `face-${k}.png`), { force: true })));
}

/** Known face rectangles of output frame n at 1280x720 (source is 1920x1080: 2/3), inset to the face's inner 76 %. */
function knownFaces(n: number): Array<Rect & { face: number }> {
  const k = 1280 / 1920;
  return facesAt(BENCH_FACES, n / CLIP_FPS)
    .map((f) => {
      const inset = Math.round(f.w * k * 0.12);
      return {
        face: f.face,
        x: Math.round(f.x * k) + inset,
        y: Math.round(f.y * k) + inset,
        w: Math.round(f.w * k) - 2 * inset,
        h: Math.round(f.h * k) - 2 * inset,
      };
    })
    .filter((r) => r.x >= 0 && r.y >= 0 && r.x + r.w <= 1280 && r.y + r.h <= 720);
}

async function recall(plain: ProcessVideoResult, blurred: ProcessVideoResult) {
  let shown = 0;
  let hidden = 0;
  let detectable = 0;
  let detected = 0;
  const missedAt: number[] = [];
  const leakAt: string[] = [];
  let n = 0;
  const clips = [...blurred.clips].sort((a, b) => a.index - b.index);
  for (const [k, c] of clips.entries()) {
    const p = plain.clips[k]!;
    const [hiB, hiP, loB, loP] = await Promise.all([
      decodeRgb(c.highPath, 1280, 720),
      decodeRgb(p.highPath, 1280, 720),
      decodeRgb(c.lowPath, 640, 360),
      decodeRgb(p.lowPath, 640, 360),
    ]);
    for (let i = 0; i < hiB.length; i++, n++) {
      const faces = knownFaces(n);
      if (!faces.length) continue;
      const inB = (await detectFaces(loB[i]!, 640, 360, 0.5)).map((d) => ({
        cx: (d.x + d.width / 2) * 2,
        cy: (d.y + d.height / 2) * 2,
      }));
      const inP = (await detectFaces(loP[i]!, 640, 360, BLUR_MIN_SCORE)).map((d) => ({
        cx: (d.x + d.width / 2) * 2,
        cy: (d.y + d.height / 2) * 2,
      }));
      const on = (r: Rect) => (d: { cx: number; cy: number }) =>
        d.cx >= r.x && d.cx <= r.x + r.w && d.cy >= r.y && d.cy <= r.y + r.h;
      for (const r of faces) {
        shown++;
        if (energy(hiB[i]!, 1280, r) < 0.4 * energy(hiP[i]!, 1280, r)) hidden++;
        else missedAt.push(n);
        if (inB.some(on(r))) {
          detectable++;
          leakAt.push(`${n}/face ${r.face}`);
        }
        if (inP.some(on(r))) detected++;
      }
    }
  }
  return { shown, hidden, detectable, detected, missedAt, leakAt };
}

/** The blur filter over each face-free source: frames, frames with any box, the largest box (share of the frame). */
async function falsePositives() {
  const per: Array<{ name: string; frames: number; blurred: number; largest: number }> = [];
  for (const src of faceFreeSources()) {
    const st = await blurStats(await faceFreeFrames(src, FP_SECONDS));
    per.push({ name: src.name, frames: st.frames, blurred: st.blurredFrames, largest: st.largestBoxShare ?? 0 });
  }
  return per;
}

async function main(): Promise<void> {
  if (process.env.BENCH_BRIEF === 'only') return briefFaces(cacheDir);
  await generateSource();
  await loadFaceDetector();
  const work = join(cacheDir, 'privacy-run');
  const off: Timing[] = [];
  const on: Timing[] = [];
  let plain: ProcessVideoResult | null = null;
  let blurred: ProcessVideoResult | null = null;
  let stats: FaceBlurStats | null = null;
  await rm(work, { recursive: true, force: true });
  for (let i = 0; i < RUNS; i++) {
    for (const which of ['off', 'on'] as const) {
      const dir = join(work, which);
      await rm(dir, { recursive: true, force: true });
      // What withFaceBlur does with the tour's switch on, with the filter's own figures kept.
      stats = { frames: 0, samples: 0, detections: 0, blurredFrames: 0, detectSeconds: 0, blurSeconds: 0 };
      const filter = faceBlurFilter({ stats });
      const r = await timed(() =>
        processVideo({ input: source, workDir: dir, ...(which === 'on' ? { frameFilter: filter } : {}) }),
      );
      (which === 'off' ? off : on).push(r.timing);
      if (which === 'off') plain = r.value;
      else blurred = r.value;
      const inside =
        which === 'on'
          ? `; ${stats!.samples} samples (${stats!.samples - (stats!.trackedSamples ?? 0)} detected, ${stats!.trackedSamples ?? 0} followed, ${stats!.skippedSamples ?? 0} left out) took ${stats!.detectSeconds.toFixed(2)} s (detection thread), waited for ${(stats!.detectWaitSeconds ?? 0).toFixed(2)} s; blurring ${stats!.blurSeconds.toFixed(2)} s`
          : '';
      console.log(
        `run ${i + 1} blur ${which.padEnd(3)} wall ${r.timing.wall.toFixed(2)} s, cpu ${r.timing.cpu.toFixed(2)} s${inside}`,
      );
    }
  }
  const best = (ts: Timing[], k: keyof Timing) => Math.min(...ts.map((t) => t[k]));
  const rec = await recall(plain!, blurred!);
  const facesBlurred = stats!.blurredFrames;
  const fp = await falsePositives();
  await rm(work, { recursive: true, force: true });
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
  const overhead = best(on, 'wall') / best(off, 'wall') - 1;
  console.log('');
  console.log(
    `source: ${SECONDS} s 1920x1080 30 fps, ${BENCH_FACES.length} moving faces; clips at ${CLIP_FPS} fps, ${plain!.clips.length} clips`,
  );
  console.log(
    `processing, blur off       ${best(off, 'wall').toFixed(2)} s wall, ${best(off, 'cpu').toFixed(2)} s cpu (best of ${RUNS})`,
  );
  console.log(
    `processing, blur on        ${best(on, 'wall').toFixed(2)} s wall, ${best(on, 'cpu').toFixed(2)} s cpu (best of ${RUNS})`,
  );
  console.log(
    `on ÷ off                   ${(best(on, 'wall') / best(off, 'wall')).toFixed(2)} wall, ${(best(on, 'cpu') / best(off, 'cpu')).toFixed(2)} cpu`,
  );
  console.log(
    `blur overhead              ${overhead.toFixed(2)}× processing time   target ≤ ${TARGET_OVERHEAD}  ${overhead <= TARGET_OVERHEAD ? 'ok' : 'OVER TARGET'}`,
  );
  console.log(
    `faces hidden (recall)      ${rec.hidden}/${rec.shown} = ${pct(rec.hidden, rec.shown)}${rec.missedAt.length ? `   missed at frames ${[...new Set(rec.missedAt)].slice(0, 20).join(', ')}` : ''}`,
  );
  console.log(
    `still detectable (0.5)     ${rec.detectable}/${rec.shown}${rec.leakAt.length ? `   at frame/face ${rec.leakAt.slice(0, 10).join(', ')}` : ''}`,
  );
  console.log(
    `detector recall per frame  ${rec.detected}/${rec.shown} = ${pct(rec.detected, rec.shown)} (unblurred 360p, threshold ${BLUR_MIN_SCORE})`,
  );
  const fpFrames = fp.reduce((n, x) => n + x.frames, 0);
  const fpBlurred = fp.reduce((n, x) => n + x.blurred, 0);
  const fpRate = fpBlurred / fpFrames;
  console.log('');
  console.log(`face-free footage (${FP_SECONDS} s each at ${CLIP_FPS} fps, 1280x720):`);
  for (const x of fp)
    console.log(
      `  ${x.name.padEnd(38)} ${String(x.blurred).padStart(4)}/${x.frames} frames with a box${x.blurred ? `, largest box ${pct(x.largest, 1)} of the frame` : ''}`,
    );
  console.log(
    `false-positive frames       ${fpBlurred}/${fpFrames} = ${pct(fpBlurred, fpFrames)}   target ≤ ${pct(TARGET_FP_RATE, 1)}  ${fpRate <= TARGET_FP_RATE ? 'ok' : 'OVER TARGET'}`,
  );
  // Every frame of the face source shows a face: its blurred frames are true positives.
  console.log(
    `precision (frames)          ${facesBlurred}/${facesBlurred + fpBlurred} = ${pct(facesBlurred, facesBlurred + fpBlurred)}`,
  );
  console.log(`recall (faces hidden)       ${rec.hidden}/${rec.shown} = ${pct(rec.hidden, rec.shown)}`);
  if (process.env.BENCH_BRIEF !== '0') await briefFaces(cacheDir);
}

await main();
