/** The S3 adapter against s3rver on loopback: the storage contract, and an upload through a real S3 pre-signed PUT. */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { S3Storage, stagingKey } from '../src/storage/s3-storage.js';
import { UploadChangedError } from '../src/storage/storage.js';
import { createStorage } from '../src/storage/create-storage.js';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { Q, uploadAndSubmit } from './fixtures/tours.js';
import { fakeMedia } from './fixtures/fake-media.js';
import { processTourJob } from '../src/jobs/process-tour.js';
import { sweepAbandonedUploads } from '../src/services/uploads.js';

const BUCKET = 'roomwalk-test';

describe('S3 storage adapter (s3rver)', () => {
  let server: S3rver;
  let dir: string;
  let endpoint: string;
  let storage: S3Storage;

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
    endpoint = `http://127.0.0.1:${port}`;
    storage = new S3Storage({
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    });
  });
  afterAll(async () => {
    await server?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('is chosen by the factory when S3_BUCKET is set', () => {
    const config = loadConfig(
      { NODE_ENV: 'test' },
      { S3_BUCKET: BUCKET, S3_ENDPOINT: endpoint, CDN_BASE_URL: 'https://cdn.example.com', DATA_DIR: dir },
    );
    const s = createStorage(config);
    expect(s.kind).toBe('s3');
    expect(s.publicUrl('tours/a/v1/clips/0000-high.mp4')).toBe(
      'https://cdn.example.com/tours/a/v1/clips/0000-high.mp4',
    );
    expect(createStorage(loadConfig({ NODE_ENV: 'test' }, { DATA_DIR: dir })).kind).toBe('local');
  });

  it('puts, heads, reads ranges, downloads and deletes', async () => {
    await storage.put('tours/t1/v1/clips/0000-high.mp4', Buffer.from('0123456789'), 'video/mp4');
    expect(await storage.head('tours/t1/v1/clips/0000-high.mp4')).toEqual({ size: 10, contentType: 'video/mp4' });
    const part = await storage.get('tours/t1/v1/clips/0000-high.mp4', { start: 2, end: 5 });
    expect(await text(part!.stream)).toBe('2345');
    const file = path.join(dir, 'dl.bin');
    await storage.download('tours/t1/v1/clips/0000-high.mp4', file);
    expect(await fs.readFile(file, 'utf8')).toBe('0123456789');
    const { Readable } = await import('node:stream');
    await storage.put('tours/t1/v1/thumbnail.jpg', Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'image/jpeg');
    expect((await storage.head('tours/t1/v1/thumbnail.jpg'))?.size).toBe(4);
    expect(await storage.head('tours/t1/nothing')).toBeNull();
    expect(await storage.get('tours/t1/nothing')).toBeNull();

    await storage.put('tours/t1/v2/clips/0000-high.mp4', Buffer.from('x'), 'video/mp4');
    await storage.deletePrefix('tours/t1/v1');
    expect(await storage.head('tours/t1/v1/clips/0000-high.mp4')).toBeNull();
    expect(await storage.head('tours/t1/v1/thumbnail.jpg')).toBeNull();
    expect(await storage.head('tours/t1/v2/clips/0000-high.mp4')).not.toBeNull();
    await storage.delete('tours/t1/v2/clips/0000-high.mp4');
    expect(await storage.head('tours/t1/v2/clips/0000-high.mp4')).toBeNull();
  });

  it('serves public objects at the bucket URL', async () => {
    await storage.put('tours/t2/v1/thumbnail.jpg', Buffer.from('img'), 'image/jpeg');
    expect(storage.publicUrl('tours/t2/v1/thumbnail.jpg')).toBe(`${endpoint}/${BUCKET}/tours/t2/v1/thumbnail.jpg`);
  });

  it('presigns a PUT bound to its content type and expiry', async () => {
    const put = await storage.presignPut('uploads/x.mp4', {
      contentType: 'video/mp4',
      maxBytes: 1000,
      expiresInSeconds: 60,
    });
    expect(put.headers).toEqual([{ key: 'Content-Type', value: 'video/mp4' }]);
    // s3rver does not check SigV4 signatures, so check what S3 will: content type and expiry are in the signature.
    const q = new URL(put.url).searchParams;
    expect(q.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-type');
    expect(q.get('X-Amz-Expires')).toBe('60');
    const ok = await fetch(put.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: Buffer.alloc(100, 1),
    });
    expect(ok.status).toBe(200);
    // The PUT lands on the staging key; sealing copies it to the upload's key and removes the staged copy.
    expect(new URL(put.url).pathname).toBe(`/${BUCKET}/staging/uploads/x.mp4`);
    expect(await storage.head('uploads/x.mp4')).toBeNull();
    expect(await storage.sealUpload('uploads/x.mp4', () => undefined)).toEqual({ size: 100, contentType: 'video/mp4' });
    expect((await storage.head('uploads/x.mp4'))?.size).toBe(100);
    expect(await storage.head(stagingKey('uploads/x.mp4'))).toBeNull();
    // Sealing again (a submit refused after sealing, retried) answers what was sealed; a refusing check seals nothing.
    expect(await storage.sealUpload('uploads/x.mp4', () => undefined)).toEqual({ size: 100, contentType: 'video/mp4' });
    expect(await storage.sealUpload('uploads/none.mp4', () => undefined)).toBeNull();
    await fetch(put.url, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: Buffer.alloc(7, 2) });
    await expect(
      storage.sealUpload('uploads/x.mp4', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await storage.head('uploads/x.mp4'))?.size).toBe(100);
    await storage.deleteUpload('uploads/x.mp4');
    expect(await storage.head('uploads/x.mp4')).toBeNull();
    expect(await storage.head(stagingKey('uploads/x.mp4'))).toBeNull();
  });

  it('copies the staged object only if it is still the one checked (x-amz-copy-source-if-match), and sweeps old staged objects', async () => {
    const sent: Array<string | undefined> = [];
    const spy = storage.client.middlewareStack;
    spy.add(
      (next) => async (args) => {
        const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
        if (headers['x-amz-copy-source']) sent.push(headers['x-amz-copy-source-if-match']);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'copyIfMatchSpy' },
    );
    try {
      const bytes = Buffer.from('checked bytes');
      const put = await storage.presignPut('uploads/y.mp4', {
        contentType: 'video/mp4',
        maxBytes: 1000,
        expiresInSeconds: 60,
      });
      await fetch(put.url, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: bytes });
      await storage.sealUpload('uploads/y.mp4', () => undefined);
      expect(sent).toEqual([`"${createHash('md5').update(bytes).digest('hex')}"`]);
    } finally {
      spy.remove('copyIfMatchSpy');
    }
    const put = await storage.presignPut('uploads/z.mp4', {
      contentType: 'video/mp4',
      maxBytes: 1000,
      expiresInSeconds: 60,
    });
    await fetch(put.url, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: Buffer.alloc(5) });
    expect(await storage.sweepStagedUploads(new Date(Date.now() - 3600_000))).toBe(0);
    expect(await storage.sweepStagedUploads(new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(1);
    expect(await storage.head(stagingKey('uploads/z.mp4'))).toBeNull();
  });

  it('checks again when the staged object changed between its check and the copy (412), and gives up after three changes', async () => {
    const put = await storage.presignPut('uploads/w.mp4', {
      contentType: 'video/mp4',
      maxBytes: 1000,
      expiresInSeconds: 60,
    });
    const putBytes = (b: Buffer) =>
      fetch(put.url, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: b });
    await putBytes(Buffer.alloc(10, 1));
    // S3 answers 412 to a copy whose x-amz-copy-source-if-match no longer holds; s3rver ignores the header, so the
    // store's answer is stood in for here, after a PUT has replaced the staged object under the check.
    let changes = 0;
    const ifMatch: Array<string | undefined> = [];
    storage.client.middlewareStack.add(
      (next) => async (args) => {
        const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
        if (headers['x-amz-copy-source'] && changes > 0) {
          changes -= 1;
          ifMatch.push(headers['x-amz-copy-source-if-match']);
          await putBytes(Buffer.alloc(20 + changes, 2));
          throw Object.assign(new Error('At least one of the pre-conditions you specified did not hold'), {
            name: 'PreconditionFailed',
            $metadata: { httpStatusCode: 412 },
          });
        }
        return next(args);
      },
      { step: 'finalizeRequest', name: 'preconditionFailed' },
    );
    try {
      changes = 1;
      const checked: number[] = [];
      expect(await storage.sealUpload('uploads/w.mp4', (st) => void checked.push(st.size))).toEqual({
        size: 20,
        contentType: 'video/mp4',
      });
      expect(checked).toEqual([10, 20]);
      expect((await storage.head('uploads/w.mp4'))?.size).toBe(20);

      await putBytes(Buffer.alloc(30, 3));
      changes = 3;
      await expect(storage.sealUpload('uploads/w.mp4', () => undefined)).rejects.toBeInstanceOf(UploadChangedError);
      expect((await storage.head('uploads/w.mp4'))?.size).toBe(20);
      expect(ifMatch.length).toBe(4);
    } finally {
      storage.client.middlewareStack.remove('preconditionFailed');
      await storage.deleteUpload('uploads/w.mp4');
    }
  });

  describe('in the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp('pglite', {
        ROLE: 'api',
        S3_BUCKET: BUCKET,
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        UPLOAD_MAX_BYTES: 50_000,
      });
    });
    afterAll(async () => {
      await t?.stop();
    });

    it('uploads straight to the bucket and submits', async () => {
      const u = await seedUser(t.app, { plan: 'pro' });
      const p = (await t.gql(Q.getUrl, { ext: 'mp4' }, u.token)).data.fileGetPreSignedUrl;
      expect(p.uploadURL.startsWith(`${endpoint}/${BUCKET}/staging/${p.key}?`)).toBe(true);
      const put = await fetch(p.uploadURL, {
        method: 'PUT',
        headers: { 'Content-Type': 'video/mp4' },
        body: Buffer.alloc(4000, 9),
      });
      expect(put.status).toBe(200);
      const s = await t.gql(Q.submit, { key: p.key }, u.token);
      expect(s.errors).toBeUndefined();
      expect(s.data.fileSubmitPreSignedUpload.bucketURL).toBe(`${endpoint}/${BUCKET}/${p.key}`);
    });

    it('processes from the bucket into the bucket, serves clips from it, and deletes them with the tour', async () => {
      const u = await seedUser(t.app, { plan: 'pro' });
      const { tourId } = await uploadAndSubmit(t, u.token, Buffer.alloc(4000, 9));
      const id = tourId.replace(/^tour_/, '');
      await processTourJob(t.app.services, id, fakeMedia({ clips: 2 }));
      const tour = (await t.gql(Q.tour, { id: tourId }, u.token)).data.tour;
      expect(tour.status.status).toBe('PROCESSED');
      expect(tour.clips[0].highURI).toBe(`${endpoint}/${BUCKET}/tours/${id}/v1/clips/0000-high.mp4`);
      const clip = await fetch(tour.clips[0].highURI, { headers: { Range: 'bytes=0-9' } });
      expect(clip.status).toBe(206);
      expect((await clip.arrayBuffer()).byteLength).toBe(10);
      expect((await t.gql(Q.del, { id: tourId }, u.token)).errors).toBeUndefined();
      expect(await t.app.services.storage.head(`tours/${id}/v1/clips/0000-high.mp4`)).toBeNull();
      expect(await t.app.services.storage.head(`tours/${id}/v1/thumbnail.jpg`)).toBeNull();
    });

    it('refuses at submit a file over the limit a presigned PUT cannot enforce, and removes it', async () => {
      const u = await seedUser(t.app, { plan: 'pro' });
      const p = (await t.gql(Q.getUrl, { ext: 'mp4' }, u.token)).data.fileGetPreSignedUrl;
      expect(
        (
          await fetch(p.uploadURL, {
            method: 'PUT',
            headers: { 'Content-Type': 'video/mp4' },
            body: Buffer.alloc(60_000, 9),
          })
        ).status,
      ).toBe(200);
      const s = await t.gql(Q.submit, { key: p.key }, u.token);
      expect(s.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UPLOAD_INVALID);
      expect(await t.app.services.storage.head(p.key)).toBeNull();
      expect(await t.app.services.storage.head(stagingKey(p.key))).toBeNull();
    });

    it('processes the bytes submitted: a slow PUT started before submit and finished after it changes nothing (#15 item 5)', async () => {
      const u = await seedUser(t.app, { plan: 'pro' });
      const p = (await t.gql(Q.getUrl, { ext: 'mp4' }, u.token)).data.fileGetPreSignedUrl;
      const submitted = Buffer.alloc(4000, 7);
      const swapped = Buffer.alloc(6000, 8);
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      expect(
        (await fetch(p.uploadURL, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: submitted })).status,
      ).toBe(200);
      const s = await t.gql(Q.submit, { key: p.key }, u.token);
      expect(s.errors, JSON.stringify(s.errors)).toBeUndefined();
      // S3 makes a PUT's object visible only when the PUT completes, so a slow PUT started before submit is, to the
      // store, a PUT that finishes after it: one here. (s3rver writes in place while receiving, unlike S3, so a PUT
      // held open across the submit would show it half-written bytes.) The presigned URL cannot be revoked: it
      // succeeds.
      expect(
        (await fetch(p.uploadURL, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: swapped })).status,
      ).toBe(200);

      const stored = await t.app.services.storage.get(p.key);
      expect(sha(Buffer.from(await stored!.stream.toArray().then((c) => Buffer.concat(c as Buffer[]))))).toBe(
        sha(submitted),
      );
      const published = await fetch(s.data.fileSubmitPreSignedUpload.bucketURL);
      expect(sha(Buffer.from(await published.arrayBuffer()))).toBe(sha(submitted));
      const row = await t.app.services.db
        .selectFrom('uploads')
        .select(['size'])
        .where('key', '=', p.key)
        .executeTakeFirstOrThrow();
      expect(Number(row.size)).toBe(submitted.length);

      const seen: string[] = [];
      const fake = fakeMedia({ clips: 1 });
      const recording: typeof fake = {
        ...fake,
        async processVideo(opts) {
          seen.push(sha(await fs.readFile(opts.input)));
          return fake.processVideo(opts);
        },
      };
      await processTourJob(t.app.services, s.data.fileSubmitPreSignedUpload.tourId.replace(/^tour_/, ''), recording);
      expect(seen).toEqual([sha(submitted)]);

      // What the late PUT left is staged bytes nobody reads; the upload sweep removes them once the URL has expired.
      expect(await t.app.services.storage.head(stagingKey(p.key))).not.toBeNull();
      await sweepAbandonedUploads(
        t.app.services,
        new Date(Date.now() + (t.app.config.UPLOAD_URL_TTL_SECONDS + 24 * 3600 + 60) * 1000),
      );
      expect(await t.app.services.storage.head(stagingKey(p.key))).toBeNull();
      expect((await t.app.services.storage.head(p.key))?.size).toBe(submitted.length);
    });
  });
});
