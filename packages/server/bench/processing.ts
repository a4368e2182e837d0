/**
 * Processing benchmark: `npm run bench:processing -w packages/server`.
 *
 * Sources (bench/processing-sources.ts, generated once and cached in the OS temp folder):
 * - `hd`: a 60 s 1080p30 H.264 phone video (16 Mbit/s, motion and detail everywhere);
 * - `clip`: the held-out iPhone-like clip, 11 s of 4K60 HEVC Main 10, HLG, rotated 90°, B-frames;
 * - `mezzanine`: what the console's on-device conversion uploads where the device cannot make the clip format, 60 s
 *   1080x1920 30 fps H.264;
 * - `converted`: what it uploads where it can, 60 s 720x1280 15 fps H.264 in the clip format (720p clips copied);
 * - `phone` (not by default): 60 s of the clip's format.
 *
 * Per source and run (RUNS, default 3), one after the other: a bare full decode (`ffmpeg -i src -f null -`), then the
 * steps one command at a time (processing-measure.ts): probe; decode as the product decodes; + the normalising graph
 * (scale); + the 720p encode (encode high); + the 360p encode (encode low); the whole processing without and with the
 * face pass (faces = the difference; the pass takes a started detection thread, whose start is measured just before
 * it as its own line: `startThread`) and storing its clips (local disk). Printed per step: CPU seconds per source
 * second and wall seconds, median and worst of the runs, with the load average (1 min) at each run; then the
 * processing (probe + processVideo + store) ÷ the bare full decode of the same run, wall and CPU, without faces, with
 * them, and with them and the thread's start (`faces+start`: a video that comes more than a minute after the worker's
 * last one). CPU is ffmpeg's user+system (reaped children) plus this process's own (the face thread included): the machine
 * is shared, so wall times move with whatever else runs and CPU seconds are the comparable figure.
 *
 * With the hd source and a converted one in the same run, the converted processing ÷ the hd's is printed per run pair
 * (the issue's goal for the converted upload: ≤ 0.25 of the original's).
 *
 * BENCH_SOURCES=hd,clip,mezzanine,converted,phone chooses the sources. BENCH_STEPS=0 leaves out the per-step commands
 * (decode, scale, the encodes: a run is then the bare decode, the probe and the processing with and without faces), for
 * a loaded machine where a full run of the hd source takes most of an hour. BENCH_MEDIA_DIR=<dir> runs the processing and the face
 * pass of another copy of src/media (a before/after comparison in one run).
 */
import { readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import type * as Media from '../src/media/process-video.js';
import type * as Blur from '../src/media/blur-faces.js';
import type * as Thread from '../src/media/face-detector-thread.js';
import { bareDecode, pipeline, productDecode, productEncode, productScale, store } from './processing-measure.js';
import {
  cacheDir,
  convertedSource,
  hdSource,
  mezzanineSource,
  phoneClipSource,
  phoneSource,
  type BenchSource,
} from './processing-sources.js';
import { timed, type Timing } from './timing.js';

const RUNS = Math.max(1, Number(process.env.RUNS ?? 3));
const STEP_COMMANDS = process.env.BENCH_STEPS !== '0';
const SOURCES = (process.env.BENCH_SOURCES ?? 'hd,clip,mezzanine,converted').split(',').map((s) => s.trim());
/** The issue's targets: the 4K60 HEVC clip's processing ≤ 0.6× a bare full decode (median of three). */
const CLIP_DECODE_TARGET = 0.6;
/** A converted upload's processing ≤ 0.25 of the original's (median of three). */
const CONVERTED_TARGET = 0.25;
const mediaModule = process.env.BENCH_MEDIA_DIR
  ? join(resolve(process.env.BENCH_MEDIA_DIR), 'process-video.ts')
  : '../src/media/process-video.js';
const media = (await import(mediaModule)) as typeof Media;
const { faceBlurFilter } = (await import(
  process.env.BENCH_MEDIA_DIR
    ? join(resolve(process.env.BENCH_MEDIA_DIR), 'blur-faces.ts')
    : '../src/media/blur-faces.js'
)) as typeof Blur;
const { FaceDetectorThread } = (await import(
  process.env.BENCH_MEDIA_DIR
    ? join(resolve(process.env.BENCH_MEDIA_DIR), 'face-detector-thread.ts')
    : '../src/media/face-detector-thread.js'
)) as typeof Thread;

/**
 * The detection thread's start (TensorFlow.js, the model, a first detection), measured on its own: a thread is stopped,
 * a new one answers one 1280x720 frame and is kept, so the face pass that follows takes a started thread. A worker pays
 * the start once per video that comes more than a minute after its last one (face-detector-thread.ts), and not at all
 * for the others; measured apart, the start lands on no source by the order of the runs (before, the first source of a
 * bench process paid it and the others took its thread).
 */
async function startThread(): Promise<void> {
  // A media core from before kept threads (BENCH_MEDIA_DIR at cc41a6e, when issue 43 was filed) starts one in each
  // face pass: its `with faces` holds the start, to be compared with `faces+start` here.
  if (!('take' in FaceDetectorThread)) return;
  await FaceDetectorThread.stopKept();
  const t = FaceDetectorThread.take();
  await t.detect(Buffer.alloc(1280 * 720 * 1.5, 128), 1280, 720);
  await t.release();
}

const load = () => loadavg()[0]!;

type Measure = Timing & { load: number };
const STEPS = ['probe', 'decode', 'scale', 'encode high', 'encode low', 'faces', 'store'] as const;
type Step = (typeof STEPS)[number];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const worst = (xs: number[]) => Math.max(...xs);
const f2 = (n: number) => n.toFixed(2);

/** Times `fn` and prints the figure at once (a run on a loaded machine takes many minutes). */
async function measure<T>(name: string, fn: () => Promise<T>): Promise<{ m: Measure; value: T }> {
  const l = load();
  const { timing, value } = await timed(fn);
  const m = { ...timing, load: Math.max(l, load()) };
  console.log(
    `  ${name.padEnd(22)} ${f2(m.wall).padStart(8)} s wall ${f2(m.cpu).padStart(8)} s cpu   load ${f2(l)} -> ${f2(load())}`,
  );
  return { m, value };
}

interface Run {
  bare: Measure;
  whole: Measure;
  /** With a started detection thread; `start` is its start, measured apart. */
  wholeFaces: Measure;
  start: Measure;
  steps: Record<Step, Measure>;
}

const minus = (a: Measure, b: Measure): Measure => ({
  wall: Math.max(0, a.wall - b.wall),
  cpu: Math.max(0, a.cpu - b.cpu),
  load: Math.max(a.load, b.load),
});
const plus = (...ms: Measure[]): Measure => ({
  wall: ms.reduce((n, m) => n + m.wall, 0),
  cpu: ms.reduce((n, m) => n + m.cpu, 0),
  load: Math.max(...ms.map((m) => m.load)),
});

/** The processing figures compared: without faces, with them (a started thread), and with the thread's start too. */
const VARIANTS = [
  ['no faces', (r: Run) => r.whole],
  ['with faces', (r: Run) => r.wholeFaces],
  ['faces+start', (r: Run) => plus(r.wholeFaces, r.start)],
] as const;

async function oneRun(src: BenchSource, i: number): Promise<Run> {
  const work = join(cacheDir, 'run');
  const bare = (await measure('bare full decode', () => bareDecode(src))).m;
  const probed = await measure('probe', () => media.probeVideo(src.path));
  const probe = probed.value;
  if (i === 0)
    console.log(
      `  clip format: ${probe.clipFormat?.copy ? 'yes, 720p clips copied' : 'no'} (${probe.clipFormat?.why})`,
    );
  const none: Measure = { wall: 0, cpu: 0, load: load() };
  const step = async (name: string, fn: () => Promise<void>) => (STEP_COMMANDS ? (await measure(name, fn)).m : none);
  const decode = await step('decode', () => productDecode(src, probe));
  const scale = await step('decode + scale', () => productScale(src, probe));
  const high = await step('+ encode high', () => productEncode(src, probe, 'high', join(work, 'high')));
  const low = await step('+ encode low', () => productEncode(src, probe, 'low', join(work, 'low')));
  await rm(work, { recursive: true, force: true });
  const off = await measure('processVideo', () =>
    pipeline(media, faceBlurFilter, src, probe, false, join(work, 'off')),
  );
  const stored = (await measure('store', () => store(off.value, join(work, 'storage')))).m;
  if (i === 0) await printClips(src, off.value);
  await rm(work, { recursive: true, force: true });
  const start = (await measure('detection thread start', startThread)).m;
  const on = (
    await measure('processVideo + faces', () => pipeline(media, faceBlurFilter, src, probe, true, join(work, 'on')))
  ).m;
  await rm(work, { recursive: true, force: true });
  const steps: Record<Step, Measure> = {
    probe: probed.m,
    decode,
    scale: minus(scale, decode),
    'encode high': minus(high, scale),
    'encode low': minus(low, scale),
    faces: minus(on, off.m),
    store: stored,
  };
  const r = { bare, whole: plus(probed.m, off.m, stored), wholeFaces: plus(probed.m, on, stored), start, steps };
  console.log(
    `run ${i + 1}: bare decode ${f2(bare.wall)} s wall ${f2(bare.cpu)} cpu; processing ${f2(r.whole.wall)} s wall ${f2(r.whole.cpu)} cpu, with faces ${f2(r.wholeFaces.wall)} s wall ${f2(r.wholeFaces.cpu)} cpu; load up to ${f2(Math.max(bare.load, r.wholeFaces.load))}`,
  );
  return r;
}

async function printClips(src: BenchSource, r: Media.ProcessVideoResult): Promise<void> {
  const sizes = async (paths: string[]) => Promise.all(paths.map(async (p) => (await stat(p)).size));
  const high = await sizes(r.clips.map((c) => c.highPath));
  const low = await sizes(r.clips.map((c) => c.lowPath));
  const kb = (xs: number[]) => `${(xs.reduce((a, b) => a + b, 0) / xs.length / 1000).toFixed(1)} KB mean`;
  console.log(
    `${src.name}: ${r.clips.length} clips, ${r.clips.reduce((n, c) => n + c.frameCount, 0)} frames, ${r.videoInfo.width}x${r.videoInfo.height}; 720p ${kb(high)}, 360p ${kb(low)}`,
  );
}

function report(src: BenchSource, runs: Run[]): void {
  const per = (ms: Measure[]) => {
    const cpu = ms.map((m) => m.cpu / src.seconds);
    const wall = ms.map((m) => m.wall);
    const loads = ms.map((m) => f2(m.load)).join(', ');
    return `${f2(median(cpu)).padStart(6)} ${f2(worst(cpu)).padStart(6)}   ${f2(median(wall)).padStart(7)} ${f2(worst(wall)).padStart(7)}   load ${loads}`;
  };
  console.log(
    `\n${src.label}: per step, ${runs.length} runs    cpu s/source s (median, worst)   wall s (median, worst)`,
  );
  for (const step of STEPS) console.log(`  ${step.padEnd(24)} ${per(runs.map((r) => r.steps[step]))}`);
  console.log(`  ${'bare full decode'.padEnd(24)} ${per(runs.map((r) => r.bare))}`);
  console.log(`  ${'processing, no faces'.padEnd(24)} ${per(runs.map((r) => r.whole))}`);
  console.log(`  ${'processing, with faces'.padEnd(24)} ${per(runs.map((r) => r.wholeFaces))}`);
  console.log(`  ${'detection thread start'.padEnd(24)} ${per(runs.map((r) => r.start))}`);
  for (const [name, pick] of VARIANTS) {
    const wall = runs.map((r) => pick(r).wall / r.bare.wall);
    const cpu = runs.map((r) => pick(r).cpu / r.bare.cpu);
    const target =
      src.name === 'clip' || src.name === 'phone'
        ? `   target ≤ ${CLIP_DECODE_TARGET}: wall ${median(wall) <= CLIP_DECODE_TARGET ? 'ok' : 'OVER'}, cpu ${median(cpu) <= CLIP_DECODE_TARGET ? 'ok' : 'OVER'} (wall only means something when both ran at the same load)`
        : '';
    console.log(
      `  processing ÷ bare decode, ${name.padEnd(11)} wall ${f2(median(wall))} (worst ${f2(worst(wall))}), cpu ${f2(median(cpu))} (worst ${f2(worst(cpu))})${target}`,
    );
  }
}

async function main(): Promise<void> {
  const cpu = /model name\s*:\s*(.*)/.exec(await readFile('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  console.log(
    `media: ${mediaModule}; ${cpu}, ${availableParallelism()} cores; load average ${loadavg().map(f2).join(' ')}`,
  );
  const make: Record<string, () => Promise<BenchSource>> = {
    hd: hdSource,
    clip: phoneClipSource,
    mezzanine: mezzanineSource,
    converted: convertedSource,
    phone: phoneSource,
  };
  const all = new Map<string, Run[]>();
  for (const name of SOURCES) {
    const src = await make[name]?.();
    if (!src) throw new Error(`unknown source ${name} (hd, clip, mezzanine or phone)`);
    console.log(`\n== ${src.label} (${((await stat(src.path)).size / 1e6).toFixed(1)} MB)`);
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneRun(src, i));
    report(src, runs);
    all.set(name, runs);
  }
  const original = all.get('hd');
  for (const name of ['converted', 'mezzanine']) {
    const converted = all.get(name);
    if (original && converted) compare(name, converted, original);
  }
}

/** A converted upload's processing ÷ the original's, run i against run i of the same bench. */
function compare(name: string, converted: Run[], original: Run[]): void {
  const n = Math.min(converted.length, original.length);
  console.log(`\n${name} ÷ hd (the original), processing, ${n} run pairs    median (worst)`);
  for (const [label, pick] of VARIANTS) {
    const pairs = Array.from({ length: n }, (_, i) => [pick(converted[i]!), pick(original[i]!)] as const);
    const wall = pairs.map(([c, o]) => c.wall / o.wall);
    const cpu = pairs.map(([c, o]) => c.cpu / o.cpu);
    const ok = (x: number) => (name === 'converted' ? (x <= CONVERTED_TARGET ? ' ok' : ' OVER') : '');
    console.log(
      `  ${label.padEnd(11)} wall ${f2(median(wall))} (${f2(worst(wall))})${ok(median(wall))}, cpu ${f2(median(cpu))} (${f2(worst(cpu))})${ok(median(cpu))}   loads ${pairs.map(([c, o]) => `${f2(c.load)}/${f2(o.load)}`).join(', ')}`,
    );
  }
}

await main();
