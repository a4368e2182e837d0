/**
 * Listed or unlisted (issue 41, docs/embedding.md "Listed or unlisted"): every tour is unlisted (its page `noindex`,
 * `X-Robots-Tag: noindex` on its media, absent from /sitemap.xml); the owner lists a public tour with tourListedSet,
 * which puts it in /sitemap.xml with schema.org JSON-LD on its page; a protected tour cannot be listed and a listed
 * one that turns protected leaves the sitemap; only the tour's editors may change it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedProcessedTour } from './fixtures/tours.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';

const LIST = 'mutation($input: TourListedSetInput!) { tourListedSet(input: $input) { id listed } }';
const READ = 'query($id: ID!) { node(id: $id) { ... on Tour { listed } } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';

/** Every `<loc>` of a sitemap. */
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&#38;/g, '&'));

/** The page's JSON-LD blocks, parsed. */
const jsonLd = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));

describe.each(DB_KINDS)('listed or unlisted (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let listed: { id: string; rowId: string };
  let unlisted: { id: string; rowId: string };

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const a = await seedProcessedTour(t, owner, 2);
    const b = await seedProcessedTour(t, owner, 2);
    listed = { id: a.id, rowId: a.row.id };
    unlisted = { id: b.id, rowId: b.row.id };
    const { db } = t.app.services;
    await db
      .updateTable('tours')
      .set({ title: 'Listed Lodge', description: 'Sea views' })
      .where('id', '=', a.row.id)
      .execute();
    await db.updateTable('tours').set({ title: 'Quiet Cottage' }).where('id', '=', b.row.id).execute();
    for (const [name, frameIndex] of [
      ['Hall', 0],
      ['Kitchen', 40],
    ] as const)
      expect(
        (await t.gql(MARKER_SAVE, { input: { tourId: a.id, name, frameIndex } }, owner.token)).errors,
      ).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  const page = (id: string) => fetch(`${t.url}/playerext?tourId=${id}`, { headers: { 'user-agent': 'Googlebot/2.1' } });
  const sitemap = async () => {
    const res = await fetch(`${t.url}/sitemap.xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    return res.text();
  };

  it('every tour starts unlisted: noindex on its page and media, not in the sitemap', async () => {
    expect((await t.gql(READ, { id: unlisted.id }, owner.token)).data.node.listed).toBe(false);
    const res = await page(unlisted.id);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(jsonLd(html)).toEqual([]);
    expect(locs(await sitemap())).toEqual([]);
    const poster = await t.app.services.db
      .selectFrom('tours')
      .select('thumbnail_key')
      .where('id', '=', unlisted.rowId)
      .executeTakeFirstOrThrow();
    const media = await fetch(t.app.services.storage.publicUrl(poster.thumbnail_key!));
    expect(media.status).toBe(200);
    expect(media.headers.get('x-robots-tag')).toBe('noindex');
    // Refusals under /media say it too.
    expect((await fetch(`${t.url}/media/tours/nothing-here.jpg`)).headers.get('x-robots-tag')).toBe('noindex');
  });

  it('a listed tour is in the sitemap and its page carries JSON-LD that parses; the unlisted one is not', async () => {
    const r = await t.gql(LIST, { input: { id: listed.id, listed: true } }, owner.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourListedSet.listed).toBe(true);
    expect(locs(await sitemap())).toEqual([`${t.url}/playerext?tourId=${listed.id}`]);
    const res = await page(listed.id);
    const html = await res.text();
    expect(html).not.toContain('noindex');
    expect(html).toContain('<meta name="robots" content="index, follow">');
    const [ld, ...more] = jsonLd(html);
    expect(more).toEqual([]);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'RealEstateListing',
      name: 'Listed Lodge',
      url: `${t.url}/playerext?tourId=${listed.id}`,
      containsPlace: [
        { '@type': 'Room', name: 'Hall' },
        { '@type': 'Room', name: 'Kitchen' },
      ],
    });
    // Its audience links and unbranded link stay unlisted.
    const mls = await (await fetch(`${t.url}/playerext?tourId=${listed.id}&unbranded=true`)).text();
    expect(mls).toContain('<meta name="robots" content="noindex">');
    expect(jsonLd(mls)).toEqual([]);
    expect(await (await page(unlisted.id)).text()).toContain('<meta name="robots" content="noindex">');
  });

  it('only a public tour may be listed; a listed tour turned protected leaves the sitemap; strangers may not', async () => {
    const denied = await t.gql(LIST, { input: { id: unlisted.id, listed: true } }, stranger.token);
    expect(denied.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const locked = await t.gql(
      SET_ACCESS,
      { input: { id: unlisted.id, access: 'PASSWORD', password: 'open sesame' } },
      owner.token,
    );
    expect(locked.errors).toBeUndefined();
    const refused = await t.gql(LIST, { input: { id: unlisted.id, listed: true } }, owner.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(refused.errors?.[0]?.message).toBe(
      'Only a tour anyone with the link can see may be shown by search engines.',
    );
    expect((await t.gql(READ, { id: unlisted.id }, owner.token)).data.node.listed).toBe(false);

    expect(
      (await t.gql(SET_ACCESS, { input: { id: listed.id, access: 'COMPANY' } }, owner.token)).errors,
    ).toBeUndefined();
    expect(locs(await sitemap())).toEqual([]);
    const html = await (await page(listed.id)).text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('Listed Lodge');
    expect(jsonLd(html)).toEqual([]);
    // Unlisting works whatever the access.
    const off = await t.gql(LIST, { input: { id: listed.id, listed: false } }, owner.token);
    expect(off.data.tourListedSet.listed).toBe(false);
  });

  it('robots.txt names the sitemap', async () => {
    const res = await fetch(`${t.url}/robots.txt`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`Sitemap: ${t.url}/sitemap.xml`);
  });
});
