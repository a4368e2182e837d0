/**
 * Reels as the agent meets them: `npm run bench:reel-job -w packages/server`.
 *
 * The app as `npm start` runs it (PGlite, local store, ROLE all: the API and every job worker in one process, the
 * default x264 preset). Per source: the upload goes through the console's multipart protocol and is submitted; the
 * moment the tour is PROCESSED the agent asks for a reel ("right after processing": the photo pick, markers, share
 * preview and the other follow-up jobs run beside it); when it is ready and those jobs have drained, a second reel
 * ("settled"). Each reel's time from the request to CREATED is split where the job says where it is (the reel row's
 * attempt and progress text, read every 50 ms): waiting in the queue; preparing (the tour, the clips' head, the logo,
 * the markers); rendering (the ffmpeg run over the clips, its progress 5 → 90 %); storing the MP4 and the thumbnail.
 * The job queues' active jobs are printed at the request and at the render, and the load average beside each figure.
 *
 * Sources (bench/processing-sources.ts, made once and cached): the held-out 11 s 4K60 HEVC 10-bit rotated clip and
 * the 60 s 1080p30 phone video. BENCH_SOURCES=clip,hd chooses; RUNS (default 1) repeats the whole.
 */
import { cpus, loadavg } from 'node:os';
import { REEL_STATUS, TOUR_STATUS } from '@roomwalk/shared';
import { decodeId, encodeId } from '../src/core/ids.js';
import { startTestApp, type TestApp } from '../test/helpers/test-app.js';
import { seedUser } from '../test/helpers/seed.js';
import { MQ, uploadMultipart, type Gql } from '../test/support/multipart-client.js';
import { hdSource, phoneClipSource, type BenchSource } from './processing-sources.js';
import { timed } from './timing.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { runProcess } from '../src/media/run-process.js';
import { probeDuration } from '../src/services/ai/ffmpeg.js';

const RUNS = Math.max(1, Number(process.env.RUNS ?? 1));
const SOURCES = (process.env.BENCH_SOURCES ?? 'clip,hd').split(',').map((s) => s.trim());
const GEN = 'mutation($id: ID!) { tourGenerateReel(tourId: $id) { id } }';
const POLL_MS = 50;
const LIMIT_MS = 20 * 60_000;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const s = (ms: number) => (ms / 1000).toFixed(1);
const tick = () => new Promise((r) => setTimeout(r, POLL_MS));

async function activeJobs(t: TestApp): Promise<string> {
  const rows = await t.app.services.queue.depth();
  const active = rows.filter((r) => r.state === 'active').map((r) => `${r.queue}×${r.count}`);
  const waiting = rows.filter((r) => r.state !== 'active').map((r) => `${r.queue}×${r.count}`);
  return `active [${active.join(', ') || 'none'}], waiting [${waiting.join(', ') || 'none'}]`;
}

/** Uploads and submits `file`; resolves with the tour id when it is PROCESSED. */
async function processedTour(t: TestApp, token: string, file: string): Promise<{ tourId: string; seconds: number }> {
  const gql: Gql = (q, v, tk) => t.gql(q, v, tk);
  const t0 = performance.now();
  const up = await uploadMultipart({ gql, token, file, parallel: 4 });
  const submit = await t.gql(MQ.submit, { key: up.key }, token);
  if (submit.errors) throw new Error(JSON.stringify(submit.errors));
  const tourId = decodeId('Tour', submit.data.fileSubmitPreSignedUpload.tourId as string);
  for (;;) {
    const row = await t.app.services.db
      .selectFrom('tours')
      .select(['status', 'progress_text'])
      .where('id', '=', tourId)
      .executeTakeFirstOrThrow();
    if (row.status === TOUR_STATUS.PROCESSED) break;
    if (row.status !== TOUR_STATUS.PROCESSING) throw new Error(`tour ${row.status}: ${row.progress_text}`);
    if (performance.now() - t0 > LIMIT_MS) throw new Error('processing took over 20 minutes');
    await tick();
  }
  return { tourId, seconds: (performance.now() - t0) / 1000 };
}

interface ReelTimes {
  queued: number;
  preparing: number;
  rendering: number;
  storing: number;
  total: number;
  jobsAtRender: string;
}

