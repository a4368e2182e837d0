/**
 * Two worker processes on loopback share one long video: PostgreSQL and an S3 store (s3rver). Worker A
 * takes the process-tour job and the first segment, then dies (SIGKILL) halfway through storing its second; worker B
 * takes the third, and the killed segment — only that one — is retried by B once its lease runs out. The tour ends
 * PROCESSED with every clip, each segment recording the worker that made it (both workers appear), and the bucket holds
 * exactly the live clips and thumbnail. Short leases (15 s, heartbeat 1 s, maintenance 1 s) keep the wait short (5 s
 * expired live segments on the machine at load 25).
 * PostgreSQL only (processes share the database).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOUR_STATUS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { startFixture, stopProcess } from './helpers/processes.js';
import { makeVideo, uploadAndSubmit, waitFor } from './fixtures/tours.js';

const BUCKET = 'roomwalk-segments';
/** 12 s of 1280x720 at 30 fps with a keyframe every second (the same file as processing-segments.test.ts). */
const keyframedVideo = () =>
  makeVideo('keyframed-12s.mp4', [
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1280x720:rate=30:duration=12',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '30',
    '-pix_fmt',
    'yuv420p',
  ]);
const startWorker = (env: Record<string, string>) =>
  startFixture('worker.ts', env, (line) => (line === 'READY' ? true : undefined));

// Part of npm test (85 s measured at load ~15); alone: `npm run test:two-workers -w packages/server`.
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'one video, two worker processes (PostgreSQL + s3rver)',
  { timeout: 900_000 },
  () => {
    let s3: S3rver;
    let s3dir: string;
    let t: TestApp;
    let a: ChildProcess | undefined;
    let b: ChildProcess | undefined;
    let settings: Record<string, string>;

    beforeAll(async () => {
      s3dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-s3rver-'));
      s3 = new S3rver({
        address: '127.0.0.1',
        port: 0,
        silent: true,
        directory: s3dir,
        configureBuckets: [{ name: BUCKET, configs: [] }],
      });
      const { port } = await s3.run();
      settings = {
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        PROCESSING_SEGMENT_SECONDS: '4.8',
        PROCESSING_LEASE_SECONDS: '15',
        PROCESSING_HEARTBEAT_SECONDS: '1',
        JOB_MAINTENANCE_INTERVAL_SECONDS: '1',
        PROCESSING_RETRY_DELAY_SECONDS: '0',
      };
      t = await startTestApp('postgres', { ROLE: 'api', ...settings } as never);
    });
    afterAll(async () => {
      await stopProcess(a, 'SIGKILL');
      await stopProcess(b, 'SIGTERM');
      await t?.stop();
      await s3?.close();
      await fs.rm(s3dir, { recursive: true, force: true });
    });

    it('processes segments on both, retries the killed one alone, and ends with exactly the live files', async () => {
      const owner = await seedUser(t.app, { plan: 'pro' });
      const env = {
        ...settings,
        DATABASE_URL: t.app.config.DATABASE_URL!,
        DATA_DIR: t.dataDir,
        JWT_SECRET: t.app.config.jwtSecret,
      };
      const wa = startWorker({ ...env, HANG_AFTER_CLIP_FILES: '5' });
      a = wa.proc;
      await wa.ready;
      const { tourId } = await uploadAndSubmit(t, owner.token, await fs.readFile(await keyframedVideo()));
      const id = tourId.replace(/^tour_/, '');
      // A stores segment 0's four clip files, then the first of segment 1, and stops there.
      await waitFor(async () => wa.output.some((l) => l.startsWith('HANGING')), 'worker A mid-segment', 600_000);
      const wb = startWorker(env);
      b = wb.proc;
      await wb.ready;
      await stopProcess(a, 'SIGKILL');

      const { db } = t.app.services;
      const tour = await waitFor(
        async () => {
          const row = await db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
          return row.status !== TOUR_STATUS.PROCESSING ? row : null;
        },
        'tour finished',
        600_000,
        250,
      );
      expect(tour.status, `${tour.progress_text ?? ''}\n${wb.output.join('\n').slice(-2000)}`).toBe(
        TOUR_STATUS.PROCESSED,
      );

      const segments = await db
        .selectFrom('tour_segments')
        .selectAll()
        .where('tour_id', '=', id)
        .orderBy('index')
        .execute();
      const workers = segments.map((s) => s.result!.worker.split(':')[1]);
      expect(workers).toEqual([String(wa.proc.pid), String(wb.proc.pid), String(wb.proc.pid)]);
      const jobs = await sql<{ index: number; retry_count: number; state: string }>`
      SELECT (data->>'index')::int AS index, retry_count, state FROM pgboss.job WHERE name = 'process-tour-segment' AND data->>'tourId' = ${id} ORDER BY 1`.execute(
        db,
      );
      expect(jobs.rows.map((j) => [j.index, j.state, j.retry_count > 0])).toEqual([
        [0, 'completed', false],
        [1, 'completed', true],
        [2, 'completed', false],
      ]);

      const clips = await db
        .selectFrom('clips')
        .select(['frame_count', 'high_key', 'low_key'])
        .where('tour_id', '=', id)
        .orderBy('index')
        .execute();
      expect(clips.map((c) => c.frame_count)).toEqual([36, 36, 36, 36, 36]);
      const client = new S3Client({
        endpoint: settings.S3_ENDPOINT,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `tours/${id}/` }));
      const keys = (listed.Contents ?? []).map((o) => o.Key!).sort();
      expect(keys).toEqual([...clips.flatMap((c) => [c.high_key, c.low_key]), tour.thumbnail_key!].sort());
    });
  },
);
