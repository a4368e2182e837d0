/**
 * One user cannot tie up storage with uploads that are never submitted (a Free user started 30 multipart
 * uploads of 8 GiB and got 30 of them), an absurd size is refused as too large (1e300 answered "The file is empty."),
 * and IPv6 spellings of loopback pass no webhook URL check in production.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS, MAX_OPEN_UPLOADS, formatTexts } from '@roomwalk/shared';
import { loadConfig } from '../../src/config.js';
import { checkWebhookUrl } from '../../src/services/developer/outbound.js';
import { sweepAbandonedUploads } from '../../src/services/uploads.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser } from '../helpers/seed.js';
import { MQ } from '../support/multipart-client.js';
import { Q } from '../fixtures/tours.js';

const GiB = 1024 ** 3;

describe('unfinished uploads per user, and sizes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
  });
  afterAll(async () => t?.stop());

  const start = async (token: string, size: number, fileName: string) =>
    (await t.gql(MQ.start, { input: { extension: 'mp4', fileName, size, lastModified: 1 } }, token)).data
      .uploadMultipartStart as {
      key: string | null;
      uploadId: string | null;
      resumed: boolean;
      error: string | null;
      message: string | null;
    };

  it('a Free user starting 30 uploads of 8 GiB gets one; the others are refused in plain words', async () => {
    const free = await seedUser(t.app, { plan: 'free' });
    const answers = [];
    for (let i = 0; i < 30; i++) answers.push(await start(free.token, 8 * GiB, `walk-${i}.mp4`));
    expect(answers.filter((a) => a.uploadId)).toHaveLength(1);
    expect(answers[1]).toMatchObject({
      key: null,
      uploadId: null,
      error: ERROR_CODES.UPLOAD_INVALID,
      message: formatTexts.openUploadsTooLarge(8),
    });
    // The same file again still resumes its upload.
    expect(await start(free.token, 8 * GiB, 'walk-0.mp4')).toMatchObject({ resumed: true, key: answers[0]!.key });
    const rows = await t.app.services.db
      .selectFrom('uploads')
      .select('id')
      .where('user_id', '=', free.user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('counts small uploads and single-PUT links too; an abandoned upload stops counting and is swept', async () => {
    const free = await seedUser(t.app, { plan: 'free' });
    const first = await start(free.token, 20 * 1024 ** 2, 'a.mp4');
    expect(first.uploadId).toBeTruthy();
    for (const name of ['b.mp4', 'c.mp4'])
      expect((await start(free.token, 20 * 1024 ** 2, name)).uploadId).toBeTruthy();
    for (let i = 0; i < 2; i++)
      expect((await t.gql(Q.getUrl, { ext: 'mp4' }, free.token)).data.fileGetPreSignedUrl.uploadURL).toBeTruthy();
    const refusal = {
      uploadURL: null,
      error: ERROR_CODES.UPLOAD_INVALID,
      message: formatTexts.tooManyOpenUploads(MAX_OPEN_UPLOADS),
    };
    expect((await t.gql(Q.getUrl, { ext: 'mp4' }, free.token)).data.fileGetPreSignedUrl).toMatchObject(refusal);
    expect(await start(free.token, 20 * 1024 ** 2, 'd.mp4')).toMatchObject({
      uploadId: null,
      message: refusal.message,
    });

    // Begun longer ago than UPLOAD_ABANDON_SECONDS: no longer counted, and the sweep removes it with its parts.
    const past = new Date(Date.now() - (t.app.config.UPLOAD_ABANDON_SECONDS + 60) * 1000);
    await sql`UPDATE uploads SET created_at = ${past} WHERE key = ${first.key}`.execute(t.app.services.db);
    expect((await start(free.token, 20 * 1024 ** 2, 'd.mp4')).uploadId).toBeTruthy();
    expect(await sweepAbandonedUploads(t.app.services, new Date())).toBe(1);
    expect(
      await t.app.services.db.selectFrom('uploads').select('id').where('key', '=', first.key!).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('refuses sizes that are not sizes for what they are: 1e300 is too large, not empty', async () => {
    const pro = await seedUser(t.app, { plan: 'pro' });
    expect((await start(pro.token, 1e300, 'huge.mp4')).message).toBe(formatTexts.videoTooLarge(8));
    expect((await start(pro.token, 0, 'empty.mp4')).message).toBe(ERROR_TEXTS.videoEmpty);
    expect((await start(pro.token, -5, 'minus.mp4')).message).toBe(ERROR_TEXTS.videoSizeInvalid);
    expect((await start(pro.token, 1.5, 'half.mp4')).message).toBe(ERROR_TEXTS.videoSizeInvalid);
  });
});

describe('webhook URLs in production', () => {
  it('refuses IPv4-compatible IPv6 addresses and IPv4-mapped ones of private addresses', async () => {
    const prod = loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) });
    for (const url of [
      'https://[::7f00:1]/hook',
      'https://[::127.0.0.1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[::ffff:7f00:1]/hook',
      'https://[0:0:0:0:0:ffff:127.0.0.1]/hook',
      'https://[::a00:1]/hook',
      'https://[::a9fe:a9fe]/hook',
      'https://[::c0a8:101]/hook',
      'https://[64:ff9b::7f00:1]/hook',
      'https://[::]/hook',
      // Public IPv4 embedded the deprecated way: no real endpoint is written so.
      'https://[::5db8:d822]/hook',
    ]) {
      await expect(checkWebhookUrl(prod, url), url).rejects.toThrow(/private or local network/);
    }
    await expect(checkWebhookUrl(prod, 'https://[::ffff:5db8:d822]/hook')).resolves.toBe(
      'https://[::ffff:5db8:d822]/hook',
    );
  });
});
