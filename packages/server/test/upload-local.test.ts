/**
 * Uploads through the local store's signed PUT URL: what is accepted, what is refused, and that nothing partial stays.
 */
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import type { LocalStorage } from '../src/storage/local-storage.js';
import { listFiles, Q, uploadBytes, waitFor } from './fixtures/tours.js';

describe.each(DB_KINDS)('uploads through signed URLs on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let storage: LocalStorage;
  const filesRoot = () => path.join(t.dataDir, 'files');
  const uploadFiles = async () => (await listFiles(filesRoot())).filter((f) => f.startsWith('uploads/'));

  beforeAll(async () => {
    // API role: these tests are about the upload itself, not processing.
    t = await startTestApp(kind, { ROLE: 'api' });
    storage = t.app.services.storage as LocalStorage;
  });
  // A user per test: a user may hold only MAX_OPEN_UPLOADS unfinished uploads, and these tests leave theirs open.
  beforeEach(async () => {
    token = (await seedUser(t.app, { plan: 'pro' })).token;
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function newUpload(ext = 'mp4') {
    const r = await t.gql(Q.getUrl, { ext }, token);
    expect(r.errors).toBeUndefined();
    return r.data.fileGetPreSignedUrl as {
      uploadURL: string;
      key: string;
      headers: Array<{ key: string; value: string }>;
      error: string | null;
    };
  }

  it('refuses without a session', async () => {
    const r = await t.gql(Q.getUrl, { ext: 'mp4' });
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('answers a company without a licence in error/message, before anything else', async () => {
    const noLicence = await seedUser(t.app, { plan: null });
    const r = await t.gql(Q.getUrl, { ext: 'exe' }, noLicence.token);
    expect(r.data.fileGetPreSignedUrl).toEqual({
      uploadURL: null,
      key: null,
      headers: [],
      error: ERROR_CODES.NO_ACTIVE_LICENSE,
      message: ERROR_TEXTS.noActiveLicense,
    });
  });

  it('refuses a file type that is not a video, in error/message', async () => {
    const r = await t.gql(Q.getUrl, { ext: 'exe' }, token);
    expect(r.data.fileGetPreSignedUrl).toMatchObject({ uploadURL: null, key: null, error: ERROR_CODES.UPLOAD_INVALID });
    expect(r.data.fileGetPreSignedUrl.message).toMatch(/not supported/);
  });

  it('gives a signed PUT URL that takes the file and answers 200 with an empty body', async () => {
    const p = await newUpload('.MOV');
    expect(p.key).toMatch(/^uploads\/[0-9a-f-]{36}\.mov$/);
    expect(p.headers).toEqual([{ key: 'Content-Type', value: 'video/quicktime' }]);
    const body = Buffer.alloc(64 * 1024, 7);
    const res = await fetch(p.uploadURL, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/quicktime', Origin: 'https://console.example' },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://console.example');
    expect((await storage.head(p.key))?.size).toBe(body.length);
    const row = await t.app.services.db
      .selectFrom('uploads')
      .selectAll()
      .where('key', '=', p.key)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ size: body.length, extension: 'mov', submitted_at: null });
  });

  it('answers the CORS preflight of the console', async () => {
    const p = await newUpload();
    const res = await fetch(p.uploadURL, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
  });

  it('refuses a tampered signature, a tampered limit and a key it did not sign, storing nothing', async () => {
    const p = await newUpload();
    const before = await uploadFiles();
    const bad = new URL(p.uploadURL);
    // Change the first character (six whole bits of the MAC): the last ones of base64 carry padding bits, and a
    // signature that already ended in "AA" once passed unchanged.
    const sig = bad.searchParams.get('sig')!;
    bad.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const r1 = await fetch(bad, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: Buffer.alloc(10) });
    expect(r1.status).toBe(403);
    expect(((await r1.json()) as { code: string }).code).toBe(ERROR_CODES.UPLOAD_INVALID);

    const bigger = new URL(p.uploadURL);
    bigger.searchParams.set('max', String(Number(bigger.searchParams.get('max')) + 1));
    expect(
      (await fetch(bigger, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: Buffer.alloc(10) })).status,
    ).toBe(403);

    const other = await newUpload();
    const swapped = new URL(p.uploadURL);
    swapped.pathname = `/upload/${other.key}`;
    expect(
      (await fetch(swapped, { method: 'PUT', headers: { 'Content-Type': 'video/mp4' }, body: Buffer.alloc(10) }))
        .status,
    ).toBe(403);
    expect(await uploadFiles()).toEqual(before);
  });

  it('refuses an expired URL', async () => {
    const p = await newUpload();
    const expired = await storage.presignPut(p.key, { contentType: 'video/mp4', maxBytes: 1000, expiresInSeconds: -5 });
    const res = await fetch(expired.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: Buffer.alloc(10),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/expired/);
    expect(await storage.head(p.key)).toBeNull();
  });

  it('refuses the wrong content type', async () => {
    const p = await newUpload();
    const res = await fetch(p.uploadURL, {
      method: 'PUT',
      headers: { 'Content-Type': 'text/html' },
      body: Buffer.alloc(10),
    });
    expect(res.status).toBe(415);
    expect(await storage.head(p.key)).toBeNull();
  });

  it('refuses a body over the signed limit, declared or streamed, leaving no file', async () => {
    const p = await newUpload();
    const small = await storage.presignPut(p.key, { contentType: 'video/mp4', maxBytes: 1000, expiresInSeconds: 60 });
    const declared = await fetch(small.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: Buffer.alloc(5000),
    });
    expect(declared.status).toBe(413);

    // No Content-Length: the server counts while streaming and stops at the limit.
    const chunks = [Buffer.alloc(600, 1), Buffer.alloc(600, 2), Buffer.alloc(600, 3)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const c = chunks.shift();
        if (c) controller.enqueue(c);
        else controller.close();
      },
    });
    const streamed = await fetch(small.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    await waitFor(async () => !(await uploadFiles()).some((f) => f.startsWith(p.key)), 'no partial file');
    expect(await storage.head(p.key)).toBeNull();
  });

  it('leaves no partial file when the client disconnects mid-upload', async () => {
    const p = await newUpload();
    const url = new URL(p.uploadURL);
    await new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: 'PUT',
        headers: { 'Content-Type': 'video/mp4', 'Content-Length': 1_000_000 },
      });
      req.on('error', () => resolve());
      req.write(Buffer.alloc(64 * 1024, 5), () => {
        req.destroy();
        resolve();
      });
    });
    // The server notices the disconnect and removes its temporary file.
    await waitFor(async () => !(await uploadFiles()).some((f) => f.startsWith(p.key)), 'temporary file removed');
    expect(await storage.head(p.key)).toBeNull();
  });

  it('refuses a PUT once the upload was submitted', async () => {
    const key = await uploadBytes(t, token, Buffer.alloc(2048, 1));
    const s = await t.gql(Q.submit, { key }, token);
    expect(s.errors).toBeUndefined();
    const again = await storage.presignPut(key, { contentType: 'video/mp4', maxBytes: 10_000, expiresInSeconds: 60 });
    const res = await fetch(again.url, {
      method: 'PUT',
      headers: { 'Content-Type': 'video/mp4' },
      body: Buffer.alloc(10),
    });
    expect(res.status).toBe(409);
    expect((await storage.head(key))?.size).toBe(2048);
  });

  it("submits only the uploader's own, uploaded key, once", async () => {
    const p = await newUpload();
    const notYet = await t.gql(Q.submit, { key: p.key }, token);
    expect(notYet.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UPLOAD_INVALID);

    const key = await uploadBytes(t, token, Buffer.alloc(4096, 3));
    const stranger = await seedUser(t.app, { plan: 'pro' });
    const theirs = await t.gql(Q.submit, { key }, stranger.token);
    expect(theirs.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
    const bogus = await t.gql(Q.submit, { key: '../../etc/passwd' }, token);
    expect(bogus.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);

    const ok = await t.gql(Q.submit, { key }, token);
    expect(ok.errors).toBeUndefined();
    expect(ok.data.fileSubmitPreSignedUpload.tourId).toMatch(/^tour_[0-9a-f-]{36}$/);
    expect(ok.data.fileSubmitPreSignedUpload.bucketURL).toBe(`${t.url}/media/${key}`);
    const twice = await t.gql(Q.submit, { key }, token);
    expect(twice.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);

    const tour = await t.gql(Q.tour, { id: ok.data.fileSubmitPreSignedUpload.tourId }, token);
    expect(tour.data.tour.status.status).toBe('PROCESSING');
  });
});

