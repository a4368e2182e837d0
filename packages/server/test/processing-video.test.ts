/**
 * The whole path with real ffmpeg on generated videos: upload over HTTP through the signed URL, submit, progress over
 * graphql-ws until PROCESSED, clips served with ranges; rejected videos end FAILED with the spec's message.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { PROCESSING_FAILED_TEXT } from '../src/jobs/finish-processed-tour.js';
import {
  collectUntilFinal,
  landscapeVideo,
  listFiles,
  makeVideo,
  Q,
  uploadAndSubmit,
  waitFor,
} from './fixtures/tours.js';

describe.each(DB_KINDS)('video processing on %s', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  const rawId = (globalId: string) => globalId.replace(/^tour_/, '');

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function finalTour(tourId: string) {
    return waitFor(
      async () => {
        const r = await t.gql(Q.tour, { id: tourId }, owner.token);
        const s = r.data?.tour?.status?.status;
        return s === 'PROCESSED' || s === 'FAILED' ? r.data.tour : null;
      },
      'tour finished',
      120_000,
      250,
    );
  }

  it('turns an uploaded video into a tour, with progress events on the way', async () => {
    const video = await fs.readFile(await landscapeVideo(12));
    const client = t.wsClient(owner.token);
    const { tourId } = await uploadAndSubmit(t, owner.token, video);
    const sub = collectUntilFinal(client, tourId);
    const events = await sub.done;

    const last = events.at(-1)!;
    expect(last).toMatchObject({ status: 'PROCESSED', progress: 100 });
    expect(last.thumbnailURL).toMatch(/\/media\/tours\/.+\.jpg$/);
    const during = events.filter((e) => e.status === 'PROCESSING');
    expect(during.length).toBeGreaterThan(0);
    expect(during.some((e) => e.progress > 0 && e.progress < 100)).toBe(true);
    const percents = events.map((e) => e.progress);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    const tour = await finalTour(tourId);
    expect(tour.status.status).toBe('PROCESSED');
    expect(tour.logs).toEqual([{ status: 'PROCESSED', error: null }]);
    expect(tour.videoInfo).toMatchObject({ width: 1280, height: 720 });
    expect(tour.videoInfo.fullSize).toBeGreaterThan(0);
    expect(tour.videoInfo.mediumSize).toBeGreaterThan(0);
    expect(tour.videoInfo.smallSize).toBeGreaterThan(0);
    expect(tour.clips.length).toBeGreaterThan(0);
    expect(tour.clips.map((c: { index: number }) => c.index)).toEqual(tour.clips.map((_: unknown, i: number) => i));
    for (const c of tour.clips) expect(c.frameCount).toBeGreaterThan(0);

    // Clips as the player fetches them: by range, from anywhere.
    const clip = await fetch(tour.clips[0].highURI, {
      headers: { Range: 'bytes=0-63', Origin: 'https://listing.example' },
    });
    expect(clip.status).toBe(206);
    expect(clip.headers.get('access-control-allow-origin')).toBe('*');
    expect(clip.headers.get('cache-control')).toContain('immutable');
    expect(
      Buffer.from(await clip.arrayBuffer())
        .subarray(4, 8)
        .toString('latin1'),
    ).toBe('ftyp');
    const low = await fetch(tour.clips[0].lowURI, { method: 'HEAD' });
    expect(low.status).toBe(200);
    const thumb = await fetch(tour.thumbnailURL);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');

    // Exactly one attempt's files, nothing else.
    const files = (await listFiles(path.join(t.dataDir, 'files', 'tours', rawId(tourId)))).filter(
      (f) => !f.endsWith('.meta'),
    );
    expect(files.every((f) => f.startsWith('v1/'))).toBe(true);
    expect(files).toHaveLength(tour.clips.length * 2 + 1);
  });

  it("fails a too-short video with the spec's message, at once and without files", async () => {
    const video = await fs.readFile(
      await makeVideo('landscape-5s.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=30:duration=5',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ]),
    );
    const { tourId } = await uploadAndSubmit(t, owner.token, video);
    const tour = await finalTour(tourId);
    expect(tour.logs).toEqual([{ status: 'FAILED', error: VALIDATION.videoTooShort }]);
    expect(await listFiles(path.join(t.dataDir, 'files', 'tours', rawId(tourId)))).toEqual([]);
    const row = await t.app.services.db
      .selectFrom('tours')
      .select('processing_attempt')
      .where('id', '=', rawId(tourId))
      .executeTakeFirstOrThrow();
    expect(row.processing_attempt).toBe(1);
  });

  it("fails a low-resolution video with the spec's message", async () => {
    const video = await fs.readFile(
      await makeVideo('small-12s.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=30:duration=12',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
      ]),
    );
    const { tourId } = await uploadAndSubmit(t, owner.token, video);
    const tour = await finalTour(tourId);
    expect(tour.logs).toEqual([{ status: 'FAILED', error: VALIDATION.videoResolutionLow }]);
  });

  it('fails a file that is not a video, named .mp4, with a reason and no retry', async () => {
    const junk = Buffer.concat([
      Buffer.from('<html><body>'),
      Buffer.alloc(200_000, 0x41),
      Buffer.from('</body></html>'),
    ]);
    const { tourId } = await uploadAndSubmit(t, owner.token, junk);
    const tour = await finalTour(tourId);
    expect(tour.status.status).toBe('FAILED');
    expect(tour.logs).toHaveLength(1);
    expect(tour.logs[0].status).toBe('FAILED');
    expect(tour.logs[0].error).toBeTruthy();
    expect(tour.logs[0].error).not.toBe(PROCESSING_FAILED_TEXT);
    const row = await t.app.services.db
      .selectFrom('tours')
      .select('processing_attempt')
      .where('id', '=', rawId(tourId))
      .executeTakeFirstOrThrow();
    expect(row.processing_attempt).toBe(1);
    expect(await listFiles(path.join(t.dataDir, 'files', 'tours', rawId(tourId)))).toEqual([]);
  });
});
