/** Quota gates at upload submit, and the counters: uploads are never given back, active slots are. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { getLicense, licenseCounts } from '../src/services/licenses.js';
import { Q, uploadBytes } from './fixtures/tours.js';

describe.each(DB_KINDS)('upload quota gates on %s', (kind) => {
  let t: TestApp;
  const code = (r: { errors?: Array<{ extensions?: { code?: string } }> }) => r.errors?.[0]?.extensions?.code;

  beforeAll(async () => {
    // API role: no worker, so tours stay PROCESSING and keep their active slot.
    t = await startTestApp(kind, { ROLE: 'api' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const counts = async (companyId: string) =>
    licenseCounts(t.app.services.db, (await getLicense(t.app.services.db, companyId))!, new Date());

  it('refuses submit without a licence', async () => {
    const u = await seedUser(t.app, { plan: 'free' });
    const key = await uploadBytes(t, u.token, Buffer.alloc(1024, 1));
    await t.app.services.db.deleteFrom('licenses').where('company_id', '=', u.company.id).execute();
    const r = await t.gql(Q.submit, { key }, u.token);
    expect(code(r)).toBe(ERROR_CODES.NO_ACTIVE_LICENSE);
    expect(r.errors?.[0]?.message).toBe(ERROR_TEXTS.noActiveLicense);
  });

  it('refuses an expired licence like a missing one', async () => {
    const u = await seedUser(t.app, { plan: 'entry' });
    await t.app.services.db
      .updateTable('licenses')
      .set({ end_date: new Date(Date.now() - 60_000) })
      .where('company_id', '=', u.company.id)
      .execute();
    const r = await t.gql(Q.getUrl, { ext: 'mp4' }, u.token);
    expect(r.data.fileGetPreSignedUrl).toMatchObject({
      error: ERROR_CODES.NO_ACTIVE_LICENSE,
      message: ERROR_TEXTS.noActiveLicense,
      uploadURL: null,
    });
  });

  it('counts an upload at submit, frees the active slot on delete but never the upload', async () => {
    // Free plan: 1 active tour, 2 uploads a month.
    const u = await seedUser(t.app, { plan: 'free' });
    const [k1, k2, k3] = [
      await uploadBytes(t, u.token, Buffer.alloc(1024, 1)),
      await uploadBytes(t, u.token, Buffer.alloc(1024, 2)),
      await uploadBytes(t, u.token, Buffer.alloc(1024, 3)),
    ];
    expect(await counts(u.company.id)).toMatchObject({
      quantity: 1,
      uploadLimit: 2,
      monthlyActiveTours: 0,
      monthlyUploadedTours: 0,
    });

    const first = await t.gql(Q.submit, { key: k1 }, u.token);
    expect(first.errors).toBeUndefined();
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 1, monthlyUploadedTours: 1 });

    const noSlot = await t.gql(Q.submit, { key: k2 }, u.token);
    expect(code(noSlot)).toBe(ERROR_CODES.NO_ACTIVE_TOURS_LEFT);
    expect(noSlot.errors?.[0]?.message).toBe(ERROR_TEXTS.noActiveToursLeft);
    // The console is told before it uploads, too.
    expect((await t.gql(Q.getUrl, { ext: 'mp4' }, u.token)).data.fileGetPreSignedUrl).toMatchObject({
      error: ERROR_CODES.NO_ACTIVE_TOURS_LEFT,
      uploadURL: null,
    });
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 1, monthlyUploadedTours: 1 });

    expect((await t.gql(Q.del, { id: first.data.fileSubmitPreSignedUpload.tourId }, u.token)).errors).toBeUndefined();
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 0, monthlyUploadedTours: 1 });

    const second = await t.gql(Q.submit, { key: k2 }, u.token);
    expect(second.errors).toBeUndefined();
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 1, monthlyUploadedTours: 2 });
    await t.gql(Q.del, { id: second.data.fileSubmitPreSignedUpload.tourId }, u.token);

    const noUploads = await t.gql(Q.submit, { key: k3 }, u.token);
    expect(code(noUploads)).toBe(ERROR_CODES.NO_MONTHLY_UPLOADS_LEFT);
    expect(noUploads.errors?.[0]?.message).toBe(ERROR_TEXTS.noMonthlyUploadsLeft);
    expect((await t.gql(Q.getUrl, { ext: 'mp4' }, u.token)).data.fileGetPreSignedUrl).toMatchObject({
      error: ERROR_CODES.NO_MONTHLY_UPLOADS_LEFT,
    });
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 0, monthlyUploadedTours: 2 });
  });

  it('lets only one of two simultaneous submits take the last slot', async () => {
    const u = await seedUser(t.app, { plan: 'free' });
    const member = await seedUser(t.app, { companyId: u.company.id, role: 'USER' });
    const a = await uploadBytes(t, u.token, Buffer.alloc(1024, 1));
    const b = await uploadBytes(t, member.token, Buffer.alloc(1024, 2));
    const results = await Promise.all([
      t.gql(Q.submit, { key: a }, u.token),
      t.gql(Q.submit, { key: b }, member.token),
    ]);
    const ok = results.filter((r) => !r.errors);
    const refused = results.filter((r) => code(r) === ERROR_CODES.NO_ACTIVE_TOURS_LEFT);
    expect([ok.length, refused.length]).toEqual([1, 1]);
    expect(await counts(u.company.id)).toMatchObject({ monthlyActiveTours: 1, monthlyUploadedTours: 1 });
    const tours = await t.app.services.db
      .selectFrom('tours')
      .select('id')
      .where('company_id', '=', u.company.id)
      .execute();
    expect(tours).toHaveLength(1);
  });

  it('lets only one of two simultaneous submits of the same key through', async () => {
    const u = await seedUser(t.app, { plan: 'pro' });
    const key = await uploadBytes(t, u.token, Buffer.alloc(1024, 1));
    const results = await Promise.all([t.gql(Q.submit, { key }, u.token), t.gql(Q.submit, { key }, u.token)]);
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(results.filter((r) => code(r) === ERROR_CODES.CONFLICT)).toHaveLength(1);
  });
});