/** Asks for a reel and follows its row until CREATED: the time in each phase. */
async function timedReel(t: TestApp, token: string, tourId: string, gqlTourId: string): Promise<ReelTimes> {
  const t0 = performance.now();
  const res = await t.gql(GEN, { id: gqlTourId }, token);
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  const reelId = decodeId('Reel', res.data.tourGenerateReel.id as string);
  const marks: Record<'claimed' | 'rendering' | 'storing' | 'done', number | null> = {
    claimed: null,
    rendering: null,
    storing: null,
    done: null,
  };
  let jobsAtRender = '';
  while (marks.done === null) {
    const row = await t.app.services.db
      .selectFrom('reels')
      .select(['status', 'attempt', 'progress', 'error'])
      .where('id', '=', reelId)
      .executeTakeFirstOrThrow();
    const now = performance.now() - t0;
    if (row.status === REEL_STATUS.FAILED) throw new Error(`reel failed: ${row.error}`);
    if (marks.claimed === null && row.attempt > 0) marks.claimed = now;
    if (marks.rendering === null && row.progress >= 5) {
      marks.rendering = now;
      jobsAtRender = await activeJobs(t);
    }
    if (marks.storing === null && row.progress >= 92) marks.storing = now;
    if (row.status === REEL_STATUS.CREATED) marks.done = now;
    if (now > LIMIT_MS) throw new Error(`reel not ready in 20 minutes (tour ${tourId})`);
    await tick();
  }
  // A phase the poll did not see (shorter than POLL_MS) counts as zero.
  const claimed = marks.claimed ?? marks.done;
  const rendering = marks.rendering ?? claimed;
  const storing = marks.storing ?? marks.done;
  return {
    queued: claimed,
    preparing: rendering - claimed,
    rendering: storing - rendering,
    storing: marks.done - storing,
    total: marks.done,
    jobsAtRender,
  };
}

/** Until no job has run for a second (jobs scheduled for later stay queued and are not waited for). */
async function drained(t: TestApp): Promise<void> {
  const t0 = performance.now();
  let idleSince = performance.now();
  while (performance.now() - idleSince < 1000) {
    if ((await t.app.services.queue.depth()).some((r) => r.state === 'active')) idleSince = performance.now();
    if (performance.now() - t0 > LIMIT_MS) throw new Error(`the job queues did not drain: ${await activeJobs(t)}`);
    await tick();
  }
}

/**
 * The settled reel's CPU (this process and its ffmpeg children; nothing else runs), and how much of it encoding the
 * 1080x1920 frames takes: the finished reel decoded alone, and decoded and encoded again with the reel's encoder
 * settings (render-reel.ts: libx264 veryfast, CRF 23, 24 fps).
 */
async function whereRenderGoes(t: TestApp, tourId: string, reelCpu: number): Promise<string> {
  const reel = await t.app.services.db
    .selectFrom('reels')
    .select('video_key')
    .where('tour_id', '=', tourId)
    .where('status', '=', REEL_STATUS.CREATED)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  const file = `${t.dataDir}/files/${reel.video_key}`;
  const seconds = (await probeDuration(file)).duration;
  const ff = (args: string[]) => async () => {
    const r = await runProcess(ffmpegBinaries().ffmpeg, ['-v', 'error', '-i', file, ...args], {
      timeoutMs: 10 * 60_000,
      maxOutputBytes: 1024 ** 2,
    }).done;
    if (r.code !== 0) throw new Error(r.stderr);
  };
  const decode = await timed(ff(['-f', 'null', '-']));
  const encode = await timed(
    ff(['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-r', '24', '-f', 'null', '-']),
  );
  const encodeCpu = encode.timing.cpu - decode.timing.cpu;
  return `  ${''.padEnd(26)} where it goes: the reel (${seconds.toFixed(1)} s of 1080x1920) took ${reelCpu.toFixed(1)} s CPU; encoding its frames alone ${encodeCpu.toFixed(1)} s CPU (${((100 * encodeCpu) / reelCpu).toFixed(0)} %), decoding them ${decode.timing.cpu.toFixed(1)} s`;
}

const row = (label: string, r: ReelTimes, loadText: string) =>
  `  ${label.padEnd(26)} ${s(r.total).padStart(6)} s = queue ${s(r.queued)} + prepare ${s(r.preparing)} + render ${s(r.rendering)} + store ${s(r.storing)}   (load ${loadText}; at render: ${r.jobsAtRender})`;

const picks: Record<string, () => Promise<BenchSource>> = { clip: phoneClipSource, hd: hdSource };
const sources: BenchSource[] = [];
for (const name of SOURCES) {
  const make = picks[name];
  if (!make) throw new Error(`unknown source ${name}: use ${Object.keys(picks).join(', ')}`);
  sources.push(await make());
}

console.log(`CPU: ${cpus()[0]?.model} × ${cpus().length}`);
const t = await startTestApp('pglite', { ROLE: 'all' });
try {
  const owner = await seedUser(t.app, { plan: 'pro' });
  for (let run = 1; run <= RUNS; run++) {
    for (const source of sources) {
      const { tourId, seconds } = await processedTour(t, owner.token, source.path);
      const gqlTourId = encodeId('Tour', tourId);
      console.log(`run ${run}, ${source.label}: PROCESSED ${seconds.toFixed(1)} s after the upload began`);
      const jobsAtAsk = await activeJobs(t);
      const first = await timedReel(t, owner.token, tourId, gqlTourId);
      console.log(row('right after processing', first, load()));
      console.log(`  ${''.padEnd(26)} at the request: ${jobsAtAsk}`);
      await drained(t);
      const settled = await timed(() => timedReel(t, owner.token, tourId, gqlTourId));
      console.log(row('settled (queues drained)', settled.value, load()));
      console.log(await whereRenderGoes(t, tourId, settled.timing.cpu));
    }
  }
} finally {
  await t.stop();
}