describe('abandoned uploads', () => {
  it('forgets uploads never submitted, UPLOAD_ABANDON_SECONDS after they began, with their bytes', async () => {
    const t = await startTestApp('pglite', { ROLE: 'api' });
    try {
      const { token } = await seedUser(t.app, { plan: 'pro' });
      const kept = await uploadBytes(t, token, Buffer.alloc(100, 1));
      const old = await uploadBytes(t, token, Buffer.alloc(100, 2));
      const submitted = await uploadBytes(t, token, Buffer.alloc(100, 3));
      expect((await t.gql(Q.submit, { key: submitted }, token)).errors).toBeUndefined();
      const longAgo = new Date(Date.now() - 3 * 24 * 3600 * 1000);
      await t.app.services.db
        .updateTable('uploads')
        .set({ created_at: longAgo })
        .where('key', 'in', [old, submitted])
        .execute();
      const { sweepAbandonedUploads } = await import('../src/services/uploads.js');
      expect(await sweepAbandonedUploads(t.app.services, new Date())).toBe(1);
      const keys = (await t.app.services.db.selectFrom('uploads').select('key').execute()).map((r) => r.key);
      expect(keys.sort()).toEqual([kept, submitted].sort());
      expect(await t.app.services.storage.head(old)).toBeNull();
      expect(await t.app.services.storage.head(submitted)).not.toBeNull();
    } finally {
      await t.stop();
    }
  });
});
