/**
 * Account deletion removes a company's files from S3 too (s3rver on loopback, through the same storage interface):
 * clips, posters, reels and photos under the tour, the source upload the logo
 * and the profile picture; another company's files stay.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleDeletion } from '../src/services/personal-data/account-deletion.js';
import { sweepPersonalData } from '../src/services/personal-data/purge.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { insertTours } from './billing-helpers.js';

const BUCKET = 'roomwalk-deletion-test';
const DAY = 86_400_000;

describe('account deletion on S3 storage (s3rver)', () => {
  let server: S3rver;
  let dir: string;
  let t: TestApp;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-s3rver-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    const { port } = await server.run();
    t = await startTestApp('pglite', {
      ROLE: 'api',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    });
  });
  afterAll(async () => {
    await t?.stop();
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('deletes every file of the company from the bucket once the grace period ended', async () => {
    const storage = t.app.services.storage;
    expect(storage.kind).toBe('s3');
    const db = t.app.services.db;
    const owner = await seedUser(t.app);
    const other = await seedUser(t.app);
    const [tourId] = (await insertTours(t.app, { companyId: owner.company.id, userId: owner.user.id }, 1)) as [string];
    const [otherTour] = (await insertTours(t.app, { companyId: other.company.id, userId: other.user.id }, 1)) as [
      string,
    ];
    const source = `uploads/${tourId}.mp4`;
    const keys = [
      `tours/${tourId}/v1/c0-high.mp4`,
      `tours/${tourId}/thumbs/poster.jpg`,
      `tours/${tourId}/shots/s1/original.jpg`,
      `companies/${owner.company.id}/logo.png`,
      `profiles/${owner.user.id}/me.jpg`,
      source,
    ];
    for (const k of [...keys, `tours/${otherTour}/v1/c0-high.mp4`])
      await storage.put(k, Buffer.from(k), 'application/octet-stream');
    await db.updateTable('tours').set({ video_key: source }).where('id', '=', tourId).execute();
    for (const k of keys) expect(await storage.head(k), k).not.toBeNull();

    const due = await scheduleDeletion(t.app.services, owner.user.id);
    expect((await sweepPersonalData(t.app.services, new Date(due.getTime() - DAY))).accounts).toBe(0);
    expect(await storage.head(keys[0]!)).not.toBeNull();
    expect((await sweepPersonalData(t.app.services, new Date(due.getTime() + 60_000))).accounts).toBe(1);

    for (const k of keys) expect(await storage.head(k), k).toBeNull();
    expect(await storage.head(`tours/${otherTour}/v1/c0-high.mp4`)).not.toBeNull();
    expect(
      await db.selectFrom('companies').select('id').where('id', '=', owner.company.id).executeTakeFirst(),
    ).toBeUndefined();
  });
});
