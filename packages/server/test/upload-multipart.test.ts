/**
 * Resumable multipart uploads: a multi-hundred-MB file sent in parallel parts through a loopback proxy
 * that cuts every connection mid-way, resumed by picking the same file again (the parts already stored are skipped),
 * and stored byte for byte (sha256) — on the local store and through s3rver; and the refusals: a file over the limit,
 * a part over its size, a part for someone else's upload, completing with parts missing, submitting before complete;
 * the sweep aborting an abandoned upload and deleting its parts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { startCuttingProxy } from './support/cutting-proxy.js';
import { MQ, uploadMultipart, type Gql } from './support/multipart-client.js';
import { addS3rverMultipartListing } from './support/s3rver-multipart.js';
import { sweepAbandonedUploads } from '../src/services/uploads.js';

const MiB = 1024 * 1024;
const BUCKET = 'roomwalk-multipart';

/** Random bytes (transport only: nothing here is processed), written 4 MiB at a time. */
async function randomFile(dir: string, name: string, bytes: number): Promise<string> {
  const file = path.join(dir, name);
  const out = createWriteStream(file);
  for (let left = bytes; left > 0; left -= 4 * MiB) {
    if (!out.write(randomBytes(Math.min(4 * MiB, left)))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return file;
}

async function sha256(stream: NodeJS.ReadableStream): Promise<string> {
  const h = createHash('sha256');
  for await (const c of stream) h.update(c as Buffer);
  return h.digest('hex');
}

/** Cut once mid-way, then pick the same file again: resumed, parts skipped, submitted; answers the figures. */
async function cutAndResume(
  t: TestApp,
  token: string,
  file: string,
  route: (proxyUrl: string) => (u: string) => string,
  target: URL,
) {
  const size = (await fs.stat(file)).size;
  const proxy = await startCuttingProxy(target, Math.floor(size * 0.45));
  const gql: Gql = (q, v, tk) => t.gql(q, v, tk);
  try {
    const t0 = performance.now();
    const first = await uploadMultipart({ gql, token, file, parallel: 4, route: route(proxy.url) }).then(
      () => null,
      (e: Error & { run?: unknown }) => e,
    );
    const cutMs = performance.now() - t0;
    expect(first, 'the first attempt must fail at the cut').not.toBeNull();
    expect(proxy.didCut).toBe(true);

    const t1 = performance.now();
    const second = await uploadMultipart({ gql, token, file, parallel: 4, route: route(proxy.url) });
    const resumeMs = performance.now() - t1;
    expect(second.resumed).toBe(true);
    expect(second.skipped).toBeGreaterThan(0);
    expect(second.skipped).toBeLessThan(second.partCount);
    expect(second.bytesSent).toBeLessThan(size);

    const s = await t.gql(MQ.submit, { key: second.key }, token);
    expect(s.errors).toBeUndefined();
    expect(s.data.fileSubmitPreSignedUpload.tourId).toBeTruthy();
    const figures = {
      sizeMiB: Math.round(size / MiB),
      parts: second.partCount,
      skippedOnResume: second.skipped,
      resentMiB: Math.round(second.bytesSent / MiB),
      beforeCutS: +(cutMs / 1000).toFixed(1),
      resumeS: +(resumeMs / 1000).toFixed(1),
      load: os.loadavg()[0]!.toFixed(2),
    };
    console.log(`[multipart] ${JSON.stringify(figures)}`);
    return second.key;
  } finally {
    await proxy.close();
  }
}

describe('multipart uploads on the local store', () => {
  let t: TestApp;
  let token: string;
  let other: string;
  let dir: string;
  let big: string;
  let small: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    token = (await seedUser(t.app, { plan: 'pro' })).token;
    other = (await seedUser(t.app, { plan: 'pro' })).token;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-multipart-'));
    big = await randomFile(dir, 'walkthrough.mp4', 300 * MiB);
    small = await randomFile(dir, 'short.mov', 12 * MiB);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('resumes a 300 MB upload cut mid-way, skipping the parts stored, and stores it byte for byte', async () => {
    const key = await cutAndResume(t, token, big, (proxyUrl) => (u) => u.replace(t.url, proxyUrl), new URL(t.url));
    const stored = path.join(t.dataDir, 'files', key);
    expect(await sha256(createReadStream(stored))).toBe(await sha256(createReadStream(big)));
    // The parts are gone once joined.
    expect(await fs.readdir(path.join(t.dataDir, 'files', 'multipart')).catch(() => [])).toEqual([]);
  }, 120_000);

  async function start(file: string, tk = token, extra: Record<string, unknown> = {}) {
    const size = (await fs.stat(file)).size;
    const r = await t.gql(
      MQ.start,
      {
        input: {
          extension: path.extname(file).slice(1),
          fileName: path.basename(file),
          size,
          lastModified: Date.now(),
          ...extra,
        },
      },
      tk,
    );
    expect(r.errors).toBeUndefined();
    return r.data.uploadMultipartStart as {
      key: string;
      uploadId: string;
      partSize: number;
      partCount: number;
      resumed: boolean;
      error: string | null;
      message: string | null;
    };
  }

  it('refuses a file over the limit before a byte is sent, and an empty one', async () => {
    const r = await start(small, token, { size: 9 * 1024 ** 3 });
    expect(r).toMatchObject({ key: null, uploadId: null, error: ERROR_CODES.UPLOAD_INVALID });
    expect(r.message).toBe('The video is too large. Videos up to 8 GB can be uploaded.');
    expect((await start(small, token, { size: 0 })).message).toBe('The file is empty.');
  });

  it('refuses a part larger than its signed size, sent with or without a length', async () => {
    const up = await start(small);
    expect(up.partCount).toBe(2);
    const signed = await t.gql(MQ.sign, { input: { key: up.key, uploadId: up.uploadId, partNumber: 1 } }, token);
    const url = signed.data.uploadMultipartSignPart.url as string;
    const over = await fetch(url, { method: 'PUT', body: Buffer.alloc(up.partSize + 1) });
    expect(over.status).toBe(413);
    expect(((await over.json()) as { message: string }).message).toBe(
      `This part is larger than the upload announced (${up.partSize} bytes).`,
    );
    // Chunked (no Content-Length): cut off as soon as it goes over.
    const chunked = await fetch(url, {
      method: 'PUT',
      body: (async function* () {
        for (let i = 0; i < 9; i++) yield new Uint8Array(MiB);
      })() as unknown as RequestInit['body'],
      duplex: 'half',
    } as RequestInit).catch((e: Error) => e);
    if (!(chunked instanceof Error)) expect(chunked.status).toBe(413);
    const short = await fetch(url, { method: 'PUT', body: Buffer.alloc(10) });
    expect(short.status).toBe(400);
    expect(
      (await t.gql(MQ.parts, { input: { key: up.key, uploadId: up.uploadId } }, token)).data.uploadMultipartParts,
    ).toEqual([]);
    // A part number beyond the file is refused when signing.
    const beyond = await t.gql(MQ.sign, { input: { key: up.key, uploadId: up.uploadId, partNumber: 3 } }, token);
    expect(beyond.errors?.[0]?.message).toBe('This upload has parts 1 to 2; there is no part 3.');
  });

  it("refuses someone else's upload: signing, listing, completing, aborting", async () => {
    const up = await start(small);
    const ref = { key: up.key, uploadId: up.uploadId };
    for (const [q, input] of [
      [MQ.sign, { ...ref, partNumber: 1 }],
      [MQ.parts, ref],
      [MQ.complete, ref],
      [MQ.abort, ref],
    ] as const) {
      const r = await t.gql(q, { input }, other);
      expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
      expect(r.errors?.[0]?.message).toBe('This upload was not found.');
    }
    // Nor may a part URL of one upload write into another (the signature binds the upload id).
    const mine = await t.gql(MQ.sign, { input: { ...ref, partNumber: 1 } }, token);
    const theirs = await start(small, other);
    const forged = (mine.data.uploadMultipartSignPart.url as string).replace(up.uploadId, theirs.uploadId);
    expect((await fetch(forged, { method: 'PUT', body: Buffer.alloc(up.partSize) })).status).toBe(403);
  });

  it('refuses to complete while parts are missing, and to submit before completing; the same file picked again resumes', async () => {
    const up = await start(small, token, { lastModified: 7 });
    const ref = { key: up.key, uploadId: up.uploadId };
    const signed = await t.gql(MQ.sign, { input: { ...ref, partNumber: 1 } }, token);
    const data = await fs.readFile(small);
    expect(
      (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body: data.subarray(0, up.partSize) }))
        .status,
    ).toBe(200);
    const done = await t.gql(MQ.complete, { input: ref }, token);
    expect(done.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UPLOAD_INVALID);
    expect(done.errors?.[0]?.message).toBe(
      'The video did not finish uploading: part 2 of 2 is missing. Please try again.',
    );
    const submit = await t.gql(MQ.submit, { key: up.key }, token);
    expect(submit.errors?.[0]?.message).toBe('The video did not finish uploading. Please try again.');
    // The same file picked again (name, size, last modified, user) resumes this upload, with part 1 already there.
    const again = await start(small, token, { lastModified: 7 });
    expect(again).toMatchObject({ key: up.key, uploadId: up.uploadId, resumed: true });
    expect(
      (await t.gql(MQ.parts, { input: ref }, token)).data.uploadMultipartParts.map(
        (p: { partNumber: number }) => p.partNumber,
      ),
    ).toEqual([1]);
    // Another last-modified time is another file; another user never gets this upload.
    expect((await start(small, token, { lastModified: 8 })).resumed).toBe(false);
    expect((await start(small, other, { lastModified: 7 })).key).not.toBe(up.key);
  });

  it('sweeps an abandoned upload: aborted, its parts deleted, its row gone', async () => {
    const up = await start(small);
    const signed = await t.gql(MQ.sign, { input: { key: up.key, uploadId: up.uploadId, partNumber: 1 } }, token);
    expect(
      (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body: Buffer.alloc(up.partSize) })).status,
    ).toBe(200);
    const partsDir = path.join(t.dataDir, 'files', 'multipart', up.uploadId);
    expect((await fs.readdir(partsDir)).length).toBeGreaterThan(0);
    const later = new Date(Date.now() + (t.app.config.UPLOAD_URL_TTL_SECONDS + 25 * 3600) * 1000);
    expect(await sweepAbandonedUploads(t.app.services, later)).toBeGreaterThanOrEqual(1);
    await expect(fs.stat(partsDir)).rejects.toThrow();
    expect(
      await t.app.services.db.selectFrom('uploads').select('id').where('key', '=', up.key).executeTakeFirst(),
    ).toBeUndefined();
    // Its part URL no longer stores anything.
    expect(
      (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body: Buffer.alloc(up.partSize) })).status,
    ).toBe(404);
  });
});

