// The bench in each engine a visitor arrives with: Chromium, Firefox ESR and WebKitGTK from Debian's
// packages, one after the other in the same run, on the same generated 60 s tour, page (bench.html) and stub. The
// passes of Chromium's bench (quiet, one and two busy cores, the phone: here the whole browser under a cgroup CPU
// quota, cpu-quota.mjs), each run BENCH_RUNS times (3), printed as median and worst with the load beside each. Per
// engine and pass: the exact 720p frame's share of refreshes while scrubbing (600 key steps forward, 600 back, one per
// refresh, read from canvas pixels as bench.mjs does), the right position in any rendition, the exact frame at rest
// (p95), jumps (p95), the first frame (append to frame 0's pixels, median of 3 page loads) with its ratio to
// Chromium's, in the quiet pass the engine's own decoding ceiling (ceiling-worker.mjs: 720p frames a second with a full
// queue, one worker and the player's pool), then where each engine's first frame went (the tour query, each worker
// made, running and its own marks, tour-ready, the main thread's busy stretches, the pixels seen), and where each jump's
// and each rest's wait went (bench-page.js jumpBreakdown: the target's 720p request, its worker's trace, the batch, the
// paint worker's requests, the canvas's paints and the page's refreshes; per step the median, and the slowest whole).
// `npm run bench` runs it after bench.mjs; alone: `node bench/engines.mjs`. BENCH_ENGINES: a comma list of chromium,
// firefox, webkit (all three when unset; `none` skips it); BENCH_PASSES: quiet,busy1,busy2,phone; BENCH_CEILING=0
// skips the ceiling; BENCH_PHONE_QUOTA: the phone's cores (0.5); BENCH_DIST: another build's dist/ (before/after);
// BENCH_FULL_RANGE=1: the tour's clips full range.
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { build } from 'esbuild';
import { generateTour } from '../test/fixtures.mjs';
import { startStub } from '../test/stub-server.mjs';
import { enginesFromEnv, startDriver } from '../test/engines.mjs';
import { load, startBusyCores } from './profiles.mjs';
import { confine, quotaAvailable } from './cpu-quota.mjs';

if (process.env.BENCH_ENGINES === 'none') process.exit(0);
const engines = enginesFromEnv(process.env.BENCH_ENGINES);
// The ratios are to Chromium's in the same run (BENCH_NO_BASE=1 leaves it out: quicker A/B runs of one engine).
if (!engines.includes('chromium') && process.env.BENCH_NO_BASE !== '1') engines.unshift('chromium');

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.BENCH_DIST || join(here, '..', 'dist');
const TOUR = 'tour_b0000000-0000-4000-8000-000000000060';
// BENCH_FIRST_ONLY=1: the first frame only (no scrub); BENCH_FIRST_RUNS: page loads per engine for it (3).
const FIRST_ONLY = process.env.BENCH_FIRST_ONLY === '1';
const FIRST_RUNS = Math.max(1, Number(process.env.BENCH_FIRST_RUNS) || 3);
const PLAYER = { width: 1000, height: 600 };

// BENCH_FULL_RANGE=1: the same tour with full-range clips, as the console's on-device conversion in Chromium makes
// them (every Firefox frame is then read back from the limited range its decoder converts in: workers/full-range.ts).
const FULL_RANGE = process.env.BENCH_FULL_RANGE === '1';
console.log(
  `\n[engines] ${FULL_RANGE ? 'full-range clips; ' : ''}${cpus().length} cores (${cpus()[0]?.model ?? 'CPU unknown'}), load average ${load()} at start; engines ${engines.join(', ')}`,
);
const TOUR_DIR = FULL_RANGE ? 'bench-60s-full' : 'bench-60s';
generateTour(TOUR_DIR, { seconds: 60, detail: true, source: true, fullRange: FULL_RANGE });
const stub = await startStub({ extraTours: { [TOUR]: TOUR_DIR } });
const types = { '.html': 'text/html', '.js': 'text/javascript' };
// The decoding ceiling's worker, bundled with the player's own clip loader (mp4box).
const ceilingWorker = (
  await build({ entryPoints: [join(here, 'ceiling-worker.mjs')], bundle: true, format: 'iife', write: false })
).outputFiles[0].text;
const web = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path === '/ceiling-worker.js') return res.writeHead(200, { 'content-type': types['.js'] }).end(ceilingWorker);
  const file = path.startsWith('/dist/')
    ? join(dist, path.slice('/dist/'.length))
    : join(here, path === '/' ? 'bench.html' : path);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((r) => web.listen(0, 'localhost', r));
