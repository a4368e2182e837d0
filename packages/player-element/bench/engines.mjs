// The bench in each engine a visitor arrives with: Chromium, Firefox ESR and WebKitGTK from Debian's
// packages, one after the other in the same run, on the same generated 60 s tour, page (bench.html) and stub. Per
// engine: the exact 720p frame's share of refreshes while scrubbing (600 key steps forward, 600 back, one per
// refresh, read from canvas pixels as bench.mjs does) and the first frame (append to frame 0's pixels, median of 3
// page loads), each with its ratio to Chromium's, then where each engine's first frame went (its median run: the tour
// query, each worker made, running and its own marks, tour-ready, the main thread's busy stretches, the pixels seen).
// `npm run bench` runs it after bench.mjs; alone: `node bench/engines.mjs`. BENCH_ENGINES: a comma list of chromium,
// firefox, webkit (all three when unset; `none` skips it).
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { generateTour } from '../test/fixtures.mjs';
import { startStub } from '../test/stub-server.mjs';
import { enginesFromEnv, startDriver } from '../test/engines.mjs';
import { load } from './profiles.mjs';

if (process.env.BENCH_ENGINES === 'none') process.exit(0);
const engines = enginesFromEnv(process.env.BENCH_ENGINES);
if (!engines.includes('chromium')) engines.unshift('chromium'); // the ratios are to Chromium's in the same run

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.BENCH_DIST || join(here, '..', 'dist');
const TOUR = 'tour_b0000000-0000-4000-8000-000000000060';
// BENCH_FIRST_ONLY=1: the first frame only (no scrub); BENCH_FIRST_RUNS: page loads per engine for it (3).
const FIRST_ONLY = process.env.BENCH_FIRST_ONLY === '1';
const FIRST_RUNS = Math.max(1, Number(process.env.BENCH_FIRST_RUNS) || 3);
const PLAYER = { width: 1000, height: 600 };

console.log(
  `\n[engines] ${cpus().length} cores (${cpus()[0]?.model ?? 'CPU unknown'}), load average ${load()} at start; engines ${engines.join(', ')}`,
);
generateTour('bench-60s', { seconds: 60, detail: true, source: true });
const stub = await startStub({ extraTours: { [TOUR]: 'bench-60s' } });
const types = { '.html': 'text/html', '.js': 'text/javascript' };
const web = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  const file = path.startsWith('/dist/')
    ? join(dist, path.slice('/dist/'.length))
    : join(here, path === '/' ? 'bench.html' : path);
  if (!existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
});
await new Promise((r) => web.listen(0, 'localhost', r));
const pageUrl = `http://localhost:${web.address().port}/`;

/** One engine's figures: scrub share (forward, back, both) and first frame (median of 3, and each run). */
async function measure(engine) {
  const d = await startDriver(engine);
  try {
    let fwd = { ok: 0, steps: 0 };
    let back = { ok: 0, steps: 0 };
    if (!FIRST_ONLY) {
      await d.goto(pageUrl);
      await d.evaluate((id, api, size) => window.bench.load(id, api, size), TOUR, stub.origin, PLAYER);
      fwd = await d.evaluate(() => window.bench.scrub(10, 600, 1, true));
      back = await d.evaluate(() => window.bench.scrub(610, 600, -1, true));
    }
    const firsts = [];
    const timelines = [];
    for (let i = 0; i < FIRST_RUNS; i++) {
      await d.goto(pageUrl);
      firsts.push(
        await d.evaluate((id, api, size) => window.bench.firstFrame(id, api, size), TOUR, stub.origin, PLAYER),
      );
      timelines.push(await d.evaluate(() => window.bench.firstFrameTimeline()));
    }
    const sorted = [...firsts].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return {
      timeline: timelines[firsts.indexOf(median)],
      timelines,
      version: d.version,
      fwd,
      back,
      share: (fwd.ok + back.ok) / (fwd.steps + back.steps),
      first: firsts.some((f) => f < 0) ? -1 : median,
      firsts,
      load: load(),
    };
  } finally {
    await d.close();
  }
}

const figures = {};
try {
  for (const engine of engines) {
    console.log(`[engines] ${engine}...`);
    try {
      figures[engine] = await measure(engine);
    } catch (error) {
      console.log(`[engines] ${engine} failed: ${error.message}`);
    }
  }
} finally {
  await stub.stop();
  web.close();
}

const base = figures.chromium;
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const times = (x, b) => (b > 0 && x > 0 ? `${(x / b).toFixed(2)}x Chromium's` : 'no ratio');
console.log(
  '\n[engines] exact 720p frame within one refresh while scrubbing, and first frame (same run, same tour and page):',
);
for (const engine of engines) {
  const f = figures[engine];
  if (!f) {
    console.log(`  ${engine.padEnd(8)} did not run (see above)`);
    continue;
  }
  const scrub = FIRST_ONLY
    ? 'not run'
    : `${pct(f.share)} (fwd ${pct(f.fwd.ok / f.fwd.steps)}, back ${pct(f.back.ok / f.back.steps)}; misses: 360p shown ${f.fwd.lowShown + f.back.lowShown}, late ${f.fwd.stale + f.back.stale}), ${times(f.share, base?.share)}`;
  const first =
    f.first < 0
      ? '> 20 s'
      : `${f.first.toFixed(0)} ms (runs ${f.firsts.map((x) => x.toFixed(0)).join(', ')}), ${times(f.first, base?.first)}`;
  console.log(`  ${engine.padEnd(8)} ${f.version.padEnd(28)} scrub ${scrub}; first frame ${first}  [load ${f.load}]`);
}
// Where each engine's first frame went (its median run): ms from the element's append, on the clock the page and
// its workers share (bench-page.js firstFrameTimeline; the workers' marks are src/workers/timeline.ts).
// BENCH_TIMELINES=all: every run's, not only the median's.
const allRuns = process.env.BENCH_TIMELINES === 'all';
console.log(`\n[engines] first frame, where the time went (${allRuns ? 'each' : 'median'} run, ms from append):`);
for (const engine of engines) {
  for (const rows of (allRuns ? figures[engine]?.timelines : [figures[engine]?.timeline]) ?? []) {
    if (rows?.length) console.log(`  ${engine}: ${rows.map(([name, t]) => `${name} ${t}`).join(' | ')}`);
  }
}
const failed = engines.filter((e) => !figures[e]);
process.exitCode = failed.length > 0 ? 1 : 0;
