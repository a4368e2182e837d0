/**
 * A cut-off recording, with real ffmpeg: a 60 s walkthrough whose index sits at the start (the
 * `+faststart` layout phones and editors write) keeps only its first bytes, as an upload or copy stopped part-way
 * leaves it. Processing keeps the frames that are there as a best-effort tour and says what was kept: the tour's
 * videoInfo names the seconds kept and declared, and the owner gets a mail with the same words the console shows.
 * A whole file says nothing of the kind.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutOffRecordingText } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { waitForMail } from './helpers/accounts.js';
import { landscapeVideo, makeVideo, uploadAndSubmit, waitFor } from './fixtures/tours.js';

const TOUR = `query($id: ID!) { tour(tourID: $id) { status { status } failureReason
  videoInfo { keptSeconds declaredSeconds } clips { frameCount } } }`;

describe('a cut-off recording', () => {
  let t: TestApp;
  let owner: SeededUser;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const finished = (tourId: string) =>
    waitFor(
      async () => {
        const r = await t.gql(TOUR, { id: tourId }, owner.token);
        const s = r.data?.tour?.status?.status;
        return s === 'PROCESSED' || s === 'FAILED' ? r.data.tour : null;
      },
      'tour finished',
      240_000,
      250,
    );

  it('keeps what the file holds as a tour and tells the owner what was kept, of what the index declares', async () => {
    await expectCutOffTour(t, owner, finished);
  }, 300_000);

  it('a whole file is a tour with nothing to say', async () => {
    const { tourId } = await uploadAndSubmit(t, owner.token, await fs.readFile(await landscapeVideo(12)));
    const tour = await finished(tourId);
    expect(tour.status.status).toBe('PROCESSED');
    expect(tour.videoInfo).toEqual({ keptSeconds: null, declaredSeconds: null });
  }, 300_000);
});

// A long recording goes out in segments that any worker takes (jobs/process-tour-segments.ts): the join says the same.
describe('a cut-off recording processed in segments', () => {
  let t: TestApp;
  let owner: SeededUser;

  beforeAll(async () => {
    t = await startTestApp('pglite', { PROCESSING_SEGMENT_SECONDS: 4.8 });
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('keeps what the file holds and tells the owner, as in one piece', async () => {
    await expectCutOffTour(t, owner, (tourId) =>
      waitFor(
        async () => {
          const r = await t.gql(TOUR, { id: tourId }, owner.token);
          const s = r.data?.tour?.status?.status;
          return s === 'PROCESSED' || s === 'FAILED' ? r.data.tour : null;
        },
        'tour finished',
        240_000,
        250,
      ),
    );
  }, 300_000);
});

/** Uploads the first 30 % of a 60 s `+faststart` file and checks the tour, its video info and the owner's mail. */
async function expectCutOffTour(
  t: TestApp,
  owner: SeededUser,
  finished: (tourId: string) => Promise<Record<string, any>>,
): Promise<void> {
  {
    const whole = await fs.readFile(
      await makeVideo('landscape-60s-faststart.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=30:duration=60',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
      ]),
    );
    // The first 30 % of the bytes (what `head -c` keeps): the index still says 60 s.
    const cut = whole.subarray(0, Math.round(whole.length * 0.3));
    const { tourId } = await uploadAndSubmit(t, owner.token, Buffer.from(cut));
    const tour = await finished(tourId);
    expect(tour.status.status).toBe('PROCESSED');
    const kept = tour.videoInfo.keptSeconds as number;
    expect(tour.videoInfo.declaredSeconds).toBe(60);
    expect(kept).toBeGreaterThan(10);
    expect(kept).toBeLessThan(30);
    // Kept is what the tour's frames hold (15 frames a second).
    const frames = tour.clips.reduce((n: number, c: { frameCount: number }) => n + c.frameCount, 0);
    expect(Math.abs(kept * 15 - frames)).toBeLessThanOrEqual(1);
    const words = cutOffRecordingText(kept, 60);
    expect(words).toMatch(/^Only the first \d+ s of 1 min could be read; the rest of the file was missing\.$/);
    const mail = await waitForMail(t, owner.user.username, /is ready, from part of the recording/);
    expect(mail.text_body).toContain(words);
  }
}
