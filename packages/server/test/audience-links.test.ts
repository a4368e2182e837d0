/**
 * Audience links: the agent's links (label, expiry, hidden rooms, unbranded, revoke), and every public path through a
 * link — the tour query (GraphQL POST and the player's GET), the public answer cache, clips and posters under /media,
 * the visit beacon — never giving a hidden room, and an expired (the server's clock moved) or revoked link answering
 * the company's message with nothing of the tour.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_LINK_QUERY, PLAYER_TOUR_QUERY, TOUR_UNLOCK_MUTATION } from '@roomwalk/shared/player-documents';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { publicTourCacheOf } from '../src/http/public-tour-cache.js';
import { setClockOffset } from '../src/core/clock.js';

const CREATE = `mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id label url token expiresAt hiddenMarkerIds unbranded status visits } }`;
const REVOKE = 'mutation($id: ID!) { audienceLinkRevoke(id: $id) { id status revokedAt } }';
const LIST = 'query($tourId: ID!) { audienceLinks(tourId: $tourId) { id label status visits hiddenMarkerIds } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const DAY = 86_400_000;

interface PlayerTour {
  title: string;
  thumbnailURL: string | null;
  tourAccentColor: string | null;
  listingLink: string | null;
  clips: Array<{ index: number; frameCount: number; highURI: string; lowURI: string }>;
  markers: Array<{ id: string; name: string; frameIndex: number }>;
  agentProfile: { fullname: string } | null;
}
interface Answer {
  data?: { tour: PlayerTour | null } | null;
  errors?: Array<{ message: string; extensions: { code: string; gate?: Record<string, unknown> } }>;
}

const clipKey = (rowId: string, i: number, kind: 'high' | 'low') =>
  `tours/${rowId}/v1/clips/${String(i).padStart(4, '0')}-${kind}.mp4`;

describe.each(DB_KINDS)('audience links (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let rowId: string;
  const markerIds: Record<string, string> = {};

  const getVia = (link: string, access?: string) =>
    fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_LINK_QUERY, variables: JSON.stringify({ tourID: tourId, link, ...(access ? { access } : {}) }) })}`,
    );
  const getPlain = () =>
    fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
    );
  const create = (input: Record<string, unknown>, token = owner.token) =>
    t.gql(CREATE, { input: { tourId, ...input } }, token);
  const linksRows = () =>
    t.app.services.db.selectFrom('audience_links').selectAll().where('tour_id', '=', rowId).execute();
  const beacon = (body: Record<string, unknown>) =>
    fetch(`${t.url}/tour-visit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({
        tourId,
        visitorId: `visitor-${Math.random().toString(36).slice(2, 10)}`,
        secondsSpent: 4,
        ...body,
      }),
    });

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    // Four clips of 36 frames: 0–35, 36–71, 72–107, 108–143.
    const seeded = await seedProcessedTour(t, owner, 4);
    tourId = seeded.id;
    rowId = seeded.row.id;
    await t.app.services.db
      .updateTable('tours')
      .set({ title: 'Harbour Loft', listing_link: 'https://listing.example/loft' })
      .where('id', '=', rowId)
      .execute();
    for (const [name, frameIndex] of [
      ['Hall', 0],
      ['Main bedroom', 40],
      ['Kitchen', 80],
      ['Garden', 120],
    ] as const) {
      const r = await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex } }, owner.token);
      expect(r.errors).toBeUndefined();
      markerIds[name] = r.data.markerSave.id;
    }
  });
  afterEach(() => setClockOffset(t.app.services, 0));
  afterAll(async () => {
    await t?.stop();
  });

  it("refuses bad links in the agent's words and writes nothing; only the tour's editors make or revoke them", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ label: '   ' }, 'Give the link a name, such as "Buyers\' open day".'],
      [{ label: 'x'.repeat(61) }, 'The name can be at most 60 characters.'],
      [
        { label: 'Past', expiresAt: new Date(Date.now() - DAY).toISOString() },
        'The expiry date must be today or later.',
      ],
      [
        { label: 'Stranger room', hiddenMarkerIds: ['marker_00000000-0000-4000-8000-000000000000'] },
        'One of the rooms to hide is not a room of this tour.',
      ],
      [{ label: 'Nothing left', hiddenMarkerIds: Object.values(markerIds) }, 'Leave at least one room visible.'],
    ];
    for (const [input, message] of cases) {
      const r = await create(input);
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.message).toBe(message);
    }
    expect((await create({ label: 'Theirs' }, stranger.token)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(LIST, { tourId }, stranger.token)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await t.gql(CREATE, { input: { tourId, label: 'Anonymous' } })).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect(await linksRows()).toEqual([]);
  });

  it('a link hiding a room: no path gives its name, frames, clips or the poster; the frames are numbered again', async () => {
    const made = await create({
      label: "Buyers' open day",
      hiddenMarkerIds: [markerIds['Main bedroom']],
      expiresAt: new Date(Date.now() + DAY).toISOString(),
    });
    expect(made.errors).toBeUndefined();
    const link = made.data.audienceLinkCreate;
    expect(link).toMatchObject({
      label: "Buyers' open day",
      status: 'ACTIVE',
      visits: 0,
      unbranded: false,
      hiddenMarkerIds: [markerIds['Main bedroom']],
    });
    expect(link.url).toBe(`${t.app.services.config.publicUrl}/playerext?tourId=${tourId}&link=${link.token}`);

    // The plain answer first (cached), so a later link answer would show if it came from the cache.
    const plain = ((await (await getPlain()).json()) as Answer).data!.tour!;
    expect(plain.markers.map((m) => m.name)).toEqual(['Hall', 'Main bedroom', 'Kitchen', 'Garden']);
    expect(publicTourCacheOf(t.app.services)!.size).toBe(1);

    const r = await getVia(link.token);
    expect(r.headers.get('cache-control')).toBe('private, no-store');
    expect(r.headers.get('etag')).toBeNull();
    const body = await r.text();
    const tour = (JSON.parse(body) as Answer).data!.tour!;
    // Main bedroom (40–79) hides clips 1 (36–71) and 2 (72–107): clips 0 and 3 are left, as 0 and 1.
    expect(tour.clips.map((c) => [c.index, new URL(c.highURI).pathname])).toEqual([
      [0, `/media/${clipKey(rowId, 0, 'high')}`],
      [1, `/media/${clipKey(rowId, 3, 'high')}`],
    ]);
    // Kitchen (80–119) lost 80–107 with clip 2: it starts at its first frame left (108, seen as 36); Garden 120 → 48.
    expect(tour.markers.map((m) => [m.name, m.frameIndex])).toEqual([
      ['Hall', 0],
      ['Kitchen', 36],
      ['Garden', 48],
    ]);
    expect(tour.thumbnailURL).toBeNull();
    for (const secret of [
      'Main bedroom',
      markerIds['Main bedroom']!,
      clipKey(rowId, 1, 'high'),
      clipKey(rowId, 2, 'low'),
      'thumbnail.jpg',
    ])
      expect(body).not.toContain(secret);
    // The cache holds only the tour's own answer, unchanged.
    expect(publicTourCacheOf(t.app.services)!.size).toBe(1);
    expect(((await (await getPlain()).json()) as Answer).data!.tour!.markers).toHaveLength(4);

    // GraphQL (POST, as any client would ask) answers the same view, byte for byte.
    const post = await t.gql(PLAYER_TOUR_LINK_QUERY, { tourID: tourId, link: link.token });
    expect(JSON.stringify({ data: post.data })).toBe(body);
    // The tour's other fields through a link leak nothing either.
    const poster = await t.gql(
      'query($id: ID!, $link: String) { tour(tourID: $id, link: $link) { thumbnailURL markers { name } clips { id } } }',
      { id: tourId, link: link.token },
    );
    expect(poster.data.tour.thumbnailURL).toBeNull();
    expect(poster.data.tour.clips).toHaveLength(2);

    // Another link with other hidden rooms gets its own view.
    const other = (await create({ label: 'Seller', hiddenMarkerIds: [markerIds.Garden] })).data.audienceLinkCreate;
    const seller = ((await (await getVia(other.token)).json()) as Answer).data!.tour!;
    expect(seller.markers.map((m) => m.name)).toEqual(['Hall', 'Main bedroom', 'Kitchen']);
    expect(seller.clips).toHaveLength(3);
    // A link of one tour does not open another tour, and a made-up token is not a link.
    const strangersTour = await seedProcessedTour(t, stranger, 1);
    const wrong = await t.gql(PLAYER_TOUR_LINK_QUERY, { tourID: strangersTour.id, link: link.token });
    expect(wrong.errors?.[0]?.extensions?.code).toBe('AUDIENCE_LINK_UNAVAILABLE');
    expect(
      (await t.gql(PLAYER_TOUR_LINK_QUERY, { tourID: tourId, link: 'A'.repeat(32) })).errors?.[0]?.extensions?.code,
    ).toBe('AUDIENCE_LINK_UNAVAILABLE');
  });

  it('visits through a link are counted under it; its hidden rooms are never recorded', async () => {
    const link = (await create({ label: 'MLS', hiddenMarkerIds: [markerIds.Kitchen] })).data.audienceLinkCreate;
    const r = await beacon({
      link: link.token,
      roomsReached: 2,
      segments: [
        { room: 'Hall', seconds: 1 },
        { room: 'Kitchen', seconds: 2 },
      ],
    });
    expect(r.status).toBe(204);
    const visit = await t.app.services.db
      .selectFrom('view_events')
      .selectAll()
      .where('audience_link_id', '=', link.id.replace(/^audlink_/, ''))
      .executeTakeFirstOrThrow();
    expect(visit.rooms.map((x) => x.name)).toEqual(['Hall']);
    const listed = (await t.gql(LIST, { tourId }, owner.token)).data.audienceLinks as Array<{
      id: string;
      visits: number;
    }>;
    expect(listed.find((l) => l.id === link.id)!.visits).toBe(1);
    // The tour's own link still counts visits under none.
    expect((await beacon({})).status).toBe(204);
    expect((await beacon({ link: 'B'.repeat(32) })).status).toBe(410);
  });

  it("analytics and the seller report can show one link's visits; another tour's link is not a filter", async () => {
    const open = (await create({ label: 'Filter open day' })).data.audienceLinkCreate;
    const mls = (await create({ label: 'Filter MLS' })).data.audienceLinkCreate;
    for (const token of [open.token, open.token, mls.token])
      expect((await beacon({ link: token, segments: [{ room: 'Hall', seconds: 2 }] })).status).toBe(204);
    const ANALYTICS =
      'query($id: ID!, $link: ID) { tourAnalytics(tourId: $id, audienceLinkId: $link) { visits uniqueVisitors rooms { name visits } } }';
    const all = (await t.gql(ANALYTICS, { id: tourId }, owner.token)).data.tourAnalytics;
    const onlyOpen = (await t.gql(ANALYTICS, { id: tourId, link: open.id }, owner.token)).data.tourAnalytics;
    const onlyMls = (await t.gql(ANALYTICS, { id: tourId, link: mls.id }, owner.token)).data.tourAnalytics;
    expect(onlyOpen).toMatchObject({ visits: 2, uniqueVisitors: 2, rooms: [{ name: 'Hall', visits: 2 }] });
    expect(onlyMls.visits).toBe(1);
    expect(all.visits).toBeGreaterThanOrEqual(onlyOpen.visits + onlyMls.visits);
    const strangersTour = await seedProcessedTour(t, stranger, 1);
    const theirs = (await t.gql(CREATE, { input: { tourId: strangersTour.id, label: 'Theirs' } }, stranger.token)).data
      .audienceLinkCreate;
    expect((await t.gql(ANALYTICS, { id: tourId, link: theirs.id }, owner.token)).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );

    // The seller report: the link's names to choose from (no tokens), and the chosen link's visits.
    const sellerLink = await t.gql(
      'mutation($input: SellerReportLinkCreateInput!) { sellerReportLinkCreate(input: $input) { url } }',
      { input: { tourId } },
      owner.token,
    );
    const token = decodeURIComponent(String(sellerLink.data.sellerReportLinkCreate.url).split('/').pop()!);
    const SHARED =
      'query($token: String!, $link: ID) { sharedSellerReport(token: $token, audienceLinkId: $link) { audienceLinks { id label } analytics { visits } } }';
    const report = await t.gql(SHARED, { token });
    expect(report.data.sharedSellerReport.audienceLinks).toEqual(
      expect.arrayContaining([{ id: open.id, label: 'Filter open day' }]),
    );
    expect(JSON.stringify(report)).not.toContain(open.token);
    expect((await t.gql(SHARED, { token, link: open.id })).data.sharedSellerReport.analytics.visits).toBe(2);
    expect((await t.gql(SHARED, { token, link: theirs.id })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('one visitor through two links and the tour’s own within 30 minutes: a visit under each, and Visits from adds up', async () => {
    const a = (await create({ label: 'Visit key A' })).data.audienceLinkCreate;
    const b = (await create({ label: 'Visit key B' })).data.audienceLinkCreate;
    const ANALYTICS = 'query($id: ID!, $link: ID) { tourAnalytics(tourId: $id, audienceLinkId: $link) { visits } }';
    const visitsOf = async (link?: string) =>
      (await t.gql(ANALYTICS, { id: tourId, ...(link ? { link } : {}) }, owner.token)).data.tourAnalytics
        .visits as number;
    const before = await visitsOf();
    const visitorId = 'visitor-two-links-01';
    const seg = [{ room: 'Hall', seconds: 2 }];
    for (const link of [a.token, b.token, a.token, undefined])
      expect((await beacon({ visitorId, segments: seg, ...(link ? { link } : {}) })).status).toBe(204);
    const rows = await t.app.services.db
      .selectFrom('view_events')
      .select('audience_link_id')
      .where('tour_id', '=', rowId)
      .where('visitor_id', '=', visitorId)
      .execute();
    const under = (id: string) => rows.filter((r) => r.audience_link_id === id.replace(/^audlink_/, '')).length;
    // B's visit is B's (not an extension of A's), A's second beacon extends A's, and the tour's own link has its own.
    expect(rows).toHaveLength(3);
    expect([under(a.id), under(b.id), rows.filter((r) => r.audience_link_id === null).length]).toEqual([1, 1, 1]);
    expect([await visitsOf(a.id), await visitsOf(b.id)]).toEqual([1, 1]);
    expect((await visitsOf()) - before).toBe(3);
  });

  it("an expired link (the server's clock moved past it) and a revoked one answer the company's message, nothing of the tour", async () => {
    const link = (await create({ label: 'Open day', expiresAt: new Date(Date.now() + DAY).toISOString() })).data
      .audienceLinkCreate;
    expect((await getVia(link.token)).status).toBe(200);
    setClockOffset(t.app.services, DAY + 60_000);
    const bodies: string[] = [];
    for (const res of [await getVia(link.token), await getVia(link.token)]) {
      const text = await res.text();
      bodies.push(text);
      const answer = JSON.parse(text) as Answer;
      expect(answer.errors?.[0]?.extensions.code).toBe('AUDIENCE_LINK_UNAVAILABLE');
      expect(answer.errors?.[0]?.message).toBe('This tour is no longer available.');
      const gate = answer.errors![0]!.extensions.gate!;
      expect(gate.companyName).toEqual(expect.any(String));
      expect(gate.contact).toMatchObject({ email: owner.user.username });
      expect(answer.data?.tour ?? null).toBeNull();
    }
    expect(
      ((await t.gql(LIST, { tourId }, owner.token)).data.audienceLinks as Array<{ id: string; status: string }>).find(
        (l) => l.id === link.id,
      )!.status,
    ).toBe('EXPIRED');
    const late = await beacon({ link: link.token });
    expect(late.status).toBe(410);
    bodies.push(await late.text());
    setClockOffset(t.app.services, 0);

    const revoked = (await create({ label: 'Seller' })).data.audienceLinkCreate;
    expect((await t.gql(REVOKE, { id: revoked.id }, stranger.token)).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect((await getVia(revoked.token)).status).toBe(200);
    const done = await t.gql(REVOKE, { id: revoked.id }, owner.token);
    expect(done.data.audienceLinkRevoke.status).toBe('REVOKED');
    const after = await getVia(revoked.token);
    const text = await after.text();
    bodies.push(text);
    expect(text).toContain('AUDIENCE_LINK_UNAVAILABLE');
    for (const body of bodies)
      for (const secret of ['Harbour Loft', 'Kitchen', 'Hall', rowId, '/media/tours/'])
        expect(body).not.toContain(secret);
  });

  it('an unbranded link shows no company or agent: no accent, intro logo, agent card or listing link', async () => {
    const link = (await create({ label: 'MLS unbranded', unbranded: true })).data.audienceLinkCreate;
    const tour = ((await (await getVia(link.token)).json()) as Answer).data!.tour!;
    expect(tour.title).toBe('Harbour Loft');
    expect(tour).toMatchObject({ tourAccentColor: null, listingLink: null, agentProfile: null });
    expect(tour.markers).toHaveLength(4);
    const post = await t.gql(PLAYER_TOUR_LINK_QUERY, { tourID: tourId, link: link.token });
    expect(post.data.tour).toMatchObject({
      tourAccentColor: null,
      listingLink: null,
      agentProfile: null,
      tourIntroLogoURL: null,
    });
  });

  it('a password tour: the link asks for the password; after it, only the visible clips are signed, hidden ones stay Not found', async () => {
    const link = (await create({ label: 'Private viewing', hiddenMarkerIds: [markerIds['Main bedroom']] })).data
      .audienceLinkCreate;
    expect(
      (await t.gql(SET_ACCESS, { input: { id: tourId, access: 'PASSWORD', password: 'harbour view' } }, owner.token))
        .errors,
    ).toBeUndefined();
    const asked = await (await getVia(link.token)).text();
    expect(asked).toContain('TOUR_PASSWORD_REQUIRED');
    expect(asked).not.toContain('Harbour Loft');
    const grant = (await t.gql(TOUR_UNLOCK_MUTATION, { tourID: tourId, password: 'harbour view' })).data.tourUnlock
      .access as string;
    const tour = ((await (await getVia(link.token, grant)).json()) as Answer).data!.tour!;
    expect(tour.clips).toHaveLength(2);
    for (const c of tour.clips) {
      expect(c.highURI).toMatch(/\?e=\d+&v=\d+&s=/);
      expect((await fetch(c.highURI)).status).toBe(200);
    }
    // A hidden clip: never signed for the link; its plain URL, or a visible clip's signature on it, is Not found.
    const query = tour.clips[0]!.highURI.split('?')[1];
    for (const i of [1, 2]) {
      const url = `${t.app.services.config.publicUrl}/media/${clipKey(rowId, i, 'high')}`;
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(`${url}?${query}`)).status).toBe(404);
    }
    expect((await beacon({ link: link.token })).status).toBe(403);
    expect((await beacon({ link: link.token, access: grant })).status).toBe(204);
    await t.gql(SET_ACCESS, { input: { id: tourId, access: 'PUBLIC' } }, owner.token);
  });
});
