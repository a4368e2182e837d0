/**
 * Kill a worker mid-job: a worker process is SIGKILLed with half its clips stored; its job lease (renewed by a
 * heartbeat while it lived) runs out, pg-boss's maintenance expires the job and another worker retries it. With the
 * production settings (lease 30 s, heartbeat 5 s, maintenance 10 s, retry delay 15 s with backoff) the job is taken up
 * again within 2 minutes and the owner sees the percentage move again; the test prints both times. The tour finishes
 * once, with one set of clips and no orphan files. PostgreSQL only (two processes share the database).
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { startFixture, stopProcess } from './helpers/processes.js';
import { landscapeVideo, listFiles, uploadAndSubmit, waitFor } from './fixtures/tours.js';

/** Starts test/fixtures/worker.ts in its own process; `ready` resolves once it prints READY. */
const startWorker = (env: Record<string, string>) => startFixture('worker.ts', env, (line) => (line === 'READY' ? true : undefined));

/** The bound the owner may wait, after a worker dies, until the job runs again (issue 15). */
const RECOVERY_BOUND_MS = 120_000;

// A kill, a lease expiry and a second attempt on real ffmpeg: give a loaded 2-core machine room.
describe.skipIf(!process.env.TEST_DATABASE_URL)('a worker killed mid-job (PostgreSQL)', { timeout: 240_000 }, () => {
  let t: TestApp;
  let first: ChildProcess | undefined;
  let second: ChildProcess | undefined;

  beforeAll(async () => {
    // The API node only enqueues; lease, heartbeat, maintenance and retry delay are the production defaults.
    t = await startTestApp('postgres', { ROLE: 'api', PROCESSING_RETRY_LIMIT: 2 });
  });
  afterAll(async () => {
    await stopProcess(first, 'SIGKILL');
    await stopProcess(second, 'SIGTERM');
    await t?.stop();
  });

  it('retries the job elsewhere; the tour ends PROCESSED once, with one set of clips and no orphan files', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const env = { DATABASE_URL: t.app.config.DATABASE_URL!, DATA_DIR: t.dataDir, JWT_SECRET: t.app.config.jwtSecret };
    const w1 = startWorker({ ...env, HANG_AFTER_CLIP_FILES: '3' });
    const out1 = w1.output;
    first = w1.proc;
    await w1.ready;

    const { tourId } = await uploadAndSubmit(t, owner.token, await fs.readFile(await landscapeVideo(12)));
    const id = tourId.replace(/^tour_/, '');
    const tourDir = path.join(t.dataDir, 'files', 'tours', id);
    await waitFor(async () => out1.some((l) => l.startsWith('HANGING')), 'first worker mid-job', 120_000);
    const partial = (await listFiles(tourDir)).filter((f) => !f.endsWith('.meta'));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.every((f) => f.startsWith('v1/clips/'))).toBe(true);
    const { db } = t.app.services;
    const atKill = await db.selectFrom('tours').select(['progress', 'processing_attempt']).where('id', '=', id).executeTakeFirstOrThrow();
    const killedAt = Date.now();
    await stopProcess(first, 'SIGKILL');

    const w2 = startWorker(env);
    const out2 = w2.output;
    second = w2.proc;
    await w2.ready;

    // Taken up again: the second attempt claims the tour. Then the percentage moves past where the dead attempt left it.
    await waitFor(
      async () => {
        const row = await db.selectFrom('tours').select(['processing_attempt']).where('id', '=', id).executeTakeFirstOrThrow();
        return row.processing_attempt > atKill.processing_attempt;
      },
      'the job taken up again',
      200_000,
      100,
    );
    const takenUpMs = Date.now() - killedAt;
    await waitFor(
      async () => {
        const row = await db.selectFrom('tours').select(['progress', 'status']).where('id', '=', id).executeTakeFirstOrThrow();
        return row.progress > atKill.progress || row.status !== 'PROCESSING';
      },
      'the percentage moving again',
      200_000,
      100,
    );
    const movedMs = Date.now() - killedAt;
    console.log(
      `crash recovery: worker SIGKILLed at ${atKill.progress} %; job taken up again after ${(takenUpMs / 1000).toFixed(1)} s, percentage moving again after ${(movedMs / 1000).toFixed(1)} s (bound ${RECOVERY_BOUND_MS / 1000} s)`,
    );
    expect(takenUpMs).toBeLessThanOrEqual(RECOVERY_BOUND_MS);
    expect(movedMs).toBeLessThanOrEqual(RECOVERY_BOUND_MS);

    const tour = await waitFor(
      async () => {
        const row = await db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        return row.status === 'PROCESSED' || row.status === 'FAILED' ? row : null;
      },
      'tour finished by the second worker',
      150_000,
      250,
    );
    expect(tour.status, `${tour.progress_text ?? ''}\nsecond worker:\n${out2.join('\n').slice(-3000)}`).toBe('PROCESSED');
    expect(tour.processing_attempt).toBe(2);
    expect(tour.clips_version).toBe(2);

    const logs = await db.selectFrom('tour_logs').select(['status']).where('tour_id', '=', id).execute();
    expect(logs.map((l) => l.status)).toEqual(['PROCESSED']);
    const clips = await db.selectFrom('clips').select(['high_key', 'low_key']).where('tour_id', '=', id).execute();
    expect(clips.length).toBeGreaterThan(0);
    const expected = [...clips.flatMap((c) => [c.high_key, c.low_key]), tour.thumbnail_key!].map((k) => k.replace(`tours/${id}/`, '')).sort();
    // The dead attempt's half-written folder is gone: exactly the live set remains.
    await waitFor(async () => !(await listFiles(tourDir)).some((f) => f.startsWith('v1/')), 'old attempt removed', 10_000);
    expect((await listFiles(tourDir)).filter((f) => !f.endsWith('.meta'))).toEqual(expected);

    const jobs = await sql<{ state: string }>`SELECT state FROM pgboss.job WHERE name = 'process-tour' AND data->>'tourId' = ${id}`.execute(db);
    expect(jobs.rows.map((j) => j.state)).toEqual(['completed']);
  });
});
