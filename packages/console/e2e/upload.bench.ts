/**
 * `npm run bench:upload` (docs/upload-conversion.md): a 60 s 4K60 H.264 clip at a phone's 40 Mbit/s, in one run on the
 * real server and Debian's headless Chromium (software WebCodecs: the conversion figure is a floor, a phone decodes and
 * encodes in hardware):
 * 1. the console's own conversion worker converts it: mezzanine bytes ÷ original bytes, conversion time ÷ duration;
 * 2. the mezzanine and the original are each stored and submitted, one after the other: submit → PROCESSED of each;
 * 3. the upload screen on an emulated 10 Mbit/s uplink, whichever way its race goes: pick → PROCESSED ÷ duration.
 * Each figure is printed with the load average beside it (the machine is shared).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from '@playwright/test';
import { gql, poll } from './embed-support.js';
import { limitUplink, newAgent, uploadToTour } from './support/upload-agent.js';

const run = promisify(execFile);
const SECONDS = 60;
const base = () => process.env.E2E_BASE_URL!;
const load = () =>
  `load ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
const rows: string[] = [];
const row = (name: string, value: string, goal: string) => {
  const line = `| ${name} | ${value} | ${goal} | ${load()} |`;
  rows.push(line);
  console.log(line);
};

/** The bench clip, made once (cached in the temp folder). */
async function benchClip(): Promise<string> {
  const dir = path.join(os.tmpdir(), 'roomwalk-bench-upload');
  const file = path.join(dir, 'uhd60-60s-40M.mp4');
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  const args = [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=3840x2160:rate=60:duration=${SECONDS}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-b:v',
    '40M',
    '-pix_fmt',
    'yuv420p',
  ];
  await run('ffmpeg', ['-v', 'error', '-y', ...args, `${file}.tmp.mp4`], { timeout: 1_800_000 });
  fs.renameSync(`${file}.tmp.mp4`, file);
  return file;
}

/** The built console's conversion worker (its hashed name in dist/assets). */
function workerAsset(): string {
  const dist = process.env.E2E_CONSOLE_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
  const name = fs
    .readdirSync(path.join(dist, 'assets'))
    .find((f) => f.startsWith('convert-worker-') && f.endsWith('.js'));
  if (!name) throw new Error('build the console first (npm run build -w @roomwalk/console)');
  return `/assets/${name}`;
}

/** Submits a stored upload and answers the seconds from submit to PROCESSED. */
async function processSeconds(token: string, key: string): Promise<number> {
  const t0 = Date.now();
  const { fileSubmitPreSignedUpload: s } = await gql<{ fileSubmitPreSignedUpload: { tourId: string } }>(
    base(),
    'mutation($key: String!) { fileSubmitPreSignedUpload(input: { key: $key }) { tourId } }',
    { key },
    token,
  );
  await poll(
    async () => {
      const d = await gql<{ tour: { status: { status: string }; logs: unknown } }>(
        base(),
        'query($id: ID!) { tour(tourID: $id) { status { status } logs { status error } } }',
        { id: s.tourId },
        token,
      );
      if (d.tour.status.status === 'FAILED') throw new Error(`processing failed: ${JSON.stringify(d.tour.logs)}`);
      return d.tour.status.status === 'PROCESSED';
    },
    'PROCESSED',
    1_800_000,
  );
  return (Date.now() - t0) / 1000;
}

interface Presigned {
  uploadURL: string;
  key: string;
  headers: Array<{ key: string; value: string }>;
}

/** One pre-signed PUT's address (the server's processing is what is measured, not the upload). */
async function presign(token: string): Promise<Presigned> {
  const d = await gql<{ fileGetPreSignedUrl: Presigned }>(
    base(),
    'mutation($ext: String!) { fileGetPreSignedUrl(input: $ext) { uploadURL key headers { key value } } }',
    { ext: 'mp4' },
    token,
  );
  return d.fileGetPreSignedUrl;
}

/** Stores a file from Node with one pre-signed PUT. */
async function storeFile(token: string, file: string): Promise<string> {
  const p = await presign(token);
  const put = await fetch(p.uploadURL, {
    method: 'PUT',
    headers: Object.fromEntries(p.headers.map((h) => [h.key, h.value])),
    body: fs.readFileSync(file),
  });
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
  return p.key;
}