const pageUrl = `http://localhost:${web.address().port}/`;

/**
 * One engine's figures in one pass: scrub (600 key steps forward, 600 back, one a refresh: the exact 720p frame, and
 * the right position in any rendition), the exact frame at rest (a short scrub, then the finger rests), jumps, the
 * first frame (median of FIRST_RUNS page loads) and, in the quiet pass, the engine's own decoding ceiling.
 */
async function measure(engine, pass) {
  const d = await startDriver(engine);
  let quota;
  try {
    if (pass.quota) {
      await d.goto(pageUrl);
      quota = confine(d.pid, pass.quota);
    }
    let fwd = { ok: 0, steps: 0, lowShown: 0, stale: 0 };
    let back = { ...fwd };
    let rests = [];
    let jumps = [];
    let breakdown = [];
    let restBreakdown = [];
    let stats;
    let ceiling;
    if (!FIRST_ONLY) {
      await d.goto(pageUrl);
      quota?.more();
      const loaded = await d.evaluate((id, api, size) => window.bench.load(id, api, size), TOUR, stub.origin, PLAYER);
      fwd = await d.evaluate(() => window.bench.scrub(10, 600, 1, true));
      back = await d.evaluate(() => window.bench.scrub(610, 600, -1, true));
      // Through JSON in the page: WebKitWebDriver refuses a result with NaN or Infinity ("Could not parse script
      // result"), which JSON turns into null.
      stats = await d.evaluate(async () => JSON.parse(JSON.stringify(await window.bench.stats())));
      rests = await d.evaluate(() => window.bench.rests(300, 16));
      jumps = (await d.evaluate((t) => window.bench.jumps(t, true), JUMPS)).exact;
      breakdown = await d.evaluate(async () => JSON.parse(JSON.stringify(await window.bench.jumpBreakdown())));
      restBreakdown = await d.evaluate(async () =>
        JSON.parse(JSON.stringify(await window.bench.jumpBreakdown('rests'))),
      );
      if (pass.ceiling && CEILING) {
        const urls = Array.from(
          { length: 5 },
          (_, i) => `${stub.origin}/clips/${TOUR_DIR}/high-${String(i).padStart(4, '0')}.mp4`,
        );
        const one = await d.evaluate((u) => window.bench.ceiling(u, 1), urls);
        const pool = await d.evaluate((u, n) => window.bench.ceiling(u, n), urls, stats.workers || loaded.workers || 2);
        // The same, each frame copied out as the player copies it (frame-formats.ts): what the copy costs this engine.
        const copied = await d.evaluate((u) => window.bench.ceiling(u, 1, 4000, true), urls);
        const engineCopied = await d.evaluate((u) => window.bench.ceiling(u, 1, 4000, 'engine'), urls);
        ceiling = { one, pool, copied, engineCopied, workers: stats.workers };
      }
    }
    const firsts = [];
    const timelines = [];
    for (let i = 0; i < FIRST_RUNS; i++) {
      await d.goto(pageUrl);
      quota?.more();
      firsts.push(
        await d.evaluate((id, api, size) => window.bench.firstFrame(id, api, size), TOUR, stub.origin, PLAYER),
      );
      timelines.push(await d.evaluate(() => window.bench.firstFrameTimeline()));
    }
    const sorted = [...firsts].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    const steps = fwd.steps + back.steps;
    return {
      timeline: timelines[firsts.indexOf(median)],
      timelines,
      version: d.version,
      fwd,
      back,
      share: steps ? (fwd.ok + back.ok) / steps : 0,
      any: steps ? (fwd.ok + fwd.lowShown + back.ok + back.lowShown) / steps : 0,
      restP95: rests.length ? p95(rests) : 0,
      jumpP95: jumps.length ? p95(jumps) : 0,
      breakdown,
      restBreakdown,
      stats,
      ceiling,
      first: firsts.some((f) => f < 0) ? -1 : median,
      firsts,
      load: load(),
    };
  } finally {
    await d.close();
    quota?.release();
  }
}

