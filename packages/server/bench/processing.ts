/**
 * Processing benchmark: `npm run bench:processing -w packages/server`.
 *
 * Two generated sources (bench/processing-sources.ts, cached in the OS temp folder):
 * - `hd`: 60 s 1080p30 H.264 at 16 Mbit/s with motion and detail everywhere;
 * - `phone`: 60 s 4K60 HEVC Main 10, HLG/BT.2020, stored rotated 90°, 40 Mbit/s, B-frames, like an iPhone recording.
 *
 * Prints, per source, against targets measured in the same run:
 * - processing time ÷ video duration (hd ≤ 0.75, phone ≤ 1.0 on the 2-core machine);
 * - processing time ÷ a bare full decode of the same source (`ffmpeg -i src -f null -`; phone ≤ 0.6: the tour keeps
 *   15 of 60 frames a second, so decoding only what it needs must beat decoding everything);
 * - hd only: processing time ÷ a bare ffmpeg command making the same renditions with the same encoder settings
 *   (≤ 1.15: probing, hardening, thumbnail and bookkeeping add little), and bytes per 36-frame clip (≤ 250/60 KB).
 *
 * The machine is shared, so each command runs RUNS times (default 2), alternating, and the best time of each counts;
 * the load average is printed with every run. Wall time moves with whatever else runs; CPU time (ffmpeg's
 * user+system, read from /proc/self/stat as time of reaped children, plus our own) does not, so it is printed too.
 *
 * BENCH_SOURCES=hd,phone chooses the sources (default both). BENCH_MEDIA_DIR=<dir> runs the processing of another copy
 * of src/media (a before/after comparison in one tree).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CLIP_FPS, RENDITIONS, segmentArgs, x264Args } from '../src/media/encoding.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import type * as Media from '../src/media/process-video.js';
import { cacheDir, hdSource, phoneSource, type BenchSource } from './processing-sources.js';
import { timed, type Timing } from './timing.js';

const run = promisify(execFile);
const RUNS = Math.max(1, Number(process.env.RUNS ?? 2));
const SOURCES = (process.env.BENCH_SOURCES ?? 'hd,phone').split(',').map((s) => s.trim());
const TARGETS = {
  hd: { realtime: 0.75, overhead: 1.15, highClip: 250_000, lowClip: 60_000 },
  phone: { realtime: 1.0, decode: 0.6 },
};
const mediaModule = process.env.BENCH_MEDIA_DIR
  ? join(resolve(process.env.BENCH_MEDIA_DIR), 'process-video.ts')
  : '../src/media/process-video.js';
const { processVideo } = (await import(mediaModule)) as typeof Media;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The full-decode baseline: every frame decoded, nothing else (`ffmpeg -i src -f null -`). */
async function bareDecode(src: BenchSource): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  await run(ffmpeg, ['-v', 'error', '-i', src.path, '-f', 'null', '-']);
}

/** The hd baseline: plain ffmpeg, the same filter chain and encoder settings, no probe, no thumbnail, no progress. */
async function bareTranscode(src: BenchSource, outDir: string): Promise<void> {
  const { ffmpeg } = ffmpegBinaries();
  const hi = RENDITIONS.high.landscape;
  const lo = RENDITIONS.low.landscape;
  const maxFrames = src.seconds * CLIP_FPS + 36;
  const graph = `[0:v]fps=${CLIP_FPS},scale=${hi.width}:${hi.height}:force_original_aspect_ratio=increase,crop=${hi.width}:${hi.height},format=yuv420p,split[h][l0];[l0]scale=${lo.width}:${lo.height}[l]`;
  await run(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    src.path,
    '-filter_complex',
    graph,
    '-map',
    '[h]',
    ...x264Args(RENDITIONS.high),
    ...segmentArgs(maxFrames, join(outDir, 'h.csv')),
    join(outDir, 'h-%05d.mp4'),
    '-map',
    '[l]',
    ...x264Args(RENDITIONS.low),
    ...segmentArgs(maxFrames, join(outDir, 'l.csv')),
    join(outDir, 'l-%05d.mp4'),
  ]);
}

