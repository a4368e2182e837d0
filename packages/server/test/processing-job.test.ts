/**
 * The process-tour job's bookkeeping, with a stand-in for the media core (no ffmpeg): attempts and their folders,
 * superseded and deleted tours, retries ending in FAILED, temporary files, throttled progress.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, TOUR_STATUS, VALIDATION } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { processTourJob } from '../src/jobs/process-tour.js';
import { PROCESSING_FAILED_TEXT } from '../src/jobs/finish-processed-tour.js';
import { registerProcessing } from '../src/jobs/workers.js';
import { topics } from '../src/events/event-bus.js';
import { collectUntilFinal, listFiles, Q, uploadAndSubmit, waitFor, type ProgressEvent } from './fixtures/tours.js';
import { VideoRejectedError } from '../src/media/process-video.js';
import { fakeMedia } from './fixtures/fake-media.js';

describe.each(DB_KINDS)('process-tour job bookkeeping on %s', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  const tourFiles = (id: string) => listFiles(path.join(t.dataDir, 'files', 'tours', id));
  const dbTour = (id: string) =>
    t.app.services.db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const rawId = (globalId: string) => globalId.replace(/^tour_/, '');

  beforeAll(async () => {
    // API role: the tests drive the job themselves.
    t = await startTestApp(kind, { ROLE: 'api', PROCESSING_RETRY_LIMIT: 1, PROCESSING_RETRY_DELAY_SECONDS: 0 });
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function newTour() {
    const { tourId } = await uploadAndSubmit(t, owner.token, Buffer.alloc(2048, 7));
    return rawId(tourId);
  }

  it("a retry after a dead attempt ends with one clip set and removes the dead attempt's files", async () => {
    const id = await newTour();
    // Attempt 1 died after storing part of its clips.
    await t.app.services.db.updateTable('tours').set({ processing_attempt: 1 }).where('id', '=', id).execute();
    await t.app.services.storage.put(`tours/${id}/v1/clips/0000-high.mp4`, Buffer.alloc(10), 'video/mp4');
    await processTourJob(t.app.services, id, fakeMedia({ clips: 3 }));

    const tour = await dbTour(id);
    expect(tour).toMatchObject({
      status: TOUR_STATUS.PROCESSED,
      progress: 100,
      processing_attempt: 2,
      clips_version: 2,
      thumbnail_key: `tours/${id}/v2/thumbnail.jpg`,
    });
    expect(tour.video_info).toEqual({ width: 1280, height: 720, fullSize: 900, mediumSize: 300, smallSize: 50 });
    const clips = await t.app.services.db
      .selectFrom('clips')
      .selectAll()
      .where('tour_id', '=', id)
      .orderBy('index')
      .execute();
    expect(clips.map((c) => c.high_key)).toEqual([0, 1, 2].map((i) => `tours/${id}/v2/clips/000${i}-high.mp4`));
    expect((await tourFiles(id)).filter((f) => !f.endsWith('.meta'))).toEqual([
      'v2/clips/0000-high.mp4',
      'v2/clips/0000-low.mp4',
      'v2/clips/0001-high.mp4',
      'v2/clips/0001-low.mp4',
      'v2/clips/0002-high.mp4',
      'v2/clips/0002-low.mp4',
      'v2/thumbnail.jpg',
    ]);
    const logs = await t.app.services.db.selectFrom('tour_logs').selectAll().where('tour_id', '=', id).execute();
    expect(logs.map((l) => [l.status, l.error])).toEqual([[TOUR_STATUS.PROCESSED, null]]);
  });

  it('an attempt that finishes after another one did removes its own files and changes nothing', async () => {
    const id = await newTour();
    let release!: () => void;
    const slow = processTourJob(
      t.app.services,
      id,
      fakeMedia({ clips: 2, gate: new Promise<void>((r) => (release = r)) }),
    );
    await waitFor(async () => (await dbTour(id)).processing_attempt === 1, 'first attempt claimed');
    await processTourJob(t.app.services, id, fakeMedia({ clips: 4 }));
    release();
    await slow;
    const tour = await dbTour(id);
    expect(tour).toMatchObject({ status: TOUR_STATUS.PROCESSED, clips_version: 2 });
    expect(
      await t.app.services.db.selectFrom('clips').select('high_key').where('tour_id', '=', id).execute(),
    ).toHaveLength(4);
    expect((await tourFiles(id)).every((f) => f.startsWith('v2/'))).toBe(true);
    // A late duplicate delivery finds nothing to do.
    await processTourJob(t.app.services, id, fakeMedia({ clips: 1 }));
    expect((await dbTour(id)).clips_version).toBe(2);
  });

  it('an older attempt that finishes while a newer one runs (a reprocess) gives way to the newer one', async () => {
    const id = await newTour();
    let releaseOld!: () => void;
    let releaseNew!: () => void;
    const old = processTourJob(
      t.app.services,
      id,
      fakeMedia({ clips: 2, gate: new Promise<void>((r) => (releaseOld = r)) }),
    );
    await waitFor(async () => (await dbTour(id)).processing_attempt === 1, 'first attempt claimed');
    const newer = processTourJob(
      t.app.services,
      id,
      fakeMedia({ clips: 3, gate: new Promise<void>((r) => (releaseNew = r)) }),
    );
    await waitFor(async () => (await dbTour(id)).processing_attempt === 2, 'second attempt claimed');
    releaseOld();
    await old;
    // The old attempt's clips (made with the old settings) never become the tour's; its files are gone.
    expect(await dbTour(id)).toMatchObject({ status: TOUR_STATUS.PROCESSING, processing_attempt: 2 });
    expect((await tourFiles(id)).some((f) => f.startsWith('v1/'))).toBe(false);
    releaseNew();
    await newer;
    expect(await dbTour(id)).toMatchObject({ status: TOUR_STATUS.PROCESSED, clips_version: 2 });
    expect(
      await t.app.services.db.selectFrom('clips').select('high_key').where('tour_id', '=', id).execute(),
    ).toHaveLength(3);
  });

  it('a tour deleted while processing ends with no files', async () => {
    const id = await newTour();
    let release!: () => void;
    const running = processTourJob(t.app.services, id, fakeMedia({ gate: new Promise<void>((r) => (release = r)) }));
    await waitFor(async () => (await dbTour(id)).processing_attempt === 1, 'attempt claimed');
    expect((await t.gql(Q.del, { id: `tour_${id}` }, owner.token)).errors).toBeUndefined();
    release();
    await running;
    expect(await tourFiles(id)).toEqual([]);
    expect(await t.app.services.db.selectFrom('clips').select('id').where('tour_id', '=', id).execute()).toEqual([]);
  });

  it('publishes progress throttled and in order, not once per ffmpeg line', async () => {
    const id = await newTour();
    const events: ProgressEvent[] = [];
    const ac = new AbortController();
    const listening = (async () => {
      for await (const e of t.app.services.events.subscribe<ProgressEvent>(topics.tourProgress(id), ac.signal)) {
        events.push(e);
        if (e.status !== TOUR_STATUS.PROCESSING) break;
      }
    })();
    await processTourJob(t.app.services, id, fakeMedia({ progressCalls: 2000 }));
    await Promise.race([
      listening,
      waitFor(async () => events.at(-1)?.status === TOUR_STATUS.PROCESSED, 'final event', 10_000),
    ]);
    ac.abort();
    expect(events.at(-1)).toMatchObject({ status: TOUR_STATUS.PROCESSED, progress: 100 });
    expect(events.at(-1)?.thumbnailURL).toBe(`${t.url}/media/tours/${id}/v1/thumbnail.jpg`);
    expect(events.length).toBeLessThan(20);
    const percents = events.map((e) => e.progress);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });

  it('fails a rejected video at once, telling subscribers why', async () => {
    const id = await newTour();
    let release!: () => void;
    const client = t.wsClient(owner.token);
    const sub = collectUntilFinal(client, `tour_${id}`);
    await sub.ready;
    const rejected = new VideoRejectedError(ERROR_CODES.VIDEO_TOO_LONG, VALIDATION.videoTooLong, 'duration 700 s');
    const running = processTourJob(
      t.app.services,
      id,
      fakeMedia({ gate: new Promise<void>((r) => (release = r)), fail: rejected }),
    );
    // Subscribed before the attempt can finish: the final event cannot be missed.
    await waitFor(async () => (await dbTour(id)).processing_attempt === 1, 'attempt claimed');
    release();
    await running;
    const events = await sub.done;
    expect(events.at(-1)).toMatchObject({ status: 'FAILED', text: VALIDATION.videoTooLong });
    const tour = await dbTour(id);
    expect(tour).toMatchObject({ status: TOUR_STATUS.FAILED, processing_attempt: 1 });
    const logs = await t.app.services.db
      .selectFrom('tour_logs')
      .select(['status', 'error'])
      .where('tour_id', '=', id)
      .execute();
    expect(logs).toEqual([{ status: 'FAILED', error: VALIDATION.videoTooLong }]);
    expect(await tourFiles(id)).toEqual([]);
  });

  it('retries a failing attempt, then marks the tour FAILED with a generic reason and leaves no files', async () => {
    const seen: string[] = [];
    await registerProcessing(t.app.services, fakeMedia({ fail: new Error('disk on fire'), seenWorkDirs: seen }));
    const id = await newTour();
    const tour = await waitFor(async () => {
      const row = await dbTour(id);
      return row.status === TOUR_STATUS.FAILED ? row : null;
    }, 'tour FAILED');
    expect(tour.processing_attempt).toBe(2); // the first try and one retry (PROCESSING_RETRY_LIMIT=1)
    expect(tour.progress_text).toBe(PROCESSING_FAILED_TEXT);
    const r = await t.gql(Q.tour, { id: `tour_${id}` }, owner.token);
    expect(r.data.tour.logs).toEqual([{ status: 'FAILED', error: PROCESSING_FAILED_TEXT }]);
    expect(r.data.tour.status.status).toBe('FAILED');
    expect(await tourFiles(id)).toEqual([]);
    // Temporary folders are removed after each attempt.
    expect(seen).toHaveLength(2);
    for (const dir of seen) await expect(fs.access(path.dirname(dir))).rejects.toThrow();
    // A failed tour holds no active slot; its upload still counts.
    const upload = await t.app.services.db
      .selectFrom('uploads')
      .select('submitted_at')
      .where('tour_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(upload.submitted_at).not.toBeNull();
  });
});
