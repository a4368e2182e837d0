/**
 * npm run check:big-upload -w packages/server ("a 4 GB-class upload resumes after a cut and becomes a
 * tour"): too slow for npm test, run by hand. Makes a real 12 s 1280x720 video and pads it with a trailing MP4 'free'
 * box to BIG_UPLOAD_GB (default 4) GB; starts the app on PGlite with processing (ROLE all, local store); uploads it in
 * 4 parallel 8 MiB parts through a loopback proxy that cuts every connection at 50 %; picks the same file again
 * (resumed: stored parts skipped); submits; waits for the tour to be PROCESSED; checks the stored file's sha256.
 * Prints sizes, throughput, what the resume sent again, and the load average.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOUR_STATUS } from '@roomwalk/shared';
import { decodeId } from '../src/core/ids.js';
import { startTestApp } from '../test/helpers/test-app.js';
import { seedUser } from '../test/helpers/seed.js';
import { startCuttingProxy } from '../test/support/cutting-proxy.js';
import { MQ, uploadMultipart, type Gql } from '../test/support/multipart-client.js';

const run = promisify(execFile);
const GB = 1024 ** 3;
const MiB = 1024 ** 2;

async function sha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const c of createReadStream(file, { highWaterMark: 4 * MiB })) h.update(c as Buffer);
  return h.digest('hex');
}

async function main() {
  const target = Math.round(Number(process.env.BIG_UPLOAD_GB ?? 4) * GB);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-big-upload-'));
  const file = path.join(work, 'walkthrough.mp4');
  const t = await startTestApp('pglite', { ROLE: 'all' });
  try {
    const video = path.join(work, 'video.mp4');
    await run('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30:duration=12',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-y',
      video,
    ]);
    // A trailing 'free' box (64-bit size) pads the file: players and ffmpeg skip it; the bytes still travel.
    await fs.copyFile(video, file);
    const videoSize = (await fs.stat(video)).size;
    const pad = target - videoSize;
    const header = Buffer.alloc(16);
    header.writeUInt32BE(1, 0);
    header.write('free', 4, 'ascii');
    header.writeBigUInt64BE(BigInt(pad), 8);
    await fs.appendFile(file, header);
    await fs.truncate(file, target);
    const size = (await fs.stat(file)).size;
    console.log(`source: ${(size / GB).toFixed(2)} GB (${videoSize} bytes of video + a free box)`);
    const sourceHash = await sha256(file);

    const token = (await seedUser(t.app, { plan: 'pro' })).token;
    const gql: Gql = (q, v, tk) => t.gql(q, v, tk);
    const proxy = await startCuttingProxy(new URL(t.url), Math.floor(size * 0.5));
    const route = (u: string) => u.replace(t.url, proxy.url);
    const t0 = performance.now();
    const first = await uploadMultipart({ gql, token, file, parallel: 4, route }).then(
      () => null,
      (e: Error & { run?: { bytesSent: number } }) => e,
    );
    const cutS = (performance.now() - t0) / 1000;
    if (!first || !proxy.didCut) throw new Error('the first attempt did not fail at the cut');
    const sentBefore = first.run?.bytesSent ?? 0;
    const t1 = performance.now();
    const second = await uploadMultipart({ gql, token, file, parallel: 4, route });
    const resumeS = (performance.now() - t1) / 1000;
    await proxy.close();
    const missingBytes = size - second.skipped * 8 * MiB;
    const submit = await t.gql(MQ.submit, { key: second.key }, token);
    if (submit.errors) throw new Error(JSON.stringify(submit.errors));
    const tourId = decodeId('Tour', submit.data.fileSubmitPreSignedUpload.tourId as string);
    const storedHash = await sha256(path.join(t.dataDir, 'files', second.key));
    const t2 = performance.now();
    let status = '';
    while (performance.now() - t2 < 15 * 60_000) {
      const row = await t.app.services.db
        .selectFrom('tours')
        .select(['status', 'progress_text'])
        .where('id', '=', tourId)
        .executeTakeFirstOrThrow();
      status = row.status;
      if (status !== TOUR_STATUS.PROCESSING) {
        if (status !== TOUR_STATUS.PROCESSED) console.log(`tour ${status}: ${row.progress_text}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    const processS = (performance.now() - t2) / 1000;
    const figures = {
      sizeGB: +(size / GB).toFixed(2),
      parts: second.partCount,
      cutAfterS: +cutS.toFixed(1),
      sentBeforeCutGB: +(sentBefore / GB).toFixed(2),
      firstAttemptMBps: +(sentBefore / MiB / cutS).toFixed(0),
      skippedOnResume: second.skipped,
      resentGB: +(second.bytesSent / GB).toFixed(2),
      // Bytes sent twice: the parts in flight at the cut (sent partly before it, whole again after).
      sentTwiceMB: +((sentBefore + second.bytesSent - size) / MiB).toFixed(0),
      resentBeyondMissingMB: +((second.bytesSent - missingBytes) / MiB).toFixed(0),
      resumeS: +resumeS.toFixed(1),
      resumeMBps: +(second.bytesSent / MiB / resumeS).toFixed(0),
      sha256Equal: storedHash === sourceHash,
      tourStatus: status,
      processingS: +processS.toFixed(1),
      loadAvg: os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' '),
    };
    console.log(JSON.stringify(figures, null, 2));
    if (!figures.sha256Equal || status !== TOUR_STATUS.PROCESSED) process.exitCode = 1;
  } finally {
    await t.stop();
    await fs.rm(work, { recursive: true, force: true });
  }
}

await main();
