/**
 * Audience links attacked from outside (docs/access-and-privacy.md): guessed and malformed tokens from several client
 * addresses on every public path (GraphQL POST, the player's GET, the visit beacon), a link of one tour on another,
 * hand-written documents that try to get a link's answer into the public cache or a hidden room out of a link's answer
 * (its lead gate's room name included), and another company managing a link. Every refusal names nothing of the tour
 * and writes nothing.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PLAYER_TOUR_LINK_QUERY, PLAYER_TOUR_QUERY } from '@roomwalk/shared/player-documents';
import { setClockOffset } from '../../src/core/clock.js';
import { publicTourCacheOf } from '../../src/http/public-tour-cache.js';
import { seedProcessedTour } from '../fixtures/tours.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLIENT_ADDRESSES, gqlPost, post, Tally } from './harness.js';

const CREATE = `mutation($input: AudienceLinkCreateInput!) { audienceLinkCreate(input: $input) { id token status } }`;
const REVOKE = 'mutation($id: ID!) { audienceLinkRevoke(id: $id) { id status } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const GATE_SET = 'mutation($input: TourLeadGateSetInput!) { tourLeadGateSet(input: $input) { id } }';
const DAY = 86_400_000;

describe.each(DB_KINDS)('hostile: audience links (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let rowId: string;
  const markerIds: Record<string, string> = {};
  const tally = new Tally('audience links');
  /** What no refusal may show: the tour's title, its rooms, its files. */
  const secrets = () => ['Harbour Loft', 'Main bedroom', 'Kitchen', 'Garden', `tours/${rowId}`, 'thumbnail'];

  const getLink = (link: unknown, from: string = CLIENT_ADDRESSES[0], tour = tourId) =>
    new Promise<{ status: number; text: string; cacheControl: string | undefined }>((resolve, reject) => {
      const u = new URL(
        `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_LINK_QUERY, variables: JSON.stringify({ tourID: tour, link }) })}`,
      );
      // node's fetch cannot pick a source address; http.get can.
      import('node:http').then(({ get }) =>
        get({ host: u.hostname, port: u.port, path: u.pathname + u.search, localAddress: from }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString(),
              cacheControl: res.headers['cache-control'],
            }),
          );
        }).on('error', reject),
      );
    });
  const beacon = (link: unknown, from: string, extra: Record<string, unknown> = {}) =>
    post(
      `${t.url}/tour-visit`,
      JSON.stringify({
        tourId,
        visitorId: `visitor-${randomBytes(5).toString('hex')}`,
        secondsSpent: 3,
        link,
        ...extra,
      }),
      { from, headers: { 'content-type': 'text/plain' } },
    );
  const visits = async () =>
    Number(
      (
        await t.app.services.db
          .selectFrom('view_events')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tour_id', '=', rowId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const create = async (input: Record<string, unknown>) => {
    const r = await t.gql(CREATE, { input: { tourId, ...input } }, owner.token);
    expect(r.errors).toBeUndefined();
    return r.data.audienceLinkCreate as { id: string; token: string };
  };
  const leaks = (text: string) => secrets().filter((s) => text.includes(s));

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner, 4); // clips of 36 frames: 0–35, 36–71, 72–107, 108–143
    tourId = seeded.id;
    rowId = seeded.row.id;
    await t.app.services.db.updateTable('tours').set({ title: 'Harbour Loft' }).where('id', '=', rowId).execute();
    for (const [name, frameIndex] of [
      ['Hall', 0],
      ['Main bedroom', 40],
      ['Kitchen', 80],
      ['Garden', 120],
    ] as const) {
      const r = await t.gql(MARKER_SAVE, { input: { tourId, name, frameIndex } }, owner.token);
      markerIds[name] = r.data.markerSave.id;
    }
  });
  afterEach(() => setClockOffset(t.app.services, 0));
  afterAll(async () => {
    tally.print();
    await t?.stop();
  });

  it('guessed and malformed tokens, from three addresses, on GraphQL, GET and the beacon: refused, nothing of the tour, no visit', async () => {
    const before = await visits();
    const real = await create({ label: 'Real one' });
    const guesses: unknown[] = [
      ...Array.from({ length: 12 }, () => randomBytes(24).toString('base64url')),
      `${real.token.slice(0, -1)}${real.token.endsWith('A') ? 'B' : 'A'}`, // one character off
      real.token.toLowerCase() === real.token ? real.token.toUpperCase() : real.token.toLowerCase(),
      `${real.token} `,
      `${real.token}%00`,
      "' OR '1'='1",
      '%',
      '_'.repeat(32),
      'A'.repeat(5000),
      '',
      12345,
      { $ne: null },
      [real.token],
    ];
    for (const [i, link] of guesses.entries()) {
      const from = CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length]!;
      const got = await getLink(link, from);
      const body = JSON.parse(got.text) as { data?: { tour: unknown } | null; errors?: Array<{ extensions?: any }> };
      const code = body.errors?.[0]?.extensions?.code;
      tally.record(
        `GET link=${JSON.stringify(link).slice(0, 40)}`,
        (body.data?.tour ?? null) === null &&
          ['AUDIENCE_LINK_UNAVAILABLE', 'BAD_USER_INPUT', 'GRAPHQL_VALIDATION_FAILED'].includes(code) &&
          !got.text.includes('"stack"') &&
          leaks(got.text).length === 0,
        `${got.status} ${got.text.slice(0, 200)}`,
      );
      const posted = await gqlPost(t.url, PLAYER_TOUR_LINK_QUERY, { tourID: tourId, link }, from);
      tally.record(
        `POST link=${JSON.stringify(link).slice(0, 40)}`,
        (posted.json?.data?.tour ?? null) === null &&
          !!posted.json?.errors?.length &&
          !posted.text.includes('"stack"') &&
          leaks(posted.text).length === 0,
        `${posted.status} ${posted.text.slice(0, 200)}`,
      );
      const b = await beacon(link, from);
      tally.record(
        `beacon link=${JSON.stringify(link).slice(0, 40)}`,
        b.status >= 400 && b.status < 500,
        `${b.status}`,
      );
    }
    expect(tally.failures).toEqual([]);
    expect(await visits()).toBe(before);
    // Nothing a guess asked went into the node's cache.
    expect(publicTourCacheOf(t.app.services)!.size).toBe(0);
  });

  it("an expired or revoked link, on every path and from every address, gives nothing: the clock moved, another company's revoke refused", async () => {
    const expiring = await create({ label: 'Open day', expiresAt: new Date(Date.now() + DAY).toISOString() });
    const revoked = await create({ label: 'Seller' });
    // Another company cannot revoke (or learn of) the link; anonymous cannot; a tour id is not a link id.
    for (const [id, token, code] of [
      [revoked.id, stranger.token, 'NOT_FOUND'],
      [revoked.id, undefined, 'UNAUTHENTICATED'],
      [tourId, owner.token, 'NOT_FOUND'],
      ['audlink_../../etc/passwd', owner.token, 'NOT_FOUND'],
    ] as const) {
      const r = await t.gql(REVOKE, { id }, token);
      expect(r.errors?.[0]?.extensions?.code).toBe(code);
      expect(JSON.stringify(r)).not.toContain('stack');
    }
    const row = await t.app.services.db
      .selectFrom('audience_links')
      .select('revoked_at')
      .where('id', '=', revoked.id.replace(/^audlink_/, ''))
      .executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
    expect((await t.gql(REVOKE, { id: revoked.id }, owner.token)).data.audienceLinkRevoke.status).toBe('REVOKED');
    setClockOffset(t.app.services, DAY + 60_000);
    const before = await visits();
    for (const from of CLIENT_ADDRESSES)
      for (const link of [expiring.token, revoked.token]) {
        const got = await getLink(link, from);
        expect(got.text).toContain('AUDIENCE_LINK_UNAVAILABLE');
        expect(leaks(got.text)).toEqual([]);
        const posted = await gqlPost(
          t.url,
          'query($id: ID!, $link: String) { tour(tourID: $id, link: $link) { title clips { highURI } markers { name } } }',
          { id: tourId, link },
          from,
        );
        expect(posted.json.errors[0].extensions.code).toBe('AUDIENCE_LINK_UNAVAILABLE');
        expect(leaks(posted.text)).toEqual([]);
        expect((await beacon(link, from, { segments: [{ room: 'Hall', seconds: 2 }] })).status).toBe(410);
      }
    expect(await visits()).toBe(before);
  });

  it('no document puts a link answer in the public cache, and the cache never answers a link', async () => {
    const hiding = await create({ label: 'No bedroom', hiddenMarkerIds: [markerIds['Main bedroom']] });
    const cache = publicTourCacheOf(t.app.services)!;
    // Hand-written documents asking the tour through a link: aliased, a literal id, the link as a literal.
    const docs = [
      `query($tourID: ID!, $link: String) { t: tour(tourID: $tourID, link: $link) { markers { name } clips { highURI } } }`,
      `query { tour(tourID: "${tourId}", link: "${hiding.token}") { markers { name } } }`,
      `query($tourID: ID!) { tour(link: "${hiding.token}", tourID: $tourID) { markers { name } } }`,
      `query Q($tourID: ID!, $link: String = "${hiding.token}") { tour(tourID: $tourID, link: $link) { markers { name } } }`,
    ];
    for (const query of docs) {
      const res = await fetch(
        `${t.url}/query?${new URLSearchParams({ query, variables: JSON.stringify({ tourID: tourId, link: hiding.token }) })}`,
      );
      const text = await res.text();
      expect(text).not.toContain('Main bedroom');
      expect(res.headers.get('cache-control') ?? '').not.toContain('public');
    }
    expect(cache.size).toBe(0);
    // The tour's own answer, cached, still lists every room; the link's GET after it still hides the bedroom.
    const plain = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId }) })}`,
    );
    expect(await plain.text()).toContain('Main bedroom');
    const viaLink = await getLink(hiding.token);
    expect(viaLink.cacheControl).toBe('private, no-store');
    expect(viaLink.text).not.toContain('Main bedroom');
    // The player's own document with a link variable it does not declare is the tour's own answer, not a link's:
    // it cannot carry a link's view into the cache.
    const smuggled = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID: tourId, link: hiding.token }) })}`,
    );
    expect(await smuggled.text()).toContain('Main bedroom');
    const again = await getLink(hiding.token, CLIENT_ADDRESSES[2]);
    expect(again.text).not.toContain('Main bedroom');
  });

  it('a link that hides the lead gate’s room does not name it (Tour.leadGate.roomName) through the link', async () => {
    // The tour asks for details before the bedroom; a link hides the bedroom.
    const gate = await t.gql(
      GATE_SET,
      { input: { id: tourId, mode: 'ROOM', markerId: markerIds['Main bedroom'], approval: false } },
      owner.token,
    );
    expect(gate.errors).toBeUndefined();
    try {
      const hiding = await create({ label: 'No bedroom, gated', hiddenMarkerIds: [markerIds['Main bedroom']] });
      const doc =
        'query($id: ID!, $link: String) { tour(tourID: $id, link: $link) { markers { name } clips { index } leadGate { roomName seconds } } }';
      const posted = await gqlPost(t.url, doc, { id: tourId, link: hiding.token }, CLIENT_ADDRESSES[1]);
      expect(posted.json.errors).toBeUndefined();
      expect(posted.json.data.tour.markers.map((m: { name: string }) => m.name)).not.toContain('Main bedroom');
      expect(posted.text).not.toContain('Main bedroom');
      // The form names the first room the link shows after the gate.
      expect(posted.json.data.tour.leadGate).toEqual({ roomName: 'Kitchen', seconds: null });
      const got = await getLink(hiding.token, CLIENT_ADDRESSES[2]);
      expect(got.text).not.toContain('Main bedroom');
    } finally {
      await t.gql(GATE_SET, { input: { id: tourId, mode: 'OFF', approval: false } }, owner.token);
    }
  });

  // An unknown token on a company-only tour answered the owner's name, e-mail and phone (AUDIENCE_LINK_UNAVAILABLE's
  // contact), which the tour's own gate never shows.
  it("a made-up link on a company-only tour shows no more than the tour's own gate: no owner contact", async () => {
    await t.app.services.db
      .updateTable('user_profiles')
      .set({ contact_number: '+44 7700 900123' })
      .where('user_id', '=', owner.user.id)
      .execute();
    const set = await t.gql(
      'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }',
      { input: { id: tourId, access: 'COMPANY' } },
      owner.token,
    );
    expect(set.errors).toBeUndefined();
    try {
      const own = await gqlPost(t.url, PLAYER_TOUR_QUERY, { tourID: tourId }, CLIENT_ADDRESSES[1]);
      expect(own.json.errors[0].extensions.code).toBe('TOUR_MEMBERS_ONLY');
      expect(own.text).not.toContain(owner.user.username);
      const made = await getLink(randomBytes(24).toString('base64url'), CLIENT_ADDRESSES[2]);
      expect(made.text).toContain('AUDIENCE_LINK_UNAVAILABLE');
      expect(made.text).not.toContain(owner.user.username);
      expect(made.text).not.toContain('900123');
    } finally {
      await t.gql(
        'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }',
        { input: { id: tourId, access: 'PUBLIC' } },
        owner.token,
      );
    }
  });

  it("a link without the tour's form plays its clips past the tour's gate; removing link= gets the tour's cut, files 404", async () => {
    const gate = await t.gql(
      GATE_SET,
      { input: { id: tourId, mode: 'ROOM', markerId: markerIds.Kitchen, approval: true } },
      owner.token,
    );
    expect(gate.errors).toBeUndefined();
    try {
      const seller = await create({ label: 'Seller, no form', leadGate: { mode: 'OFF', approval: false } });
      const doc =
        'query($id: ID!, $link: String) { tour(tourID: $id, link: $link) { clips { index highURI lowURI } } }';
      const viaLink = await gqlPost(t.url, doc, { id: tourId, link: seller.token }, CLIENT_ADDRESSES[1]);
      const clips = viaLink.json.data.tour.clips as Array<{ index: number; highURI: string; lowURI: string }>;
      expect(clips).toHaveLength(4);
      // Every clip the link lists plays (those past the tour's gate come signed).
      for (const c of clips) expect((await fetch(c.highURI, { headers: { range: 'bytes=0-9' } })).status).toBe(206);
      // The same visitor without link=: the tour's own gate, and its files past the gate unsigned are Not found.
      const own = await gqlPost(
        t.url,
        'query($id: ID!) { tour(tourID: $id) { clips { index } } }',
        { id: tourId },
        CLIENT_ADDRESSES[1],
      );
      expect((own.json.data.tour.clips as unknown[]).length).toBe(2);
      for (const c of clips.slice(2)) expect((await fetch(c.highURI.split('?')[0]!)).status).toBe(404);
    } finally {
      await t.gql(GATE_SET, { input: { id: tourId, mode: 'OFF', approval: false } }, owner.token);
    }
  });

  it("one tour's link opens no other tour, and its visits cannot be written to another tour", async () => {
    const mine = await create({ label: 'Mine' });
    const other = await seedProcessedTour(t, stranger, 1);
    const got = await getLink(mine.token, CLIENT_ADDRESSES[1], other.id);
    expect(got.text).toContain('AUDIENCE_LINK_UNAVAILABLE');
    const b = await post(
      `${t.url}/tour-visit`,
      JSON.stringify({ tourId: other.id, visitorId: 'visitor-crosslink', secondsSpent: 2, link: mine.token }),
      { from: CLIENT_ADDRESSES[2], headers: { 'content-type': 'text/plain' } },
    );
    expect(b.status).toBe(410);
    const rows = await t.app.services.db
      .selectFrom('view_events')
      .select('id')
      .where('tour_id', '=', other.row.id)
      .execute();
    expect(rows).toEqual([]);
  });
});
