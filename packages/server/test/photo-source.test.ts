/**
 * The original following a device-converted mezzanine: tourPhotoSourceAttach takes the uploader's completed upload for
 * a tour they may edit, the shots queue probes it and keeps it only when it is the same video at a larger size, and
 * the photos are then taken from it at its full resolution (a 1280x720 original behind a 640x360 tour source here).
 * Refused: another video (a different duration, or no larger), an unfinished upload, someone else's upload, the same
 * upload twice. A refused original is removed and the photos keep reading the tour's own source.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { processedTour, roomsVideo } from './ai-fixtures.js';
import { generateShotsJob } from '../src/services/shots/run-shots.js';
import { attachPhotoSourceJob } from '../src/services/shots/attach-photo-source.js';
import { photoSourceOf } from '../src/services/photo-source.js';
import { MQ } from './support/multipart-client.js';

const run = promisify(execFile);
const ATTACH = 'mutation($input: TourPhotoSourceAttachInput!) { tourPhotoSourceAttach(input: $input) { success } }';
const SHOTS = 'query($id: ID!) { tour(tourID: $id) { shots { originalImageURI } } }';

describe('the original following a converted upload, for the photos', () => {
  let t: TestApp;
  let owner: SeededUser;
  let other: SeededUser;
  let dir: string;
  /** The rooms video at twice the tour source's size, and a 10 s cut of it. */
  let larger: string;
  let shorter: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    owner = await seedUser(t.app, { plan: 'pro' });
    other = await seedUser(t.app, { plan: 'pro' });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-photo-source-test-'));
    const { file } = await roomsVideo();
    larger = path.join(dir, 'larger.mp4');
    shorter = path.join(dir, 'shorter.mp4');
    const scale = ['-vf', 'scale=1280:720', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-an'];
    await run('ffmpeg', ['-v', 'error', '-y', '-i', file, ...scale, larger]);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', file, '-t', '10', ...scale, shorter]);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  /** A finished single-PUT upload of `file` by `user`. */
  async function uploaded(user: SeededUser, file: string, finished = true) {
    const key = `uploads/${randomUUID()}.mp4`;
    if (finished) await t.app.services.storage.putFile(key, file, 'video/mp4');
    await t.app.services.db
      .insertInto('uploads')
      .values({ key, company_id: user.company.id, user_id: user.user.id, extension: 'mp4', size: null, tour_id: null })
      .execute();
    return key;
  }
  const attach = (tourId: string, key: string, user = owner) =>
    t.gql(ATTACH, { input: { tourId: `tour_${tourId}`, key } }, user.token);
  const stillSize = async (tourId: string) => {
    await generateShotsJob(t.app.services, tourId);
    const shots = (await t.gql(SHOTS, { id: `tour_${tourId}` }, owner.token)).data.tour.shots as Array<{
      originalImageURI: string;
    }>;
    expect(shots.length).toBeGreaterThan(0);
    const { width, height } = await sharp(
      Buffer.from(await (await fetch(shots[0]!.originalImageURI)).arrayBuffer()),
    ).metadata();
    return `${width}x${height}`;
  };

  it('takes the photos from the original at its full resolution once it has followed', async () => {
    const tourId = await processedTour(t.app, owner);
    expect(await stillSize(tourId)).toBe('640x360');
    const key = await uploaded(owner, larger);
    expect((await attach(tourId, key)).data.tourPhotoSourceAttach.success).toBe(true);
    await attachPhotoSourceJob(t.app.services, { tourId, key });
    // Kept under a random key named on the tour, never the guessable tours/<id>/photo-source.
    const original = await photoSourceOf(t.app.services, tourId);
    expect(original).toMatch(new RegExp(`^tours/${tourId}/originals/[0-9a-f]{32}\\.mp4$`));
    expect(await t.app.services.storage.head(original!)).not.toBeNull();
    expect(await t.app.services.storage.head(`tours/${tourId}/photo-source`)).toBeNull();
    // The upload's object is gone (kept under the tour, deleted with it); the same upload cannot be attached again.
    expect(await t.app.services.storage.head(key)).toBeNull();
    expect((await attach(tourId, key)).errors?.[0]?.message).toBe('This upload was already submitted.');
    expect(await stillSize(tourId)).toBe('1280x720');
  }, 120_000);

  it('uploads the original of a tour with no tour slot left (it makes no tour), only for a tour the caller may edit', async () => {
    // Free plan: one active tour, which this one takes.
    const agent = await seedUser(t.app, { plan: 'free' });
    const tourId = await processedTour(t.app, agent);
    const data = await fs.readFile(larger);
    const input = { extension: 'mp4', fileName: 'IMG_0001.MOV', size: data.length, lastModified: 3 };
    const plain = await t.gql(MQ.start, { input }, agent.token);
    expect(plain.data.uploadMultipartStart.error).toBe(ERROR_CODES.NO_ACTIVE_TOURS_LEFT);
    const theirs = await t.gql(
      MQ.start,
      { input: { ...input, photoSourceFor: `tour_${await processedTour(t.app, other)}` } },
      agent.token,
    );
    expect(theirs.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);

    const up = (await t.gql(MQ.start, { input: { ...input, photoSourceFor: `tour_${tourId}` } }, agent.token)).data
      .uploadMultipartStart;
    expect(up.error).toBeNull();
    const ref = { key: up.key, uploadId: up.uploadId };
    for (let n = 1; n <= up.partCount; n++) {
      const signed = await t.gql(MQ.sign, { input: { ...ref, partNumber: n } }, agent.token);
      const body = data.subarray((n - 1) * up.partSize, n * up.partSize);
      expect((await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body })).status).toBe(200);
    }
    expect((await t.gql(MQ.complete, { input: ref }, agent.token)).errors).toBeUndefined();
    expect((await attach(tourId, up.key, agent)).data.tourPhotoSourceAttach.success).toBe(true);
  });

  it('refuses another video (shorter; no larger), an unfinished upload, and someone else’s upload', async () => {
    const tourId = await processedTour(t.app, owner);
    for (const file of [shorter, (await roomsVideo()).file]) {
      const key = await uploaded(owner, file);
      expect((await attach(tourId, key)).errors).toBeUndefined();
      await attachPhotoSourceJob(t.app.services, { tourId, key });
      expect(await photoSourceOf(t.app.services, tourId)).toBeNull();
      expect(await t.app.services.storage.head(key)).toBeNull();
    }
    const unfinished = await uploaded(owner, larger, false);
    expect((await attach(tourId, unfinished)).errors?.[0]?.message).toBe(
      'The video did not finish uploading. Please try again.',
    );
    const theirs = await uploaded(other, larger);
    const r = await attach(tourId, theirs);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await stillSize(tourId)).toBe('640x360');
  }, 120_000);
});
