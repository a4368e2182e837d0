/**
 * Where the phone source's processing time goes, step by step: `npm run bench:processing-steps -w
 * packages/server`.
 *
 * On the first BENCH_STEP_SECONDS (default 2) of the bench's phone source (60 fps 4K HEVC Main 10, HLG, rotated 90°;
 * cut by stream copy, cached), each ffmpeg command decodes and, from step 3 on, makes the normalised 720p frames the
 * encoders get, to `-f null` (no encoding); CPU seconds (user+system of ffmpeg) and wall seconds, alternating, best of
 * RUNS (default 1). The last row runs the whole processing (both encodes, thumbnail) for comparison.
 *
 * 1. full decode; 2. decode skipping non-reference frames; 3. the old decoder: autorotate (a 4K transpose of every
 * frame), fps, scale, tone map; 4. the same with skipping; 5. rotation after the downscale, no skipping;
 * 6. the product's decoder now (skipping + rotation after the downscale). BENCH_STEPS=1,3,6 runs only those.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildNormaliseGraph } from '../src/media/encoding.js';
import { ffmpegBinaries, ffmpegCapabilities } from '../src/media/ffmpeg-binaries.js';
import { processVideo, probeVideo } from '../src/media/process-video.js';
import { planSource } from '../src/media/source-frames.js';
import { cacheDir, phoneSource } from './processing-sources.js';
import { timed } from './timing.js';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_STEP_SECONDS ?? 2);
const RUNS = Math.max(1, Number(process.env.RUNS ?? 1));
const before = process.env.BENCH_BEFORE_DIR
  ? (
      (await import(join(resolve(process.env.BENCH_BEFORE_DIR), 'process-video.ts'))) as {
        processVideo: typeof processVideo;
      }
    ).processVideo
  : null;

async function main(): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  // BENCH_STEP_SOURCE: any other file (e.g. a real phone recording) instead of the generated phone source.
  const full = process.env.BENCH_STEP_SOURCE
    ? { path: process.env.BENCH_STEP_SOURCE, label: process.env.BENCH_STEP_SOURCE }
    : await phoneSource();
  const src = join(cacheDir, `first-${SECONDS}s-of-${basename(full.path)}`);
  if (!existsSync(src)) {
    await mkdir(cacheDir, { recursive: true });
    await run(ffmpeg, ['-v', 'error', '-y', '-i', full.path, '-t', String(SECONDS), '-c', 'copy', `${src}.part.mov`]);
    await rename(`${src}.part.mov`, src);
  }
  const probe = await probeVideo(src);
  const plan = planSource(probe);
  const toneMap = ffmpegCapabilities().toneMap;
  const base = { stream: `0:${probe.streamIndex}`, portrait: probe.portrait, colour: probe.colour, toneMap };
  const oldGraph = buildNormaliseGraph(base);
  const newGraph = buildNormaliseGraph({ ...base, ...plan.graph });
  const skip = ['-skip_frame', 'noref'];
  const steps: Array<[string, string[]]> = [
    ['1 full decode', ['-i', src]],
    ['2 decode, skip non-ref', [...skip, '-i', src]],
    ['3 old: autorotate 4K, fps, scale, tone map', ['-i', src, '-filter_complex', oldGraph, '-map', '[out]']],
    ['4 old graph + skip non-ref', [...skip, '-i', src, '-filter_complex', oldGraph, '-map', '[out]']],
    [
      '5 rotate after downscale, no skip',
      ['-noautorotate', '-i', src, '-copyts', '-filter_complex', newGraph, '-map', '[out]'],
    ],
    [
      '6 product decoder (5 + skip)',
      [...plan.inputArgs, '-i', src, ...plan.outputArgs, '-filter_complex', newGraph, '-map', '[out]'],
    ],
  ];
  const best: Record<string, { wall: number; cpu: number }> = {};
  console.log(
    `source: first ${SECONDS} s of ${full.label}; ${probe.averageFps.toFixed(1)} fps, rotation ${probe.rotation}; load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const only = process.env.BENCH_STEPS?.split(',').map(Number);
  for (let i = 0; i < RUNS; i++) {
    for (const [name, args] of steps.filter(([n]) => !only || only.includes(Number(n.split(' ')[0])))) {
      const { timing } = await timed(() =>
        run(ffmpeg, ['-v', 'error', '-nostdin', ...args, '-f', 'null', '-'], { maxBuffer: 16 * 1024 ** 2 }),
      );
      const b = best[name];
      if (!b || timing.cpu < b.cpu) best[name] = timing;
      console.log(
        `run ${i + 1} ${name.padEnd(44)} wall ${timing.wall.toFixed(2)} s, cpu ${timing.cpu.toFixed(2)} s   load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
    // The whole processing, now and (BENCH_BEFORE_DIR: another copy of src/media, e.g. the previous commit's) before.
    const wholes: Array<[string, typeof processVideo]> = [['7 whole processing now (both encodes)', processVideo]];
    if (before) wholes.unshift(['0 whole processing before (both encodes)', before]);
    for (const [name, fn] of wholes) {
      const work = join(cacheDir, 'steps-run');
      await rm(work, { recursive: true, force: true });
      const { timing } = await timed(() => fn({ input: src, workDir: work }));
      await rm(work, { recursive: true, force: true });
      const b = best[name];
      if (!b || timing.cpu < b.cpu) best[name] = timing;
      console.log(
        `run ${i + 1} ${name.padEnd(44)} wall ${timing.wall.toFixed(2)} s, cpu ${timing.cpu.toFixed(2)} s   load ${loadavg()[0]!.toFixed(2)}`,
      );
    }
  }
  const ref = best['1 full decode']!.cpu;
  console.log('\nstep                                          cpu s   ÷ full decode (cpu)   ÷ source seconds (cpu)');
  for (const [name, t] of Object.entries(best))
    console.log(
      `${name.padEnd(44)} ${t.cpu.toFixed(2).padStart(7)}   ${(t.cpu / ref).toFixed(3).padStart(8)}   ${(t.cpu / SECONDS).toFixed(3).padStart(8)}`,
    );
}

await main();
