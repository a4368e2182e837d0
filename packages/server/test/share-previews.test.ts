/**
 * Link previews (issue 41, docs/access-and-privacy.md "Link previews"): the share page fetched as chats and feeds fetch
 * it (no JavaScript, their user agents), its tags read by an unfurling library (open-graph-scraper). A public tour's
 * card shows its title, company, rooms and 1200x630 picture; a password or company-only tour, an expired or revoked
 * link get a neutral card with nothing of the tour in the whole page; a link hiding a room never names it or shows the
 * poster; an unbranded link names no company. The page is still the console's, booting the player.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ogs from 'open-graph-scraper';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffset } from '../src/core/clock.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';

const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const CREATE_LINK = `mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token } }`;
const REVOKE_LINK = 'mutation($id: ID!) { audienceLinkRevoke(id: $id) { id } }';

/** The crawlers that unfurl links in chats and feeds. */
const CRAWLERS = {
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  whatsapp: 'WhatsApp/2.23.20.0 A',
  twitter: 'Twitterbot/1.0',
  slack: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  linkedin: 'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
} as const;

const CONSOLE_SCRIPT = '/assets/index-share-test.js';
const DAY = 86_400_000;

interface Seeded {
  id: string;
  rowId: string;
  title: string;
  rooms: string[];
  imageUrl: string;
  posterUrl: string;
}