const p95 = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
};
// 12 jump targets spread over the tour (the same seeds as bench.mjs's).
const JUMPS = (() => {
  const out = [];
  let seed = 7;
  for (let i = 0; i < 12; i++) {
    seed = (seed * 48271) % 2147483647;
    out.push(seed % 700);
  }
  return out;
})();

// The passes, as Chromium's bench (bench/profiles.mjs): quiet, one and two busy cores, and the phone: here the whole
// browser under a CPU quota (cpu-quota.mjs), in every engine. BENCH_PASSES narrows them, BENCH_RUNS (3) repeats each.
const PHONE_CORES = Number(process.env.BENCH_PHONE_QUOTA) || 0.5;
const canQuota = quotaAvailable();
const PASS_LIST = {
  quiet: { label: 'quiet', ceiling: true },
  busy1: { label: 'beside one busy core', busyCores: 1 },
  busy2: { label: 'beside two busy cores', busyCores: 2 },
  phone: canQuota
    ? { label: `phone: the browser confined to ${PHONE_CORES} core (cgroup v1 cpu quota)`, quota: PHONE_CORES }
    : { label: 'phone: no cgroup cpu controller here, so beside two busy cores instead (rougher)', busyCores: 2 },
};
const passKeys = (process.env.BENCH_PASSES || (FIRST_ONLY ? 'quiet' : 'quiet,busy1,busy2,phone'))
  .split(',')
  .filter((k) => PASS_LIST[k]);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS) || 3);
const CEILING = process.env.BENCH_CEILING !== '0';
const CPU = cpus()[0]?.model ?? 'CPU unknown';

/** figures[pass][engine] = [run, ...] */
const figures = {};
try {
  for (let run = 1; run <= RUNS; run++) {
    for (const key of passKeys) {
      const pass = PASS_LIST[key];
      const stopBusy = pass.busyCores ? startBusyCores(pass.busyCores) : () => {};
      try {
        for (const engine of engines) {
          console.log(`[engines] run ${run}/${RUNS}, ${pass.label}: ${engine}... [load ${load()}]`);
          try {
            const f = await measure(engine, pass);
            figures[key] ??= {};
            figures[key][engine] ??= [];
            figures[key][engine].push(f);
            console.log(`  ${summary(f)}  [load ${f.load}]`);
          } catch (error) {
            console.log(`[engines] ${engine} failed: ${error.message}`);
          }
        }
      } finally {
        stopBusy();
      }
    }
  }
} finally {
  await stub.stop();
  web.close();
}

