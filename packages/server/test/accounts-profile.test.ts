/** userSave, companySave (with images through GraphQL multipart) and feedbackSubmit. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS, VALIDATION } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { gqlUpload, pngImage } from './helpers/accounts.js';

const USER_SAVE =
  'mutation($input: UserSaveInput!) { userSave(input: $input) { id name surname email contactNumber profileImageURL company { id } } }';
const COMPANY_SAVE =
  'mutation($input: CompanySaveInput!) { companySave(input: $input) { id name address vatno countrycode logoimageurl } }';
const FEEDBACK = 'mutation($input: FeedbackInput!) { feedbackSubmit(input: $input) { success } }';

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A tiny PNG file whose header claims 20000 x 20000 pixels: a decompression bomb's shape. */
function pixelBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20_000, 0);
  ihdr.writeUInt32BE(20_000, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe.each(DB_KINDS)('profile, company and feedback on %s', (kind) => {
  let t: TestApp;
  let reporter: http.Server;
  const reports: unknown[] = [];

  beforeAll(async () => {
    reporter = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        reports.push(JSON.parse(body));
        res.end('{}');
      });
    });
    await new Promise<void>((r) => reporter.listen(0, '127.0.0.1', r));
    t = await startTestApp(kind, {
      RATE_LIMIT_DISABLED: true,
      ERROR_REPORTING_URL: `http://127.0.0.1:${(reporter.address() as AddressInfo).port}/report`,
    });
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise((r) => reporter.close(r));
  });

  const profileRow = (userId: string) =>
    t.app.services.db.selectFrom('user_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const companyRow = (id: string) =>
    t.app.services.db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('needs a session', async () => {
    const r = await t.gql(USER_SAVE, { input: { name: 'A', surname: 'B', contactNumber: '0821234567' } });
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it.each([
    [{ name: '' }, VALIDATION.nameRequired, 'name'],
    [{ surname: 'y'.repeat(31) }, VALIDATION.maxChars, 'surname'],
    [{ contactNumber: '' }, VALIDATION.contactNumberRequired, 'contactNumber'],
    [{ contactNumber: '+27 12' }, VALIDATION.invalidPhone, 'contactNumber'],
  ])('refuses profile %j with the spec message and changes nothing', async (patch, message, field) => {
    const u = await seedUser(t.app);
    const before = await profileRow(u.user.id);
    const r = await t.gql(
      USER_SAVE,
      { input: { name: 'Lebo', surname: 'Dube', contactNumber: '0821234567', ...patch } },
      u.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message,
      extensions: { code: ERROR_CODES.BAD_USER_INPUT, fields: { [field]: message } },
    });
    expect(await profileRow(u.user.id)).toEqual(before);
  });

  it('saves the profile with an uploaded image, decoded, bounded and re-encoded as JPEG', async () => {
    const u = await seedUser(t.app);
    const r = await gqlUpload(
      t,
      USER_SAVE,
      { input: { name: 'Lebo', surname: 'Dube', contactNumber: '+44 20 7946 0958', profileImage: null } },
      { 'input.profileImage': { data: await pngImage(1600, 900), name: 'me.png', type: 'image/png' } },
      u.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.userSave).toMatchObject({
      name: 'Lebo',
      surname: 'Dube',
      email: u.user.username,
      contactNumber: '+44 2079460958',
      company: { id: u.companyId },
    });
    const row = (await profileRow(u.user.id))!;
    expect(r.data.userSave.profileImageURL).toBe(t.app.services.storage.publicUrl(row.profile_image_key!));
    const stored = await t.app.services.storage.get(row.profile_image_key!);
    const chunks: Buffer[] = [];
    for await (const c of stored!.stream) chunks.push(c as Buffer);
    const meta = await sharp(Buffer.concat(chunks)).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 512, height: 288 });

    // A new image replaces the old file; saving without an image keeps it.
    const again = await gqlUpload(
      t,
      USER_SAVE,
      { input: { name: 'Lebo', surname: 'Dube', contactNumber: '0821234567', profileImage: null } },
      { 'input.profileImage': { data: await pngImage(), name: 'me2.png', type: 'image/png' } },
      u.token,
    );
    expect(again.errors).toBeUndefined();
    const row2 = (await profileRow(u.user.id))!;
    expect(row2.profile_image_key).not.toBe(row.profile_image_key);
    expect(await t.app.services.storage.head(row.profile_image_key!)).toBeNull();
    const plain = await t.gql(
      USER_SAVE,
      { input: { name: 'Lebo', surname: 'Dube', contactNumber: '0821234567' } },
      u.token,
    );
    expect(plain.data.userSave.profileImageURL).toBe(t.app.services.storage.publicUrl(row2.profile_image_key!));
  });

  it('refuses a file that is not an image, and a pixel bomb, changing nothing', async () => {
    const u = await seedUser(t.app);
    const before = await profileRow(u.user.id);
    for (const [file, why] of [
      [{ data: Buffer.from('<?php echo 1; ?>'), name: 'x.png', type: 'image/png' }, ERROR_TEXTS.notAnImage],
      [
        { data: pixelBomb(), name: 'bomb.png', type: 'image/png' },
        'This image is too large: use one of at most 40 megapixels.',
      ],
    ] as const) {
      const r = await gqlUpload(
        t,
        USER_SAVE,
        { input: { name: 'New', surname: 'Name', contactNumber: '0821234567', profileImage: null } },
        { 'input.profileImage': file },
        u.token,
      );
      expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UPLOAD_INVALID);
      expect(r.errors?.[0]?.message).toBe(why);
      expect(await profileRow(u.user.id)).toEqual(before);
    }
  });

  it('creates the profile of a user who has none', async () => {
    const u = await seedUser(t.app);
    await t.app.services.db.deleteFrom('user_profiles').where('user_id', '=', u.user.id).execute();
    const r = await t.gql(
      USER_SAVE,
      { input: { name: 'Nomsa', surname: 'Zulu', contactNumber: '0821234567' } },
      u.token,
    );
    expect(r.data.userSave).toMatchObject({ name: 'Nomsa', contactNumber: '+27 821234567' });
  });

  it('lets only a company admin save the company', async () => {
    const admin = await seedUser(t.app);
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const before = await companyRow(admin.company.id);
    const r = await t.gql(COMPANY_SAVE, { input: { name: 'Taken Over' } }, member.token);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.FORBIDDEN);
    expect(await companyRow(admin.company.id)).toEqual(before);
  });

  it('validates the company with the spec messages', async () => {
    const admin = await seedUser(t.app);
    const before = await companyRow(admin.company.id);
    for (const [input, message] of [
      [{ name: '' }, VALIDATION.companyNameRequired],
      [{ name: 'n'.repeat(31) }, VALIDATION.maxChars],
      [{ name: 'Ok', countryCode: 'ZA' }, 'Not a valid country.'],
    ] as const) {
      const r = await t.gql(COMPANY_SAVE, { input }, admin.token);
      expect(r.errors?.[0]).toMatchObject({ message, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    }
    expect(await companyRow(admin.company.id)).toEqual(before);
  });

  it("refuses a logo below Basic with the spec's hint, changing nothing", async () => {
    const admin = await seedUser(t.app, { plan: 'entry' });
    const before = await companyRow(admin.company.id);
    const r = await gqlUpload(
      t,
      COMPANY_SAVE,
      { input: { name: 'Entry Co', logoImage: null } },
      { 'input.logoImage': { data: await pngImage(), name: 'logo.png', type: 'image/png' } },
      admin.token,
    );
    expect(r.errors?.[0]).toMatchObject({
      message: VALIDATION.logoPlanHint,
      extensions: { code: ERROR_CODES.FORBIDDEN },
    });
    expect(await companyRow(admin.company.id)).toEqual(before);
  });

  it('saves a logo on Basic and the other fields; omitted fields keep their value', async () => {
    const admin = await seedUser(t.app, { plan: 'basic' });
    const r = await gqlUpload(
      t,
      COMPANY_SAVE,
      { input: { name: 'Basic Co', address: '2 Main Rd', vatNo: '123', countryCode: 'en_GB', logoImage: null } },
      { 'input.logoImage': { data: await pngImage(2000, 500), name: 'logo.png', type: 'image/png' } },
      admin.token,
    );
    expect(r.errors).toBeUndefined();
    const row = await companyRow(admin.company.id);
    expect(r.data.companySave).toEqual({
      id: admin.companyId,
      name: 'Basic Co',
      address: '2 Main Rd',
      vatno: '123',
      countrycode: 'en_GB',
      logoimageurl: t.app.services.storage.publicUrl(row.logo_key!),
    });
    const renamed = await t.gql(COMPANY_SAVE, { input: { name: 'Basic Co 2' } }, admin.token);
    expect(renamed.data.companySave).toMatchObject({
      name: 'Basic Co 2',
      address: '2 Main Rd',
      vatno: '123',
      countrycode: 'en_GB',
      logoimageurl: expect.any(String),
    });
    const cleared = await t.gql(COMPANY_SAVE, { input: { name: 'Basic Co 2', address: '', vatNo: '' } }, admin.token);
    expect(cleared.data.companySave).toMatchObject({ address: null, vatno: null });
  });

  it('stores feedback (signed in or not) and forwards it to the error-reporting service', async () => {
    const u = await seedUser(t.app);
    const r = await t.gql(
      FEEDBACK,
      { input: { name: ' Ayanda ', email: ' a@example.com ', comment: ' Love it ' } },
      u.token,
    );
    expect(r.data.feedbackSubmit).toEqual({ success: true });
    const anonymous = await t.gql(FEEDBACK, {
      input: { name: 'Visitor', email: 'v@example.com', comment: 'Nice tour' },
    });
    expect(anonymous.data.feedbackSubmit).toEqual({ success: true });
    const rows = await t.app.services.db.selectFrom('feedback').selectAll().orderBy('created_at').execute();
    expect(rows.map((f) => [f.name, f.email, f.comment, f.user_id])).toEqual([
      ['Ayanda', 'a@example.com', 'Love it', u.user.id],
      ['Visitor', 'v@example.com', 'Nice tour', null],
    ]);
    await vi.waitFor(() => expect(reports).toHaveLength(2), { timeout: 5000, interval: 20 });
    expect(reports).toContainEqual(
      expect.objectContaining({
        type: 'feedback',
        name: 'Ayanda',
        email: 'a@example.com',
        comment: 'Love it',
        userId: u.user.id,
      }),
    );
  });

  it.each([
    [{ name: '' }, VALIDATION.nameRequired],
    [{ name: 'n'.repeat(31) }, VALIDATION.maxChars],
    [{ email: '' }, VALIDATION.emailRequired],
    [{ email: 'nope' }, VALIDATION.feedbackEmailInvalid],
    [{ comment: '  ' }, VALIDATION.commentRequired],
  ])('refuses feedback %j with the spec message', async (patch, message) => {
    const before = await t.app.services.db.selectFrom('feedback').select('id').execute();
    const r = await t.gql(FEEDBACK, { input: { name: 'A', email: 'a@example.com', comment: 'c', ...patch } });
    expect(r.errors?.[0]).toMatchObject({ message, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    expect(await t.app.services.db.selectFrom('feedback').select('id').execute()).toHaveLength(before.length);
  });
});
