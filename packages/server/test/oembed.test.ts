/**
 * oEmbed (issue 41, docs/embedding.md "oEmbed"): a consumer discovers the endpoint from the share page, asks it with
 * maxwidth 400 and 1000 and gets a `rich` answer with every field the specification (oembed.com §2.3) requires, the
 * iframe sized within the bounds at the tour's aspect; format=xml answers 501, a URL that is not one of our share
 * links 404; a protected tour's answer names nothing of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProcessedTour } from './fixtures/tours.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';

const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';

const unescapeAttr = (s: string) =>
  s.replace(/&#(\d+);/g, (_m, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');

/** The oEmbed endpoint a page names (oembed.com §4: a link element of type application/json+oembed). */
function discover(html: string): string | null {
  const tag = /<link[^>]+type="application\/json\+oembed"[^>]*>/.exec(html)?.[0];
  const href = tag && /href="([^"]+)"/.exec(tag)?.[1];
  return href ? unescapeAttr(href) : null;
}

/** The specification's required fields of a rich answer, and thumbnails all-or-nothing. */
function expectValidRich(body: Record<string, unknown>) {
  expect(body.type).toBe('rich');
  expect(body.version).toBe('1.0');
  expect(typeof body.html).toBe('string');
  expect(Number.isInteger(body.width) && (body.width as number) > 0).toBe(true);
  expect(Number.isInteger(body.height) && (body.height as number) > 0).toBe(true);
  const thumbs = ['thumbnail_url', 'thumbnail_width', 'thumbnail_height'].filter((k) => k in body);
  expect([0, 3]).toContain(thumbs.length);
  if ('cache_age' in body) expect(Number.isInteger(body.cache_age)).toBe(true);
}

describe.each(DB_KINDS)('oEmbed (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let tourId: string;
  let imageUrl: string;
  let secretId: string;
  let company: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    const { db, storage } = t.app.services;
    company = (
      await db.selectFrom('companies').select('name').where('id', '=', owner.company.id).executeTakeFirstOrThrow()
    ).name;
    const seeded = await seedProcessedTour(t, owner, 2);
    tourId = seeded.id;
    const key = `tours/${seeded.row.id}/share/preview.jpg`;
    await storage.put(key, Buffer.from('jpeg'), 'image/jpeg');
    imageUrl = storage.publicUrl(key);
    await db
      .updateTable('tours')
      .set({ title: 'Harbour Loft', share_image_key: key })
      .where('id', '=', seeded.row.id)
      .execute();
    const secret = await seedProcessedTour(t, owner, 2);
    secretId = secret.id;
    await db.updateTable('tours').set({ title: 'Secret Villa' }).where('id', '=', secret.row.id).execute();
    expect(
      (await t.gql(MARKER_SAVE, { input: { tourId: secretId, name: 'Wine cellar', frameIndex: 0 } }, owner.token))
        .errors,
    ).toBeUndefined();
    const r = await t.gql(
      SET_ACCESS,
      { input: { id: secretId, access: 'PASSWORD', password: 'open sesame' } },
      owner.token,
    );
    expect(r.errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const share = (id: string) => `${t.url}/playerext?tourId=${id}`;
  const ask = (q: Record<string, string>) => fetch(`${t.url}/oembed?${new URLSearchParams(q)}`);

  it('is discovered from the share page and answers a rich embed within maxwidth at the tour aspect', async () => {
    const page = await (
      await fetch(share(tourId), { headers: { 'user-agent': 'Iframely/1.3.1 (+https://iframely.com/docs/about)' } })
    ).text();
    const endpoint = discover(page);
    expect(endpoint).toBe(`${t.url}/oembed?${new URLSearchParams({ url: share(tourId), format: 'json' })}`);
    for (const maxwidth of [400, 1000]) {
      const res = await fetch(`${endpoint}&maxwidth=${maxwidth}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await res.json()) as Record<string, any>;
      expectValidRich(body);
      expect(body).toMatchObject({
        title: `Harbour Loft — ${company}`,
        author_name: company,
        provider_name: 'Roomwalk',
        provider_url: `${t.url}/`,
        thumbnail_url: imageUrl,
        thumbnail_width: 1200,
        thumbnail_height: 630,
        width: maxwidth,
        height: Math.round((maxwidth * 720) / 1280),
      });
      const src = /<iframe src="([^"]+)"/.exec(body.html)?.[1];
      expect(unescapeAttr(src!)).toBe(`${share(tourId)}&disabledControls=feedback`);
      expect(body.html).toContain(`width="${maxwidth}" height="${body.height}"`);
    }
    // maxheight bounds it too, keeping the aspect.
    const bounded = await (await ask({ url: share(tourId), maxwidth: '1000', maxheight: '300' })).json();
    expect(bounded).toMatchObject({ width: 533, height: 300 });
  });

  it('answers 501 to format=xml, 404 to foreign or unknown URLs, 400 to nonsense sizes', async () => {
    expect((await ask({ url: share(tourId), format: 'xml' })).status).toBe(501);
    for (const url of [
      `https://elsewhere.example/playerext?tourId=${tourId}`,
      `${t.url}/editplayer?tourId=${tourId}`,
      `${t.url}/playerext`,
      `${t.url}/playerext?tourId=tour_00000000-0000-4000-8000-000000000000`,
      `${t.url}/playerext?tourId=nonsense`,
      'not a url',
    ]) {
      const res = await ask({ url });
      expect(res.status, url).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('NOT_FOUND');
    }
    expect((await ask({ url: share(tourId), maxwidth: 'wide' })).status).toBe(400);
  });

  it("a password tour's answer embeds its gate and names nothing of it", async () => {
    const res = await ask({ url: share(secretId), maxwidth: '400' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expectValidRich(body);
    expect(body.title).toBe(company);
    const text = JSON.stringify(body);
    expect(text).not.toContain('Secret Villa');
    expect(text).not.toContain('Wine cellar');
    expect(body.thumbnail_url).toBeUndefined();
  });
});