function summary(f) {
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  const scrub = FIRST_ONLY
    ? 'scrub not run'
    : `exact 720p ${pct(f.share)} (fwd ${pct(f.fwd.ok / f.fwd.steps)}, back ${pct(f.back.ok / f.back.steps)}; 360p shown ${f.fwd.lowShown + f.back.lowShown}, late ${f.fwd.stale + f.back.stale}); right position (any rendition) ${pct(f.any)}; exact at rest p95 ${f.restP95.toFixed(0)} ms; jump p95 ${f.jumpP95.toFixed(0)} ms`;
  const ceiling = f.ceiling
    ? f.ceiling.one.error || f.ceiling.pool.error
      ? `; decoder ceiling failed: ${f.ceiling.one.error ?? f.ceiling.pool.error}`
      : `; decoder ceiling 720p ${f.ceiling.one.pool.toFixed(0)} fps one worker, ${f.ceiling.pool.pool.toFixed(0)} fps for the pool of ${f.ceiling.pool.perWorker.length} (${f.ceiling.pool.perWorker.map((x) => x.toFixed(0)).join(' + ')}), ${f.ceiling.copied?.pool?.toFixed(0) ?? '?'} fps one worker copying as the player does; the player decoded ${f.stats?.decodedFrames ?? '?'} frames, ${f.stats?.stallFlushes ?? '?'} stall flushes`
    : f.stats
      ? `; ${f.stats.decodedFrames} frames decoded, ${f.stats.stallFlushes} stall flushes, ${f.stats.rushedRests ?? 0} rests rushed during the scrub`
      : '';
  const first = f.first < 0 ? '> 20 s' : `${f.first.toFixed(0)} ms (${f.firsts.map((x) => x.toFixed(0)).join(', ')})`;
  const paint = f.stats?.paintWorkerMsMean
    ? `; paint worker ${f.stats.paintWorkerMsMean.toFixed(1)} ms a bitmap (mean of the scrub's; ${f.stats.ways})`
    : '';
  return `${f.version}: ${scrub}; first frame ${first}${paint}${ceiling}`;
}