describe('multipart uploads through s3rver', () => {
  let server: S3rver;
  let s3dir: string;
  let dir: string;
  let t: TestApp;
  let token: string;
  let s3url: string;

  beforeAll(async () => {
    s3dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-s3rver-mp-'));
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-multipart-s3-'));
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    addS3rverMultipartListing(server, s3dir);
    const { port } = await server.run();
    s3url = `http://127.0.0.1:${port}`;
    // The server's own S3 calls go straight to s3rver; the browser's part PUTs are routed through the cutting proxy.
    t = await startTestApp('pglite', {
      ROLE: 'api',
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: s3url,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    } as never);
    token = (await seedUser(t.app, { plan: 'pro' })).token;
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await server?.close();
    await fs.rm(s3dir, { recursive: true, force: true });
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('resumes a 200 MB upload cut mid-way and the object equals the source (sha256)', async () => {
    const file = await randomFile(dir, 'walkthrough.mp4', 200 * MiB);
    const key = await cutAndResume(t, token, file, (proxyUrl) => (u) => u.replace(s3url, proxyUrl), new URL(s3url));
    const obj = await t.app.services.storage.get(key);
    expect(obj?.size).toBe(200 * MiB);
    expect(await sha256(obj!.stream)).toBe(await sha256(createReadStream(file)));
  }, 120_000);

  it('signs the part size (S3 refuses another length) and refuses completing with parts missing', async () => {
    const file = await randomFile(dir, 'short.mov', 12 * MiB);
    const r = await t.gql(
      MQ.start,
      { input: { extension: 'mov', fileName: 'short.mov', size: 12 * MiB, lastModified: 1 } },
      token,
    );
    const up = r.data.uploadMultipartStart;
    const ref = { key: up.key, uploadId: up.uploadId };
    const signed = await t.gql(MQ.sign, { input: { ...ref, partNumber: 2 } }, token);
    const url = new URL(signed.data.uploadMultipartSignPart.url);
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
    const body = (await fs.readFile(file)).subarray(up.partSize);
    expect((await fetch(url, { method: 'PUT', body })).status).toBe(200);
    const done = await t.gql(MQ.complete, { input: ref }, token);
    expect(done.errors?.[0]?.message).toBe(
      'The video did not finish uploading: part 1 of 2 is missing. Please try again.',
    );
    // Aborting deletes the parts in the bucket.
    expect((await t.gql(MQ.abort, { input: ref }, token)).data.uploadMultipartAbort.success).toBe(true);
    const listed = await t.gql(MQ.parts, { input: ref }, token);
    expect(listed.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
  }, 60_000);
});
