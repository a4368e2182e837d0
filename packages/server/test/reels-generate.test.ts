/** tourGenerateReel end to end: render on a generated video, progress events, limits, failure and retry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, REEL_STATUS, VALIDATION } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { reelJob } from '../src/services/reels/run-reel.js';
import { topics } from '../src/events/event-bus.js';
import { PROGRESS_TEXT } from '../src/media/progress-text.js';
import { probeDuration } from '../src/services/ai/ffmpeg.js';
import { expectNoWorkDirLeft, processedTour } from './ai-fixtures.js';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const GEN = 'mutation($id: ID!) { tourGenerateReel(tourId: $id) { id key seed provider progress status { status } } }';
const SUB = 'subscription($id: ID!) { reelProgressUpdated(reelId: $id) { progress status text thumbnailURL } }';
const REELS =
  'query($id: ID!) { tour(tourID: $id) { reels { id key status { status } highURI thumbnailURL provider } } }';
type Ev = { progress: number; status: string; text: string | null; thumbnailURL: string | null };

describe.each(DB_KINDS)('reels on %s', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { ROLE: 'api', REEL_X264_PRESET: 'ultrafast' });
    owner = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });
  const raw = (id: string) => id.replace(/^reel_/, '');

  // A 19 s 1080x1920 render with the privacy blur (on by default): generous for a loaded 2-core machine.
  it('renders a 1080x1920 H.264 reel of 15-30 s with progress in order, and lists it on the tour', async () => {
    const tourId = await processedTour(t.app, owner);
    await t.app.services.db
      .insertInto('markers')
      .values([
        { tour_id: tourId, name: 'Kitchen', frame_index: 60 },
        { tour_id: tourId, name: 'Bedroom', frame_index: 140 },
      ])
      .execute();
    const r = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourGenerateReel).toMatchObject({
      provider: 'roomwalk-ffmpeg',
      progress: 0,
      status: { status: REEL_STATUS.PROCESSING },
      key: 'sunny-flat-1',
    });
    const reelId = r.data.tourGenerateReel.id as string;
    const client = t.wsClient(owner.token);
    const events: Ev[] = [];
    let ready!: () => void;
    const readyP = new Promise<void>((res) => (ready = res));
    client.on('connected', () => ready());
    const done = new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ reelProgressUpdated: Ev }>(
        { query: SUB, variables: { id: reelId } },
        {
          next: (v) => {
            if (v.errors) return reject(new Error(JSON.stringify(v.errors)));
            events.push(v.data!.reelProgressUpdated);
            if (v.data!.reelProgressUpdated.status !== REEL_STATUS.PROCESSING) {
              stop();
              resolve();
            }
          },
          error: reject,
          complete: () => resolve(),
        },
      );
    });
    await readyP;
    await expectNoWorkDirLeft('roomwalk-reel-', async () => {
      await reelJob(t.app.services, raw(reelId));
      await done;
    });
    const progress = events.map((e) => e.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(events.at(-1)).toMatchObject({ progress: 100, status: REEL_STATUS.CREATED });
    expect(events.at(-1)!.thumbnailURL).toMatch(/^http/);
    const tour = await t.gql(REELS, { id: `tour_${tourId}` }, owner.token);
    const reel = tour.data.tour.reels[0];
    expect(reel).toMatchObject({ id: reelId, status: { status: REEL_STATUS.CREATED } });
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'rw-reel-check-')), 'r.mp4');
    await fs.writeFile(file, Buffer.from(await (await fetch(reel.highURI)).arrayBuffer()));
    const info = await probeDuration(file);
    expect(info).toMatchObject({ width: 1080, height: 1920 });
    expect(info.duration).toBeGreaterThanOrEqual(15);
    expect(info.duration).toBeLessThanOrEqual(30);
    await fs.rm(path.dirname(file), { recursive: true });
    // Public viewers of the tour do not see reels.
    expect((await t.gql(REELS, { id: `tour_${tourId}` })).data.tour.reels).toEqual([]);
  }, 180_000);

  it('a failed render ends FAILED with a reason and no files; retry makes a new reel; five non-failed is the limit', async () => {
    const tourId = await processedTour(t.app, owner);
    const first = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    const reelId = raw(first.data.tourGenerateReel.id);
    await reelJob(t.app.services, reelId, {
      render: async () => {
        throw new Error('encoder crashed');
      },
    });
    const row = await t.app.services.db
      .selectFrom('reels')
      .selectAll()
      .where('id', '=', reelId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: REEL_STATUS.FAILED, error: 'Could not generate reel', video_key: null });
    const files = await fs.readdir(path.join(t.dataDir, 'files', 'tours', tourId)).catch(() => []);
    expect(files.filter((f) => f === 'reels')).toEqual([]);
    // Retry = a new reel; failed ones do not count.
    for (let i = 0; i < 5; i++)
      expect((await t.gql(GEN, { id: `tour_${tourId}` }, owner.token)).errors).toBeUndefined();
    const over = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    expect(over.errors?.[0]).toMatchObject({
      message: VALIDATION.reelsMax,
      extensions: { code: ERROR_CODES.REELS_LIMIT },
    });
  });

  it("reports a render through the jobs' one progress reporter: each stage once it starts, throttled between, in order, then done", async () => {
    const tourId = await processedTour(t.app, owner);
    const reelId = raw((await t.gql(GEN, { id: `tour_${tourId}` }, owner.token)).data.tourGenerateReel.id);
    const events: Ev[] = [];
    const ac = new AbortController();
    const listening = (async () => {
      for await (const e of t.app.services.events.subscribe<Ev>(topics.reelProgress(reelId), ac.signal)) {
        events.push(e);
        if (e.status !== REEL_STATUS.PROCESSING) break;
      }
    })();
    let rowWhileRendering: unknown;
    await reelJob(t.app.services, reelId, {
      // A stand-in encoder reporting once per frame, as ffmpeg's progress lines would.
      render: async ({ workDir, onProgress }) => {
        for (let frame = 1; frame <= 2000; frame++) onProgress?.(frame / 2000);
        rowWhileRendering = await t.app.services.db
          .selectFrom('reels')
          .select(['progress', 'progress_text'])
          .where('id', '=', reelId)
          .executeTakeFirst();
        const videoPath = path.join(workDir, 'reel.mp4');
        const thumbnailPath = path.join(workDir, 'reel.jpg');
        await fs.writeFile(videoPath, 'not really a video');
        await fs.writeFile(thumbnailPath, 'not really an image');
        return { videoPath, thumbnailPath, duration: 20, segments: [] };
      },
    });
    await listening;
    ac.abort();
    expect(rowWhileRendering).toMatchObject({ progress_text: PROGRESS_TEXT.renderingReel });
    const stages = events.map((e) => e.text).filter((text, i, all) => text !== all[i - 1]);
    expect(stages).toEqual([PROGRESS_TEXT.preparing, PROGRESS_TEXT.renderingReel, PROGRESS_TEXT.savingReel, null]);
    expect(events.length).toBeLessThan(20);
    const progress = events.map((e) => e.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(events.at(-1)).toMatchObject({ progress: 100, status: REEL_STATUS.CREATED });
  });

  it("refuses a tour that is not processed, and another company's reel progress", async () => {
    const tourId = await processedTour(t.app, owner, { status: 'PROCESSING' });
    const r = await t.gql(GEN, { id: `tour_${tourId}` }, owner.token);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.TOUR_NOT_PROCESSED);
  });
});
