/**
 * Upload refusals and image size: a GraphQL multipart mutation refused before (or while) its file is read answers
 * at once with its error, and the rest of the file is drained so the answer can go out; a 16 MiB image is refused
 * as too large instead of being cut at 15 MiB. Each request has a client timeout that catches a hang (before the
 * fix these requests never answered).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, VALIDATION } from '@roomwalk/shared';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { pngImage } from '../helpers/accounts.js';
import { seedProcessedTour } from '../fixtures/tours.js';

const USER_SAVE = 'mutation($input: UserSaveInput!) { userSave(input: $input) { id profileImageURL } }';
const COMPANY_SAVE = 'mutation($input: CompanySaveInput!) { companySave(input: $input) { id logoimageurl } }';
const THUMB =
  'mutation($input: TourUpdateThumbnailInput!) { tourUpdateThumbnailURL(input: $input) { id thumbnailURL } }';
/** Far more than the socket and stream buffers hold: an unread file stalls the request. */
const FILE_BYTES = 3 * 1024 * 1024;
const ANSWER_WITHIN_MS = 15_000;

/** A multipart request with one file at `path`; aborted (and so failing the test) if no answer comes in time. */
async function upload(
  t: TestApp,
  query: string,
  variables: Record<string, unknown>,
  path: string,
  data: Buffer,
  token?: string,
) {
  const form = new FormData();
  form.set('operations', JSON.stringify({ query, variables }));
  form.set('map', JSON.stringify({ 0: [`variables.${path}`] }));
  form.set('0', new Blob([new Uint8Array(data)], { type: 'image/png' }), 'image.png');
  const res = await fetch(`${t.url}/query`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
  return (await res.json()) as { data: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

/** A valid PNG padded to `bytes` (the padding after IEND is ignored by decoders). */
async function bigPng(bytes: number): Promise<Buffer> {
  const png = await pngImage(32, 32);
  return Buffer.concat([png, randomBytes(bytes - png.length)]);
}

describe('refused multipart uploads answer at once', () => {
  let t: TestApp;
  let free: SeededUser;
  let basic: SeededUser;
  let file: Buffer;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    free = await seedUser(t.app, { plan: 'free' });
    basic = await seedUser(t.app, { plan: 'basic' });
    file = await bigPng(FILE_BYTES);
  });
  afterAll(async () => t?.stop());

  it('anonymous', async () => {
    const r = await upload(
      t,
      USER_SAVE,
      { input: { name: 'A', surname: 'B', contactNumber: '0821234567', profileImage: null } },
      'input.profileImage',
      file,
    );
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('with a token that is no longer valid (401 before GraphQL runs)', async () => {
    const r = await upload(
      t,
      USER_SAVE,
      { input: { name: 'A', surname: 'B', contactNumber: '0821234567', profileImage: null } },
      'input.profileImage',
      file,
      'not-a-token',
    );
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('a company logo on the Free plan', async () => {
    const r = await upload(
      t,
      COMPANY_SAVE,
      { input: { name: 'Free Co', logoImage: null } },
      'input.logoImage',
      file,
      free.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message: VALIDATION.logoPlanHint,
      extensions: { code: ERROR_CODES.FORBIDDEN },
    });
  });

  it("a member's thumbnail for a tour they may not edit", async () => {
    const member = await seedUser(t.app, { companyId: basic.company.id });
    const tour = await seedProcessedTour(t, basic, 1);
    const r = await upload(
      t,
      THUMB,
      { input: { id: tour.id, thumbnailURL: null } },
      'input.thumbnailURL',
      file,
      member.token,
    );
    expect([ERROR_CODES.FORBIDDEN, ERROR_CODES.NOT_FOUND]).toContain(r.errors?.[0]?.extensions?.code);
  });

  it('an invalid profile with a photo', async () => {
    const r = await upload(
      t,
      USER_SAVE,
      { input: { name: '', surname: 'B', contactNumber: '0821234567', profileImage: null } },
      'input.profileImage',
      file,
      free.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message: VALIDATION.nameRequired,
      extensions: { code: ERROR_CODES.BAD_USER_INPUT },
    });
  });

  it('a 16 MiB image is refused as too large (not cut at 15 MiB), changing nothing', async () => {
    const before = await t.app.services.db
      .selectFrom('user_profiles')
      .select('profile_image_key')
      .where('user_id', '=', basic.user.id)
      .executeTakeFirst();
    const r = await upload(
      t,
      USER_SAVE,
      { input: { name: 'A', surname: 'B', contactNumber: '0821234567', profileImage: null } },
      'input.profileImage',
      await bigPng(16 * 1024 * 1024),
      basic.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message: 'The image is too large.',
      extensions: { code: ERROR_CODES.UPLOAD_INVALID },
    });
    const after = await t.app.services.db
      .selectFrom('user_profiles')
      .select('profile_image_key')
      .where('user_id', '=', basic.user.id)
      .executeTakeFirst();
    expect(after).toEqual(before);
    // The same server still takes a normal image.
    const ok = await upload(
      t,
      USER_SAVE,
      { input: { name: 'A', surname: 'B', contactNumber: '0821234567', profileImage: null } },
      'input.profileImage',
      await pngImage(),
      basic.token,
    );
    expect(ok.errors).toBeUndefined();
    expect(ok.data.userSave.profileImageURL).toEqual(expect.any(String));
  });

  it('a 16 MiB tour thumbnail is refused as too large', async () => {
    const tour = await seedProcessedTour(t, basic, 1);
    const r = await upload(
      t,
      THUMB,
      { input: { id: tour.id, thumbnailURL: null } },
      'input.thumbnailURL',
      await bigPng(16 * 1024 * 1024),
      basic.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message: 'The image is too large.',
      extensions: { code: ERROR_CODES.UPLOAD_INVALID },
    });
  });
});