describe.each(DB_KINDS)('link previews (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let company: string;
  let logoUrl: string;
  let dist: string;
  let pub: Seeded;
  let password: Seeded;
  let members: Seeded;
  const markerIds: Record<string, string> = {};

  async function tour(title: string, rooms: string[]): Promise<Seeded> {
    const seeded = await seedProcessedTour(t, owner, 4);
    const { db, storage } = t.app.services;
    const imageKey = `tours/${seeded.row.id}/share/preview.jpg`;
    await storage.put(imageKey, Buffer.from('jpeg'), 'image/jpeg');
    await db.updateTable('tours').set({ title, share_image_key: imageKey }).where('id', '=', seeded.row.id).execute();
    for (const [i, name] of rooms.entries()) {
      const r = await t.gql(MARKER_SAVE, { input: { tourId: seeded.id, name, frameIndex: i * 40 } }, owner.token);
      expect(r.errors).toBeUndefined();
      markerIds[name] = r.data.markerSave.id;
    }
    const row = await db
      .selectFrom('tours')
      .select('thumbnail_key')
      .where('id', '=', seeded.row.id)
      .executeTakeFirstOrThrow();
    return {
      id: seeded.id,
      rowId: seeded.row.id,
      title,
      rooms,
      imageUrl: storage.publicUrl(imageKey),
      posterUrl: storage.publicUrl(row.thumbnail_key!),
    };
  }

  const pageUrl = (q: Record<string, string>) => `${t.url}/playerext?${new URLSearchParams(q)}`;

  /** The page as a crawler gets it: the raw HTML and the tags open-graph-scraper reads from it. */
  async function unfurl(url: string, agent: string) {
    const res = await fetch(url, { headers: { 'user-agent': agent, accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const { result } = await ogs({ html });
    return { html, result, robots: res.headers.get('x-robots-tag') };
  }

  /** Nothing of a tour anywhere in a page: its title, rooms, picture and poster. */
  function revealsNothingOf(html: string, s: Seeded, rooms = s.rooms) {
    expect(html).not.toContain(s.title);
    for (const room of rooms) expect(html).not.toContain(room);
    expect(html).not.toContain(s.imageUrl);
    expect(html).not.toContain(s.posterUrl);
    expect(html).not.toContain(`/tours/${s.rowId}/`);
  }

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-console-'));
    await fs.writeFile(
      path.join(dist, 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><meta name="description" content="Roomwalk turns property walkthrough videos into scroll-driven tours." /><title>Roomwalk</title><script type="module" crossorigin src="${CONSOLE_SCRIPT}"></script></head><body><div id="root"></div></body></html>`,
    );
    t = await startTestApp(kind, { CONSOLE_DIST: dist });
    owner = await seedUser(t.app, { plan: 'pro' });
    const { db, storage } = t.app.services;
    const logoKey = `companies/${owner.company.id}/logo.png`;
    await storage.put(logoKey, Buffer.from('png'), 'image/png');
    await db.updateTable('companies').set({ logo_key: logoKey }).where('id', '=', owner.company.id).execute();
    company = (
      await db.selectFrom('companies').select('name').where('id', '=', owner.company.id).executeTakeFirstOrThrow()
    ).name;
    logoUrl = storage.publicUrl(logoKey);
    pub = await tour('Harbour Loft', ['Hall', 'Main bedroom', 'Kitchen', 'Garden']);
    password = await tour('Secret Villa', ['Wine cellar', 'Panic room']);
    members = await tour('Private Penthouse', ['Vault']);
    for (const [s, access] of [
      [password, 'PASSWORD'],
      [members, 'COMPANY'],
    ] as const) {
      const r = await t.gql(SET_ACCESS, { input: { id: s.id, access, password: 'open sesame' } }, owner.token);
      expect(r.errors).toBeUndefined();
    }
  });
  afterEach(() => setClockOffset(t.app.services, 0));
  afterAll(async () => {
    await t?.stop();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it.each(Object.entries(CRAWLERS))(
    'a public tour unfurls for %s with its title, company, rooms and 1200x630 picture, and still boots the player',
    async (_name, agent) => {
      const { html, result, robots } = await unfurl(pageUrl({ tourId: pub.id }), agent);
      expect(result.ogTitle).toBe(`Harbour Loft — ${company}`);
      expect(html).toContain(`<title>Harbour Loft — ${company}</title>`);
      expect(result.ogSiteName).toBe(company);
      expect(result.ogDescription).toBe('Walk through 4 rooms: Hall, Main bedroom, Kitchen, Garden');
      expect(result.ogUrl).toBe(pageUrl({ tourId: pub.id }));
      expect(result.twitterCard).toBe('summary_large_image');
      expect(result.ogImage).toEqual([
        expect.objectContaining({ url: pub.imageUrl, width: '1200', height: '630', alt: 'A view inside Harbour Loft' }),
      ]);
      // Unlisted by default.
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(robots).toBe('noindex');
      // The console's page, once: its script is there, its generic title and description are not.
      expect(html).toContain(`src="${CONSOLE_SCRIPT}"`);
      expect(html).not.toContain('<title>Roomwalk</title>');
      expect(html).not.toContain('scroll-driven tours');
    },
  );

  it.each([
    ['a password tour', () => password, 'This tour is protected'],
    ['a company-only tour', () => members, 'This tour is private'],
  ] as const)('%s gets a neutral card: the company and its logo, nothing of the tour', async (_n, which, text) => {
    const s = which();
    for (const agent of Object.values(CRAWLERS)) {
      const { html, result } = await unfurl(pageUrl({ tourId: s.id }), agent);
      expect(result.ogTitle).toBe(company);
      expect(result.ogDescription).toContain(text);
      expect(result.ogImage).toEqual([expect.objectContaining({ url: logoUrl })]);
      expect(result.twitterCard).toBe('summary');
      revealsNothingOf(html, s);
      // Through an audience link too: a link does not open a protected tour.
      const link = await t.gql(CREATE_LINK, { input: { tourId: s.id, label: 'Buyers' } }, owner.token);
      revealsNothingOf(
        (await unfurl(pageUrl({ tourId: s.id, link: link.data.audienceLinkCreate.token }), agent)).html,
        s,
      );
    }
  });

  it('an audience link hiding a room never names it nor shows the poster', async () => {
    const r = await t.gql(
      CREATE_LINK,
      { input: { tourId: pub.id, label: 'Open day', hiddenMarkerIds: [markerIds['Main bedroom']] } },
      owner.token,
    );
    const token = r.data.audienceLinkCreate.token;
    for (const agent of Object.values(CRAWLERS)) {
      const { html, result } = await unfurl(pageUrl({ tourId: pub.id, link: token }), agent);
      expect(result.ogTitle).toBe(`Harbour Loft — ${company}`);
      expect(result.ogDescription).toBe('Walk through 3 rooms: Hall, Kitchen, Garden');
      expect(result.ogUrl).toBe(pageUrl({ tourId: pub.id, link: token }));
      expect(result.ogImage).toBeUndefined();
      expect(html).not.toContain('Main bedroom');
      expect(html).not.toContain(pub.imageUrl);
      expect(html).not.toContain(pub.posterUrl);
    }
  });

  it('an expired or revoked link, and a made-up one, get a neutral card', async () => {
    const expiring = await t.gql(
      CREATE_LINK,
      { input: { tourId: pub.id, label: 'Short', expiresAt: new Date(Date.now() + DAY).toISOString() } },
      owner.token,
    );
    const revoked = await t.gql(CREATE_LINK, { input: { tourId: pub.id, label: 'Gone' } }, owner.token);
    await t.gql(REVOKE_LINK, { id: revoked.data.audienceLinkCreate.id }, owner.token);
    // Live before the end date: the tour's card.
    const before = await unfurl(
      pageUrl({ tourId: pub.id, link: expiring.data.audienceLinkCreate.token }),
      CRAWLERS.whatsapp,
    );
    expect(before.result.ogTitle).toBe(`Harbour Loft — ${company}`);
    setClockOffset(t.app.services, 3 * DAY);
    for (const token of [expiring.data.audienceLinkCreate.token, revoked.data.audienceLinkCreate.token, 'x'.repeat(32)])
      for (const agent of Object.values(CRAWLERS)) {
        const { html, result } = await unfurl(pageUrl({ tourId: pub.id, link: token }), agent);
        expect(result.ogTitle).toBe(company);
        expect(result.ogDescription).toBe('This tour is no longer available.');
        revealsNothingOf(html, pub);
      }
  });

  it('an unbranded link (MLS), and an unbranded audience link, name no company and show no logo', async () => {
    const link = await t.gql(CREATE_LINK, { input: { tourId: pub.id, label: 'MLS', unbranded: true } }, owner.token);
    const asked: Array<Record<string, string>> = [
      { tourId: pub.id, unbranded: 'true' },
      { tourId: pub.id, link: link.data.audienceLinkCreate.token },
    ];
    for (const q of asked)
      for (const agent of Object.values(CRAWLERS)) {
        const { html, result } = await unfurl(pageUrl(q), agent);
        expect(result.ogTitle).toBe('Harbour Loft');
        expect(result.ogSiteName).toBe('Roomwalk');
        expect(result.ogImage).toEqual([expect.objectContaining({ url: pub.imageUrl })]);
        expect(html).not.toContain(company);
        expect(html).not.toContain(logoUrl);
      }
    // A protected tour through an unbranded link: not even the company.
    const { html, result } = await unfurl(pageUrl({ tourId: password.id, unbranded: 'true' }), CRAWLERS.slack);
    expect(result.ogTitle).toBe('Roomwalk');
    expect(html).not.toContain(company);
    revealsNothingOf(html, password);
  });

  it('escapes what the agent typed, and an unknown tour gets the console page, noindex', async () => {
    await t.app.services.db
      .updateTable('tours')
      .set({ title: 'Loft "A" <script>alert(1)</script>' })
      .where('id', '=', members.rowId)
      .execute();
    const x = await t.gql(SET_ACCESS, { input: { id: members.id, access: 'PUBLIC' } }, owner.token);
    expect(x.errors).toBeUndefined();
    const { html, result } = await unfurl(pageUrl({ tourId: members.id }), CRAWLERS.twitter);
    expect(result.ogTitle).toBe(`Loft "A" <script>alert(1)</script> — ${company}`);
    expect(html).not.toContain('<script>alert(1)');
    const unknown = await unfurl(pageUrl({ tourId: 'tour_00000000-0000-4000-8000-000000000000' }), CRAWLERS.facebook);
    expect(unknown.html).toContain('<title>Roomwalk</title>');
    expect(unknown.html).toContain('<meta name="robots" content="noindex">');
    expect(unknown.html).not.toContain('og:');
  });
});