test('upload bench: 60 s 4K60 H.264, converted on the device vs uploaded as it is', async ({ browser }) => {
  const clip = await benchClip();
  const originalBytes = fs.statSync(clip).size;
  console.log(`clip: ${clip}, ${(originalBytes / 1e6).toFixed(1)} MB, ${SECONDS} s 4K60 H.264`);

  // 1. The conversion worker alone (the screen's own, from the build), timed in the page.
  const a = await newAgent(browser);
  await a.page.goto('/');
  const input = await a.page.evaluateHandle(() => {
    const el = document.createElement('input');
    el.type = 'file';
    document.body.append(el);
    return el;
  });
  await input.setInputFiles(clip);
  // The worker speaks comlink: the page gets comlink itself from this path (same origin, so the console's CSP allows
  // it).
  const comlinkPackage = createRequire(import.meta.url).resolve('comlink/package.json');
  const comlink = fs.readFileSync(path.join(path.dirname(comlinkPackage), 'dist/esm/comlink.mjs'), 'utf8');
  await a.page.route('**/__bench/comlink.mjs', (r) => r.fulfill({ contentType: 'text/javascript', body: comlink }));
  const converted = await a.page.evaluate(
    async ({ input: el, url }) => {
      const file = (el as HTMLInputElement).files![0]!;
      const Comlink = (await import(
        /* @vite-ignore */ `${location.origin}/__bench/comlink.mjs`
      )) as typeof import('comlink');
      const worker = new Worker(url, { type: 'module' });
      const api = Comlink.wrap<import('../src/screens/upload/convert-types.js').ConvertWorkerApi>(worker);
      const t0 = performance.now();
      const check = await api.check(file);
      if (!check.ok) throw new Error(`conversion refused: ${check.reason}`);
      // Parts of 8 MiB, as the server's default part size cuts them; kept here to be stored in one PUT below.
      const parts: Uint8Array[] = [];
      const bytes = await api.convert(
        8 * 1024 * 1024,
        file.size,
        Comlink.proxy(() => undefined),
        Comlink.proxy(async (n: number, part: Uint8Array) => {
          parts[n - 1] = part;
        }),
      );
      worker.terminate();
      (window as unknown as { __mezzanine: Blob }).__mezzanine = new Blob(parts as BlobPart[], { type: 'video/mp4' });
      return {
        seconds: (performance.now() - t0) / 1000,
        bytes,
        decoder: check.start.decoder,
        encoder: check.start.encoder,
      };
    },
    { input, url: workerAsset() },
  );
  row(
    'bytes uploaded ÷ original',
    `${(converted.bytes / originalBytes).toFixed(3)} (${(converted.bytes / 1e6).toFixed(1)} of ${(originalBytes / 1e6).toFixed(1)} MB)`,
    '≤ 0.15',
  );
  row(
    'conversion ÷ duration (headless Chromium, software)',
    `${(converted.seconds / SECONDS).toFixed(2)} (${converted.seconds.toFixed(1)} s; ${converted.decoder} decoder, ${converted.encoder} encoder)`,
    'floor only',
  );

  // 2. Submit → PROCESSED, the mezzanine then the original, one at a time.
  const p = await presign(a.token);
  const status = await a.page.evaluate(async (q) => {
    const body = (window as unknown as { __mezzanine: Blob }).__mezzanine;
    return (
      await fetch(q.uploadURL, {
        method: 'PUT',
        headers: Object.fromEntries(q.headers.map((h) => [h.key, h.value])),
        body,
      })
    ).status;
  }, p);
  if (status !== 200) throw new Error(`mezzanine upload answered ${status}`);
  const mezzanineSeconds = await processSeconds(a.token, p.key);
  row('submit → PROCESSED, mezzanine', `${mezzanineSeconds.toFixed(1)} s`, '');
  const b = await newAgent(browser);
  const originalSeconds = await processSeconds(b.token, await storeFile(b.token, clip));
  row('submit → PROCESSED, original', `${originalSeconds.toFixed(1)} s`, '');
  row('mezzanine ÷ original processing', (mezzanineSeconds / originalSeconds).toFixed(3), '≤ 0.25');

  // 3. The upload screen on a 10 Mbit/s uplink: pick → PROCESSED, whichever way the race goes.
  const c = await newAgent(browser);
  await limitUplink(c.page, 10_000_000);
  const tour = await uploadToTour(c, clip, `Bench ${Date.now().toString(36)}`, 3_000_000);
  const total = (tour.times.processed - tour.times.picked) / 1000;
  const choice = c.log.find((l) => /^\[upload\] (convert|original):/.test(l)) ?? '(no choice logged)';
  row(
    'pick → PROCESSED on 10 Mbit/s ÷ duration',
    `${(total / SECONDS).toFixed(2)} (${total.toFixed(1)} s; ${choice})`,
    '≤ 1.0',
  );
  console.log(['', '| figure | result | goal | load |', '|---|---|---|---|', ...rows].join('\n'));
  for (const ctx of [a, b, c]) await ctx.context.close();
});
