/**
 * A processed tour's reel is cut from the tour's own 720p clips, not from the upload: its cost does not depend on
 * what was uploaded (a 4K 60 fps HEVC source read once per segment took minutes). Here the upload is gone from the
 * store, so a reel that read it would fail.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REEL_STATUS } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { generateVideo, makeTempDir, removeDir } from './support/media-videos.js';
import { CLIP_FPS, CLIP_FRAMES, RENDITIONS, segmentArgs, x264Args } from '../src/media/encoding.js';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';
import { runProcess } from '../src/media/run-process.js';
import { probeDuration } from '../src/services/ai/ffmpeg.js';
import { reelJob } from '../src/services/reels/run-reel.js';

const GEN = 'mutation($id: ID!) { tourGenerateReel(tourId: $id) { id } }';
const REELS = 'query($id: ID!) { tour(tourID: $id) { reels { id status { status } highURI } } }';
const SECONDS = 12;

describe('reels from the tour clips', () => {
  let t: TestApp;
  let owner: SeededUser;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', REEL_X264_PRESET: 'ultrafast' });
    owner = await seedUser(t.app, { plan: 'pro' });
    dir = await makeTempDir('reel-clips');
  });
  afterAll(async () => {
    await t?.stop();
    await removeDir(dir);
  });

  /** The high rendition cut into 36-frame fragmented MP4 clips, as processing makes them. */
  async function makeClips(): Promise<string[]> {
    const src = await generateVideo(path.join(dir, 'walk.mp4'), {
      width: 1280,
      height: 720,
      seconds: SECONDS,
      fps: CLIP_FPS,
    });
    const list = path.join(dir, 'clips.csv');
    const r = await runProcess(
      ffmpegBinaries().ffmpeg,
      [
        '-v',
        'error',
        '-y',
        '-i',
        src,
        ...x264Args(RENDITIONS.high),
        ...segmentArgs(SECONDS * CLIP_FPS, list),
        path.join(dir, 'clip-%04d.mp4'),
      ],
      {
        timeoutMs: 120_000,
        maxOutputBytes: 1024 * 1024,
      },
    ).done;
    expect(r.code, r.stderr).toBe(0);
    return (await fs.readFile(list, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => path.join(dir, line.split(',')[0]!));
  }

  it('renders a 1080x1920 reel from the clips with the upload gone', { timeout: 240_000 }, async () => {
    const files = await makeClips();
    const { db, storage } = t.app.services;
    const tour = await db
      .insertInto('tours')
      .values({
        company_id: owner.company.id,
        owner_id: owner.user.id,
        title: 'Clips only',
        status: 'PROCESSED',
        video_key: 'uploads/gone.mp4',
        fps: CLIP_FPS,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [index, file] of files.entries()) {
      const key = `tours/${tour.id}/v1/clips/${index}-high.mp4`;
      await storage.putFile(key, file, 'video/mp4');
      const frames = Math.min(CLIP_FRAMES, SECONDS * CLIP_FPS - index * CLIP_FRAMES);
      await db
        .insertInto('clips')
        .values({
          tour_id: tour.id,
          index,
          frame_count: frames,
          duration: frames / CLIP_FPS,
          high_key: key,
          low_key: key,
        })
        .execute();
    }
    await db.insertInto('markers').values({ tour_id: tour.id, name: 'Kitchen', frame_index: 100 }).execute();

    const r = await t.gql(GEN, { id: `tour_${tour.id}` }, owner.token);
    await reelJob(t.app.services, (r.data.tourGenerateReel.id as string).replace(/^reel_/, ''));
    const reel = (await t.gql(REELS, { id: `tour_${tour.id}` }, owner.token)).data.tour.reels[0];
    expect(reel.status.status).toBe(REEL_STATUS.CREATED);
    const out = path.join(dir, 'reel.mp4');
    await fs.writeFile(out, Buffer.from(await (await fetch(reel.highURI)).arrayBuffer()));
    const info = await probeDuration(out);
    expect(info).toMatchObject({ width: 1080, height: 1920 });
    expect(info.duration).toBeGreaterThanOrEqual(15);
    expect(info.duration).toBeLessThanOrEqual(30);
  });
});