// Per pass and engine: the median and the worst of the runs (each with its load), and the ratio to Chromium's.
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor((a.length - 1) / 2)];
console.log(
  `\n[engines] ${FULL_RANGE ? 'full-range clips; ' : ''}${cpus().length} cores (${CPU}); ${RUNS} run(s) per pass; median and worst, load beside each:`,
);
const shareRows = [
  ['exact 720p within one refresh while scrubbing', (f) => f.share, 'pct', 'high'],
  ['  forward', (f) => f.fwd.ok / f.fwd.steps, 'pct', 'high'],
  ['  backward', (f) => f.back.ok / f.back.steps, 'pct', 'high'],
  ['right position within one refresh (any rendition)', (f) => f.any, 'pct', 'high'],
  ['exact frame at rest, p95', (f) => f.restP95, 'ms', 'low'],
  ['jump p95', (f) => f.jumpP95, 'ms', 'low'],
  ['first frame (median of its loads)', (f) => f.first, 'ms', 'low'],
  // The player's stats after the scrub (player-stats.ts): each bitmap's time in the paint worker, conversion included.
  ['paint worker, ms a bitmap (mean, load and scrub)', (f) => f.stats?.paintWorkerMsMean ?? 0, 'ms1', 'low'],
];
for (const key of passKeys) {
  console.log(`\n  ${PASS_LIST[key].label}`);
  for (const engine of engines) {
    const runs = figures[key]?.[engine];
    if (!runs?.length) {
      console.log(`    ${engine.padEnd(8)} did not run (see above)`);
      continue;
    }
    for (const [name, get, unit, better] of shareRows) {
      if (FIRST_ONLY && unit === 'pct') continue;
      const values = runs.map(get);
      const worstIndex = values.indexOf(better === 'high' ? Math.min(...values) : Math.max(...values));
      const m = med(values);
      const medianRun = runs[values.indexOf(m)];
      const show = (x) =>
        unit === 'pct' ? `${(x * 100).toFixed(1)} %` : x < 0 ? '> 20 s' : `${x.toFixed(unit === 'ms1' ? 1 : 0)} ms`;
      const base = figures[key]?.chromium?.map(get);
      const ratio =
        engine !== 'chromium' && base?.length && m > 0 ? ` (${(m / med(base)).toFixed(2)}x Chromium's)` : '';
      console.log(
        `    ${engine.padEnd(8)} ${name.padEnd(50)} median ${show(m)} [load ${medianRun.load}]${ratio}, worst ${show(values[worstIndex])} [load ${runs[worstIndex].load}]`,
      );
    }
    const ceilings = runs.map((r) => r.ceiling).filter((c) => c && !c.one.error && !c.pool.error);
    if (ceilings.length) {
      const one = med(ceilings.map((c) => c.one.pool));
      const pool = med(ceilings.map((c) => c.pool.pool));
      console.log(
        `    ${engine.padEnd(8)} ${'decoder ceiling, 720p frames a second'.padEnd(50)} median ${one.toFixed(0)} one worker, ${pool.toFixed(0)} for the pool of ${ceilings[0].pool.perWorker.length} (full queue, nothing painted); the scrub needs 60`,
      );
      for (const [key, label] of [
        ['engineCopied', "decoded and copied by the engine's copyTo alone"],
        ['copied', "decoded and copied as the player's worker does"],
      ]) {
        const fps = ceilings.map((c) => c[key]?.pool).filter((x) => x > 0);
        if (fps.length)
          console.log(
            `    ${engine.padEnd(8)} ${label.padEnd(50)} median ${med(fps).toFixed(0)} one worker (${(1000 / med(fps)).toFixed(1)} ms a frame), worst ${Math.min(...fps).toFixed(0)}`,
          );
      }
    }
  }
}
// Where each engine's first frame went (its median run): ms from the element's append, on the clock the page and
// its workers share (bench-page.js firstFrameTimeline; the workers' marks are src/workers/timeline.ts).
// BENCH_TIMELINES=all: every run's, not only the median's.
const allRuns = process.env.BENCH_TIMELINES === 'all';
const firstPass = passKeys[0];
console.log(
  `\n[engines] first frame, where the time went (${PASS_LIST[firstPass]?.label}, ${allRuns ? 'each' : 'median'} load of the first run, ms from append):`,
);
for (const engine of engines) {
  const f = figures[firstPass]?.[engine]?.[0];
  for (const rows of (allRuns ? f?.timelines : [f?.timeline]) ?? []) {
    if (rows?.length) console.log(`  ${engine}: ${rows.map(([name, t]) => `${name} ${t}`).join(' | ')}`);
  }
}
// Where each engine's jumps went (jumpBreakdown in bench-page.js): per step of the target's 720p decode, the median
// over every jump of every run of the pass of the ms from goToFrame, and the three slowest jumps whole.
for (const [field, what] of [
  ['breakdown', 'jumps, where the time went (ms from goToFrame'],
  ['restBreakdown', 'the exact frame at rest, where the time went (ms from the last key step'],
])
  for (const key of passKeys) {
    console.log(`\n[engines] ${what}; ${PASS_LIST[key].label}; median over all runs' waits):`);
    for (const engine of engines) {
      const all = (figures[key]?.[engine] ?? []).flatMap((f) => f[field] ?? []);
      if (!all.length) continue;
      const steps = new Map();
      for (const j of all) {
        const seen = new Set();
        for (const [name, ms] of j.rows) {
          if (ms === null || seen.has(name)) continue;
          seen.add(name);
          if (!steps.has(name)) steps.set(name, []);
          steps.get(name).push(ms);
        }
      }
      const rows = [...steps].map(([name, v]) => [name, med(v), Math.max(...v), v.length]).sort((a, b) => a[1] - b[1]);
      console.log(
        `  ${engine} waits, sorted: ${all
          .map((j) => j.ms ?? 5000)
          .sort((a, b) => a - b)
          .join(' ')}`,
      );
      console.log(`  ${engine}: ${rows.map(([n, m, w, c]) => `${n} ${m} (worst ${w}, ${c})`).join(' | ')}`);
      for (const j of [...all].sort((a, b) => (b.ms ?? 1e9) - (a.ms ?? 1e9)).slice(0, 3))
        console.log(
          `    slow: ${j.from} -> ${j.target} in ${j.ms} ms: ${j.rows.map(([n, ms, note]) => `${n}${note ? ` (${note})` : ''} ${ms}`).join(' | ')}${j.others.length ? `; meanwhile: ${j.others.map(([w, ms]) => `${w} ${ms}`).join(', ')}` : ''}`,
        );
    }
  }
const failed = engines.filter((e) => passKeys.some((k) => !figures[k]?.[e]?.length));
process.exitCode = failed.length > 0 ? 1 : 0;
