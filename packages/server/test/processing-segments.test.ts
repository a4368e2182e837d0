/**
 * A long video in segments: the process-tour job sends segments that the segment workers process and the
 * join turns into the tour's clips; the clips are those of processing in one piece (same count, same frames per clip),
 * the progress sums the segments and never goes back, and each segment records which worker made it. Real ffmpeg; the
 * segment length is shortened (PROCESSING_SEGMENT_SECONDS 4.8 = two clips) so a 12 s video makes three segments.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOUR_STATUS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { registerProcessing } from '../src/jobs/workers.js';
import { processVideo } from '../src/media/process-video.js';
import { listFiles, makeVideo, uploadAndSubmit, waitFor } from './fixtures/tours.js';

/** 12 s of 1280x720 at 30 fps with a keyframe every second, as phones record. */
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

describe('a video processed in segments (PGlite, one process)', { timeout: 300_000 }, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', {
      ROLE: 'api',
      PROCESSING_SEGMENT_SECONDS: 4.8,
      PROCESSING_RETRY_DELAY_SECONDS: 0,
    });
    await registerProcessing(t.app.services);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('becomes the tour processing in one piece makes, with progress summed over the segments', async () => {
    const file = await keyframedVideo();
    const owner = await seedUser(t.app, { plan: 'pro' });
    const { db } = t.app.services;
    const { tourId } = await uploadAndSubmit(t, owner.token, await fs.readFile(file));
    const id = tourId.replace(/^tour_/, '');
    const seen: number[] = [];
    const tour = await waitFor(
      async () => {
        const row = await db.selectFrom('tours').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        if (seen.at(-1) !== row.progress) seen.push(row.progress);
        return row.status !== TOUR_STATUS.PROCESSING ? row : null;
      },
      'tour processed',
      280_000,
      50,
    );
    expect(tour.status, tour.progress_text ?? '').toBe(TOUR_STATUS.PROCESSED);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));

    const segments = await db
      .selectFrom('tour_segments')
      .selectAll()
      .where('tour_id', '=', id)
      .orderBy('index')
      .execute();
    expect(segments.map((s) => [s.first_frame, s.end_frame])).toEqual([
      [0, 72],
      [72, 144],
      [144, null],
    ]);
    expect(segments.every((s) => s.done_at && s.result?.worker === `${os.hostname()}:${process.pid}`)).toBe(true);

    const clips = await db.selectFrom('clips').selectAll().where('tour_id', '=', id).orderBy('index').execute();
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-one-piece-'));
    try {
      const one = await processVideo({ input: file, workDir: work });
      expect(clips.map((c) => c.frame_count)).toEqual(one.clips.map((c) => c.frameCount));
      expect(tour.video_info).toMatchObject({ width: 1280, height: 720 });
    } finally {
      await fs.rm(work, { recursive: true, force: true });
    }
    // Exactly the live clip set and the thumbnail remain.
    const files = (await listFiles(path.join(t.dataDir, 'files', 'tours', id))).filter((f) => !f.endsWith('.meta'));
    expect(files).toEqual(
      [...clips.flatMap((c) => [c.high_key, c.low_key]), tour.thumbnail_key!]
        .map((k) => k.replace(`tours/${id}/`, ''))
        .sort(),
    );
  });
});
