/**
 * Multipart uploads whose size comes at the end (a video converted on the device, its parts sent as they are made):
 * the limit announced at start, each part signed at the size the client states, the real size stated at completion
 * and checked against the limit and the parts storage holds. The hostile cases: parts beyond the limit, parts larger
 * than a part, a size that is not what the parts make (a short part mid-way, parts past the stated end, a size over the
 * limit), parts missing; each refusal changes nothing. Never resumed by picking the same file again; swept when left.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { MQ } from './support/multipart-client.js';
import { sweepAbandonedUploads } from '../src/services/uploads.js';

const MiB = 1024 * 1024;
const COMPLETE = `mutation($input: UploadMultipartRefInput!, $size: Float) { uploadMultipartComplete(input: $input, size: $size) { key size } }`;
const SIGN = `mutation($input: UploadMultipartPartInput!) { uploadMultipartSignPart(input: $input) { url } }`;

describe('multipart uploads that state their size at the end', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api' });
    token = (await seedUser(t.app, { plan: 'pro' })).token;
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  /** Starts one with `limit` bytes as its limit. */
  async function start(limit: number, extra: Record<string, unknown> = {}) {
    const r = await t.gql(
      MQ.start,
      {
        input: { extension: 'mp4', fileName: 'IMG_0001.mp4', size: limit, lastModified: 5, sizeAtEnd: true, ...extra },
      },
      token,
    );
    expect(r.errors).toBeUndefined();
    const up = r.data.uploadMultipartStart as {
      key: string;
      uploadId: string;
      partSize: number;
      partCount: number;
      resumed: boolean;
      error: string | null;
    };
    expect(up.error).toBeNull();
    return { ...up, ref: { key: up.key, uploadId: up.uploadId } };
  }

  async function sign(ref: { key: string; uploadId: string }, partNumber: number, size?: number) {
    return t.gql(SIGN, { input: { ...ref, partNumber, ...(size === undefined ? {} : { size }) } }, token);
  }

  /** Signs part n at the body's size and PUTs it; answers the HTTP status. */
  async function put(ref: { key: string; uploadId: string }, partNumber: number, body: Buffer) {
    const signed = await sign(ref, partNumber, body.length);
    expect(signed.errors).toBeUndefined();
    return (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body })).status;
  }

  const row = (key: string) =>
    t.app.services.db.selectFrom('uploads').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
  const stored = (key: string) =>
    fs.stat(path.join(t.dataDir, 'files', key)).then(
      (s) => s.size,
      () => null,
    );

  it('takes parts as they are made and the real size at completion; the stored file is the bytes sent', async () => {
    const up = await start(40 * MiB);
    expect(up.partCount).toBe(Math.ceil((40 * MiB) / up.partSize));
    const data = randomBytes(2 * up.partSize + 12345);
    // Sent out of order, the short last part first (as a muxer's last bytes may be ready while earlier parts retry).
    expect(await put(up.ref, 3, data.subarray(2 * up.partSize))).toBe(200);
    expect(await put(up.ref, 1, data.subarray(0, up.partSize))).toBe(200);
    expect(await put(up.ref, 2, data.subarray(up.partSize, 2 * up.partSize))).toBe(200);
    const parts = await t.gql(MQ.parts, { input: up.ref }, token);
    expect(parts.data.uploadMultipartParts.map((p: { size: number }) => p.size)).toEqual([
      up.partSize,
      up.partSize,
      12345,
    ]);

    const done = await t.gql(COMPLETE, { input: up.ref, size: data.length }, token);
    expect(done.errors).toBeUndefined();
    expect(done.data.uploadMultipartComplete).toEqual({ key: up.key, size: data.length });
    const file = await fs.readFile(path.join(t.dataDir, 'files', up.key));
    expect(createHash('sha256').update(file).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    // Completed, it is an upload like any other: its size is the real one, and completing again answers the same.
    expect(await row(up.key)).toMatchObject({ size: data.length, expected_size: data.length, size_at_end: false });
    expect((await t.gql(COMPLETE, { input: up.ref, size: data.length }, token)).data.uploadMultipartComplete.size).toBe(
      data.length,
    );
    const submit = await t.gql(MQ.submit, { key: up.key }, token);
    expect(submit.errors).toBeUndefined();
    expect(submit.data.fileSubmitPreSignedUpload.tourId).toBeTruthy();
  });

  it('refuses parts beyond the limit, larger than a part, or of no stated size, when signing', async () => {
    const limit = 20 * MiB;
    const up = await start(limit);
    const count = Math.ceil(limit / up.partSize);
    const beyond = await sign(up.ref, count + 1, 100);
    expect(beyond.errors?.[0]?.message).toBe(`This upload has parts 1 to ${count}; there is no part ${count + 1}.`);
    const big = await sign(up.ref, 1, up.partSize + 1);
    expect(big.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UPLOAD_INVALID);
    expect(big.errors?.[0]?.message).toBe(
      `Part 1 of this upload can have 1 to ${up.partSize.toLocaleString('en-US')} bytes, not ${(up.partSize + 1).toLocaleString('en-US')} bytes.`,
    );
    // The last part the limit allows can hold only what is left of the limit.
    const lastRoom = limit - (count - 1) * up.partSize;
    expect((await sign(up.ref, count, lastRoom + 1)).errors?.[0]?.message).toContain(
      `can have 1 to ${lastRoom.toLocaleString('en-US')} bytes`,
    );
    expect((await sign(up.ref, 1, 0)).errors?.[0]?.message).toContain('not 0 bytes');
    expect((await sign(up.ref, 1)).errors?.[0]?.message).toBe(
      'Say how large part 1 is: this upload states its size at the end.',
    );
    // A body larger than the size it was signed at is refused by the part route.
    const signed = await sign(up.ref, 1, 1000);
    expect(
      (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body: Buffer.alloc(1001) })).status,
    ).toBe(413);
    expect((await t.gql(MQ.parts, { input: up.ref }, token)).data.uploadMultipartParts).toEqual([]);
  });

  it('refuses a stated size the parts do not make, or over the limit, or with parts missing, and changes nothing', async () => {
    const up = await start(30 * MiB);
    const P = up.partSize;
    const data = randomBytes(2 * P + 500);
    expect(await put(up.ref, 1, data.subarray(0, P))).toBe(200);
    expect(await put(up.ref, 3, data.subarray(2 * P))).toBe(200);
    const complete = (size?: number) =>
      t.gql(COMPLETE, { input: up.ref, ...(size === undefined ? {} : { size }) }, token);

    expect((await complete()).errors?.[0]?.message).toBe(
      'Say how large the video is: this upload states its size at the end.',
    );
    expect((await complete(data.length)).errors?.[0]?.message).toBe(
      'The video did not finish uploading: part 2 of 3 is missing. Please try again.',
    );
    expect((await complete(30 * MiB + 1)).errors?.[0]?.message).toBe(
      `The video is larger than the upload announced (at most ${(30 * MiB).toLocaleString('en-US')} bytes).`,
    );
    expect((await complete(9 * 1024 ** 3)).errors?.[0]?.message).toBe(
      'The video is too large. Videos up to 8 GB can be uploaded.',
    );
    expect((await complete(0)).errors?.[0]?.message).toBe('The file is empty.');
    // Claiming the file ends inside part 1 while part 3 is stored: parts past the stated end.
    const short = await complete(P - 10);
    expect(short.errors?.[0]?.message).toBe(
      `The video was said to have ${(P - 10).toLocaleString('en-US')} bytes, but part 3 lies beyond its end. Please try again.`,
    );

    // A short part mid-way (part 2 of 100 bytes) does not make a file of 2 whole parts and a tail.
    expect(await put(up.ref, 2, data.subarray(P, P + 100))).toBe(200);
    const lying = await complete(data.length);
    expect(lying.errors?.[0]?.message).toBe('Part 2 of the video has the wrong size. Please try again.');
    // Stating the sum of what is stored (a whole part, 100 bytes, 500 bytes) is refused too: parts are cut at partSize.
    expect((await complete(P + 600)).errors?.[0]?.message).toBe(
      `The video was said to have ${(P + 600).toLocaleString('en-US')} bytes, but part 3 lies beyond its end. Please try again.`,
    );

    // Nothing changed: no file at the key, the upload still open with its limit, not submittable.
    expect(await stored(up.key)).toBeNull();
    expect(await row(up.key)).toMatchObject({
      completed_at: null,
      size: null,
      expected_size: 30 * MiB,
      size_at_end: true,
    });
    expect((await t.gql(MQ.submit, { key: up.key }, token)).errors?.[0]?.message).toBe(
      'The video did not finish uploading. Please try again.',
    );

    // Part 2 sent again whole: the same upload completes.
    expect(await put(up.ref, 2, data.subarray(P, 2 * P))).toBe(200);
    expect((await complete(data.length)).data.uploadMultipartComplete.size).toBe(data.length);
    expect(await stored(up.key)).toBe(data.length);
  });

  it('an upload of known size keeps its exact sizes: another stated part or file size is refused', async () => {
    const r = await t.gql(
      MQ.start,
      { input: { extension: 'mp4', fileName: 'known.mp4', size: 1000, lastModified: 1 } },
      token,
    );
    const ref = { key: r.data.uploadMultipartStart.key, uploadId: r.data.uploadMultipartStart.uploadId };
    expect((await sign(ref, 1, 999)).errors?.[0]?.message).toBe(
      'Part 1 of this upload has 1,000 bytes, not 999 bytes.',
    );
    const signed = await sign(ref, 1, 1000);
    expect(
      (await fetch(signed.data.uploadMultipartSignPart.url, { method: 'PUT', body: Buffer.alloc(1000) })).status,
    ).toBe(200);
    expect((await t.gql(COMPLETE, { input: ref, size: 999 }, token)).errors?.[0]?.message).toBe(
      'The uploaded video does not have the size announced. Please try again.',
    );
    expect((await t.gql(COMPLETE, { input: ref, size: 1000 }, token)).data.uploadMultipartComplete.size).toBe(1000);
  });

  it('is never resumed by picking the same file again (a closed tab starts again); a left one is swept with its parts', async () => {
    const first = await start(12 * MiB, { fileName: 'again.mp4' });
    expect(await put(first.ref, 1, randomBytes(1000))).toBe(200);
    const second = await start(12 * MiB, { fileName: 'again.mp4' });
    expect(second.resumed).toBe(false);
    expect(second.key).not.toBe(first.key);

    const partsDir = path.join(t.dataDir, 'files', 'multipart', first.uploadId);
    expect((await fs.readdir(partsDir)).length).toBeGreaterThan(0);
    const later = new Date(Date.now() + (t.app.config.UPLOAD_URL_TTL_SECONDS + 25 * 3600) * 1000);
    expect(await sweepAbandonedUploads(t.app.services, later)).toBeGreaterThanOrEqual(2);
    await expect(fs.stat(partsDir)).rejects.toThrow();
    for (const key of [first.key, second.key]) {
      expect(
        await t.app.services.db.selectFrom('uploads').select('id').where('key', '=', key).executeTakeFirst(),
      ).toBeUndefined();
    }
  });
});
