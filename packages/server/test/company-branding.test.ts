/**
 * Custom Company Branding (Basic, Pro, Offline License): the company logo is its tours' intro logo and its accent
 * colour reaches the player (Tour.tourIntroLogoURL / tourAccentColor on the public tour query), until a downgrade.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRANDING_TEXTS, ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { gqlUpload, pngImage } from './helpers/accounts.js';
import { encodeId } from '../src/graphql/builder.js';
import { downgradeToFree } from '../src/services/billing/licenses.js';

const COMPANY_SAVE =
  'mutation($input: CompanySaveInput!) { companySave(input: $input) { id accentColor logoimageurl } }';
const PLAYER_TOUR = 'query PlayerTour($tourID: ID!) { tour(tourID: $tourID) { id tourIntroLogoURL tourAccentColor } }';

describe.each(DB_KINDS)('company branding on the player (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t?.stop());

  async function tourOf(u: SeededUser): Promise<string> {
    const row = await t.app.services.db
      .insertInto('tours')
      .values({
        company_id: u.company.id,
        owner_id: u.user.id,
        title: 'Seaside Villa',
        status: 'PROCESSED',
        video_key: `tours/${u.company.id}/video.mp4`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return encodeId('Tour', row.id);
  }
  const companyRow = (id: string) =>
    t.app.services.db
      .selectFrom('companies')
      .select(['logo_key', 'accent_color', 'name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const publicTour = async (id: string) =>
    (await t.gql(PLAYER_TOUR, { tourID: id })).data.tour as {
      tourIntroLogoURL: string | null;
      tourAccentColor: string | null;
    };

  it('Basic: the company logo and accent colour appear on its tours for anyone, and go with a downgrade', async () => {
    const admin = await seedUser(t.app, { plan: 'basic' });
    const tourId = await tourOf(admin);
    expect(await publicTour(tourId)).toMatchObject({ tourIntroLogoURL: null, tourAccentColor: null });
    const r = await gqlUpload(
      t,
      COMPANY_SAVE,
      { input: { name: 'Villa Estates', accentColor: ' #8A1C7C ', logoImage: null } },
      { 'input.logoImage': { data: await pngImage(), name: 'logo.png', type: 'image/png' } },
      admin.token,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.companySave.accentColor).toBe('#8a1c7c');
    const row = await companyRow(admin.company.id);
    const logoUrl = t.app.services.storage.publicUrl(row.logo_key!);
    // Logged out, as a listing page's visitor.
    expect(await publicTour(tourId)).toMatchObject({ tourIntroLogoURL: logoUrl, tourAccentColor: '#8a1c7c' });
    const logo = await fetch(logoUrl.startsWith('http') ? logoUrl : `${t.url}${logoUrl}`);
    expect(logo.status).toBe(200);

    await downgradeToFree(t.app.services.db, admin.company.id, new Date());
    expect(await publicTour(tourId)).toMatchObject({ tourIntroLogoURL: null, tourAccentColor: null });
    // The choice is kept for an upgrade.
    expect((await companyRow(admin.company.id)).accent_color).toBe('#8a1c7c');
  });

  it("a tour's own intro logo wins over the company's", async () => {
    const admin = await seedUser(t.app, { plan: 'pro' });
    const tourId = await tourOf(admin);
    await t.app.services.db
      .updateTable('tours')
      .set({ intro_logo_key: 'tours/own/logo.png' })
      .where('company_id', '=', admin.company.id)
      .execute();
    await t.app.services.db
      .updateTable('companies')
      .set({ logo_key: 'companies/x/logo.png', accent_color: '#0b5394' })
      .where('id', '=', admin.company.id)
      .execute();
    expect(await publicTour(tourId)).toEqual({
      id: tourId,
      tourIntroLogoURL: t.app.services.storage.publicUrl('tours/own/logo.png'),
      tourAccentColor: '#0b5394',
    });
  });

  it('rejects a colour that is not #rrggbb or too light for white text, in words, changing nothing; clears with ""', async () => {
    const admin = await seedUser(t.app, { plan: 'basic' });
    const ok = await t.gql(COMPANY_SAVE, { input: { name: 'Co', accentColor: '#1565c0' } }, admin.token);
    expect(ok.data.companySave.accentColor).toBe('#1565c0');
    const before = await companyRow(admin.company.id);
    for (const [value, message] of [
      ['red', BRANDING_TEXTS.accentInvalid],
      ['#fff', BRANDING_TEXTS.accentInvalid],
      ['#12345g', BRANDING_TEXTS.accentInvalid],
      ['#ffeb3b', BRANDING_TEXTS.accentTooLight],
      ['#2196f3', BRANDING_TEXTS.accentTooLight],
    ] as const) {
      const r = await t.gql(COMPANY_SAVE, { input: { name: 'Renamed', accentColor: value } }, admin.token);
      expect(r.errors?.[0], value).toMatchObject({ message, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
      expect(await companyRow(admin.company.id)).toEqual(before);
    }
    const cleared = await t.gql(COMPANY_SAVE, { input: { name: 'Co', accentColor: '' } }, admin.token);
    expect(cleared.data.companySave.accentColor).toBeNull();
  });

  it('Entry: refused with the plan hint; its tours stay unbranded even with a stored logo', async () => {
    const admin = await seedUser(t.app, { plan: 'entry' });
    const tourId = await tourOf(admin);
    const r = await t.gql(COMPANY_SAVE, { input: { name: 'Co', accentColor: '#1565c0' } }, admin.token);
    expect(r.errors?.[0]).toMatchObject({
      message: BRANDING_TEXTS.planHint,
      extensions: { code: ERROR_CODES.FORBIDDEN },
    });
    expect((await companyRow(admin.company.id)).accent_color).toBeNull();
    await t.app.services.db
      .updateTable('companies')
      .set({ logo_key: 'companies/y/logo.png', accent_color: '#0b5394' })
      .where('id', '=', admin.company.id)
      .execute();
    expect(await publicTour(tourId)).toMatchObject({ tourIntroLogoURL: null, tourAccentColor: null });
  });
});