async function benchSource(src: BenchSource): Promise<void> {
  const work = join(cacheDir, 'run');
  const kinds = src.name === 'hd' ? (['decode', 'bare', 'pipeline'] as const) : (['decode', 'pipeline'] as const);
  const times: Record<string, Timing[]> = { decode: [], bare: [], pipeline: [] };
  let last: Media.ProcessVideoResult | null = null;
  console.log(`\n== ${src.label} (${((await stat(src.path)).size / 1e6).toFixed(1)} MB)`);
  for (let i = 0; i < RUNS; i++) {
    for (const which of kinds) {
      await rm(work, { recursive: true, force: true });
      await mkdir(work, { recursive: true });
      const before = load();
      let t: Timing;
      if (which === 'decode') t = (await timed(() => bareDecode(src))).timing;
      else if (which === 'bare') t = (await timed(() => bareTranscode(src, work))).timing;
      else {
        const p = await timed(() => processVideo({ input: src.path, workDir: work }));
        t = p.timing;
        last = p.value;
      }
      times[which]!.push(t);
      console.log(
        `run ${i + 1} ${which.padEnd(8)} wall ${t.wall.toFixed(2)} s, cpu ${t.cpu.toFixed(2)} s   load ${before} -> ${load()}`,
      );
    }
  }
  const best = (k: string) => Math.min(...times[k]!.map((t) => t.wall));
  const bestCpu = (k: string) => Math.min(...times[k]!.map((t) => t.cpu));
  const pipe = best('pipeline');
  const pipeCpu = bestCpu('pipeline');
  const decode = best('decode');
  const decodeCpu = bestCpu('decode');
  const cores = Math.min(2, availableParallelism());
  const r = last!;
  const mark = (ok: boolean) => (ok ? 'ok' : 'OVER TARGET');
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const fullClips = r.clips.filter((c) => c.frameCount === 36).length;
  const frames = r.clips.reduce((n, c) => n + c.frameCount, 0);
  console.log(
    `clips at ${CLIP_FPS} fps: ${r.clips.length} clips (${fullClips} of 36 frames), ${frames} frames, ${r.videoInfo.width}x${r.videoInfo.height}`,
  );
  console.log(`processing time            ${pipe.toFixed(2)} s wall, ${pipeCpu.toFixed(2)} s cpu (best of ${RUNS})`);
  console.log(
    `bare full decode           ${decode.toFixed(2)} s wall, ${decodeCpu.toFixed(2)} s cpu (best of ${RUNS})`,
  );
  if (src.name === 'hd') {
    const t = TARGETS.hd;
    const bare = best('bare');
    const bareCpu = bestCpu('bare');
    console.log(`bare ffmpeg transcode      ${bare.toFixed(2)} s wall, ${bareCpu.toFixed(2)} s cpu (best of ${RUNS})`);
    console.log(
      `processing ÷ duration      ${(pipe / r.durationSeconds).toFixed(3)}   target ≤ ${t.realtime}  ${mark(pipe / r.durationSeconds <= t.realtime)}`,
    );
    console.log(`processing ÷ bare decode   ${(pipe / decode).toFixed(3)}   (cpu ${(pipeCpu / decodeCpu).toFixed(3)})`);
    console.log(
      `processing ÷ bare ffmpeg   ${(pipe / bare).toFixed(3)}   target ≤ ${t.overhead}  ${mark(pipe / bare <= t.overhead)}`,
    );
    console.log(
      `cpu processing ÷ cpu bare  ${(pipeCpu / bareCpu).toFixed(3)}   (load-independent view of the overhead)`,
    );
    const sizes = async (paths: string[]) => Promise.all(paths.map(async (p) => (await stat(p)).size));
    const high = await sizes(r.clips.map((c) => c.highPath));
    const low = await sizes(r.clips.map((c) => c.lowPath));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `bytes per clip 720p        ${kb(mean(high))} mean, ${kb(Math.max(...high))} max   target ≤ ${kb(t.highClip)}  ${mark(mean(high) <= t.highClip)}`,
    );
    console.log(
      `bytes per clip 360p        ${kb(mean(low))} mean, ${kb(Math.max(...low))} max   target ≤ ${kb(t.lowClip)}  ${mark(mean(low) <= t.lowClip)}`,
    );
  } else {
    const t = TARGETS.phone;
    console.log(
      `processing ÷ duration      ${(pipe / r.durationSeconds).toFixed(3)}   target ≤ ${t.realtime}  ${mark(pipe / r.durationSeconds <= t.realtime)}`,
    );
    console.log(
      `processing ÷ bare decode   ${(pipe / decode).toFixed(3)}   target ≤ ${t.decode}  ${mark(pipe / decode <= t.decode)}   (cpu ${(pipeCpu / decodeCpu).toFixed(3)})`,
    );
  }
  console.log(
    `cpu ÷ ${cores} cores ÷ duration  ${(pipeCpu / cores / r.durationSeconds).toFixed(3)}   (lower bound of the wall ratio: both cores busy all the time)`,
  );
  console.log(`thumbnail                  ${kb(r.videoInfo.smallSize)}`);
  const leftover = (await readdir(work)).filter((n) => !/^(high|low)-\d{5}\.mp4$|^thumbnail\.jpg$/.test(n));
  if (leftover.length) console.log(`unexpected files left: ${leftover.join(', ')}`);
  await rm(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  console.log(`media: ${mediaModule}; load average at start ${load()}; ${availableParallelism()} cores`);
  for (const name of SOURCES) {
    const src = name === 'phone' ? await phoneSource() : name === 'hd' ? await hdSource() : null;
    if (!src) throw new Error(`unknown source ${name} (hd or phone)`);
    await benchSource(src);
  }
}

await main();
