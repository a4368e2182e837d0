/**
 * Who sees a tour: public link (default), password, company only, across every public path — the GraphQL
 * tour query (POST and the cached GET), clips and posters under /media, the visit beacon (POST /tour-visit and
 * tourViewRecord), node(id). A protected tour's every public URL, tried without the password, gives nothing of it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PLAYER_TOUR_ACCESS_QUERY, PLAYER_TOUR_QUERY, TOUR_UNLOCK_MUTATION } from '@roomwalk/shared/player-documents';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { seedProcessedTour } from './fixtures/tours.js';
import { publicTourCacheOf, publicTourGrantedOf } from '../src/http/public-tour-cache.js';
import { signGrant } from '../src/services/tour-access/grants.js';
import { CLOSE_CODES } from '../src/http/tour-viewer-ws.js';
import {
  connect,
  LEAD_MUTATION,
  leadInput,
  participantToken,
  wsUrl,
  type LiveClient,
} from './fixtures/live-helpers.js';

const SET_ACCESS = 'mutation($input: TourAccessSetInput!) { tourAccessSet(input: $input) { id access } }';
const MARKER_SAVE = 'mutation($input: MarkerSaveInput!) { markerSave(input: $input) { id } }';
const VIEW_RECORD = 'mutation($input: TourViewRecordInput!) { tourViewRecord(input: $input) { success } }';
const NODE = 'query($id: ID!) { node(id: $id) { id ... on Tour { title } } }';
const LINK_CREATE = 'mutation($input: SellerReportLinkCreateInput!) { sellerReportLinkCreate(input: $input) { url } }';
const SHARED_REPORT = 'query($token: String!) { sharedSellerReport(token: $token) { tourTitle } }';

interface PlayerTour {
  title: string;
  thumbnailURL: string;
  clips: Array<{ highURI: string; lowURI: string }>;
  markers: Array<{ name: string }>;
}

const getTour = (t: TestApp, tourID: string) =>
  fetch(`${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_QUERY, variables: JSON.stringify({ tourID }) })}`);
const beacon = (t: TestApp, tourId: string, access?: string) =>
  fetch(`${t.url}/tour-visit`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({
      tourId,
      visitorId: `visitor-${Math.random().toString(36).slice(2, 10)}`,
      secondsSpent: 3,
      ...(access ? { access } : {}),
    }),
  });

describe.each(DB_KINDS)('tour access (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let rowId: string;
  /** Every public URL the tour had while public: the player's query, its media, the share page. */
  let publicTour: PlayerTour;
  /** A seller report link of the tour. */
  let sellerToken: string;

  const setAccess = (access: string, password?: string) =>
    t.gql(SET_ACCESS, { input: { id: tourId, access, ...(password !== undefined ? { password } : {}) } }, owner.token);
  const unlock = (password: string) => t.gql(TOUR_UNLOCK_MUTATION, { tourID: tourId, password });
  const mediaUrls = (tour: PlayerTour) => [tour.thumbnailURL, ...tour.clips.flatMap((c) => [c.highURI, c.lowURI])];
  /** What of the tour a body must never hold before the password. */
  const secrets = () => ['Sunny flat', 'Main bedroom', rowId, ...mediaUrls(publicTour).map((u) => new URL(u).pathname)];

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner);
    tourId = seeded.id;
    rowId = seeded.row.id;
    await t.app.services.db.updateTable('tours').set({ title: 'Sunny flat' }).where('id', '=', rowId).execute();
    expect(
      (await t.gql(MARKER_SAVE, { input: { tourId, name: 'Main bedroom', frameIndex: 1 } }, owner.token)).errors,
    ).toBeUndefined();
    const link = await t.gql(LINK_CREATE, { input: { tourId } }, owner.token);
    sellerToken = decodeURIComponent(String(link.data.sellerReportLinkCreate.url).split('/').pop()!);
    const first = await getTour(t, tourId);
    publicTour = ((await first.json()) as { data: { tour: PlayerTour } }).data.tour;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('a public tour (the default) plays from its cached answer, with media at their plain, cacheable URLs', async () => {
    expect(publicTour.title).toBe('Sunny flat');
    expect(publicTour.markers.map((m) => m.name)).toEqual(['Main bedroom']);
    for (const url of mediaUrls(publicTour)) {
      expect(url).not.toContain('?');
      const r = await fetch(url);
      expect(r.status).toBe(200);
      expect(r.headers.get('cache-control')).toMatch(/^public/);
    }
    expect((await beacon(t, tourId)).status).toBe(204);
  });

  it("refuses a password without one, and a short one, in the owner's words, changing nothing", async () => {
    const none = await setAccess('PASSWORD');
    expect(none.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(none.errors?.[0]?.message).toBe('Choose a password for this tour.');
    const short = await setAccess('PASSWORD', 'abc');
    expect(short.errors?.[0]?.message).toBe('The password needs at least 4 characters.');
    const stored = await t.app.services.db
      .selectFrom('tours')
      .select(['access', 'access_password_hash'])
      .where('id', '=', rowId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ access: 'PUBLIC', access_password_hash: null });
    // Nobody but the owner's company may set it.
    expect(
      (await t.gql(SET_ACCESS, { input: { id: tourId, access: 'PUBLIC' } }, stranger.token)).errors?.[0]?.extensions
        ?.code,
    ).toBe('NOT_FOUND');
  });

  it('a password tour: every public URL without the password gives nothing of it, the cached answer included', async () => {
    // The cached answer is warm; the change must drop it before the mutation answers.
    expect((await getTour(t, tourId)).status).toBe(200);
    const set = await setAccess('PASSWORD', 'open sesame');
    expect(set.data.tourAccessSet.access).toBe('PASSWORD');
    const stored = await t.app.services.db
      .selectFrom('tours')
      .select('access_password_hash')
      .where('id', '=', rowId)
      .executeTakeFirstOrThrow();
    expect(stored.access_password_hash).toMatch(/^\$argon2id\$/);

    const bodies: string[] = [];
    const get = await getTour(t, tourId);
    const getBody = await get.text();
    bodies.push(getBody);
    const gate = JSON.parse(getBody) as {
      data: { tour: null } | null;
      errors: Array<{ extensions: { code: string; gate: Record<string, unknown> } }>;
    };
    expect(gate.errors[0]!.extensions.code).toBe('TOUR_PASSWORD_REQUIRED');
    expect(Object.keys(gate.errors[0]!.extensions.gate).sort()).toEqual(['accentColor', 'companyName', 'logoURL']);
    expect(gate.data?.tour ?? null).toBeNull();
    // The refusal is not kept: asked again, the same.
    bodies.push(await (await getTour(t, tourId)).text());
    const post = await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId });
    expect(post.errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_REQUIRED');
    bodies.push(JSON.stringify(post));
    const forged = await t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access: `9999999999.1.${'A'.repeat(43)}` });
    expect(forged.errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_REQUIRED');
    bodies.push(JSON.stringify(forged));
    bodies.push(JSON.stringify(await t.gql(NODE, { id: tourId })));
    // Every file the tour had while public: Not found, whole or by range, GET or HEAD.
    for (const url of mediaUrls(publicTour)) {
      const r = await fetch(url);
      expect(r.status).toBe(404);
      bodies.push(await r.text());
      expect((await fetch(url, { headers: { range: 'bytes=0-10' } })).status).toBe(404);
      expect((await fetch(url, { method: 'HEAD' })).status).toBe(404);
      // A made-up signature is no signature.
      expect((await fetch(`${url}?e=9999999999&v=1&s=${'A'.repeat(43)}`)).status).toBe(404);
    }
    // The visit beacon, both ways, records nothing.
    const visits = async () =>
      Number(
        (
          (
            await t.app.services.database.executeSql('SELECT count(*) AS n FROM view_events WHERE tour_id = $1', [
              rowId,
            ])
          ).rows[0] as { n: string }
        ).n,
      );
    const visitsBefore = await visits();
    const b = await beacon(t, tourId);
    expect(b.status).toBe(403);
    bodies.push(await b.text());
    const vr = await t.gql(VIEW_RECORD, {
      input: { tourId, visitorId: 'visitor-abcdefgh', secondsSpent: 1, roomsReached: 0 },
    });
    expect(vr.errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_REQUIRED');
    expect(await visits()).toBe(visitsBefore);
    // Nothing of the tour in any answer: title, room names, file paths.
    for (const body of bodies) for (const secret of secrets()) expect(body).not.toContain(secret);
  });

  it('the right password gives a grant for the session: the tour, signed media, counted visits; a wrong one does not', async () => {
    const wrong = await unlock('open says me');
    expect(wrong.errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_WRONG');
    expect(wrong.errors?.[0]?.message).toBe('That password is not right. Please try again.');
    const right = await unlock('open sesame');
    const grant = right.data.tourUnlock.access as string;
    expect(new Date(right.data.tourUnlock.expiresAt).getTime()).toBeGreaterThan(Date.now());
    const tour = (await t.gql<{ tour: PlayerTour }>(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access: grant })).data
      .tour;
    expect(tour.title).toBe('Sunny flat');
    for (const url of mediaUrls(tour)) {
      expect(url).toMatch(/\?e=\d+&v=\d+&s=/);
      const r = await fetch(url, { headers: { range: 'bytes=0-9' } });
      expect(r.status).toBe(206);
      expect(r.headers.get('cache-control')).toBe('private, max-age=3600');
      // The signature is for its own key only.
      const other = mediaUrls(tour).find((u) => u !== url)!;
      expect((await fetch(`${other.split('?')[0]}?${url.split('?')[1]}`)).status).toBe(404);
    }
    expect((await beacon(t, tourId, grant)).status).toBe(204);
    // The player's GET with its grant: answered without GraphQL, byte for byte what GraphQL answers, kept by no cache.
    const viaGraphql = JSON.stringify(
      await t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access: grant }).then((r) => ({ data: r.data })),
    );
    const granted = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_ACCESS_QUERY, variables: JSON.stringify({ tourID: tourId, access: grant }) })}`,
      {
        headers: { origin: 'https://listing.example' },
      },
    );
    expect(granted.headers.get('cache-control')).toBe('private, no-store');
    expect(granted.headers.get('access-control-allow-origin')).toBe('*');
    expect(granted.headers.get('etag')).toBeNull();
    expect(await granted.text()).toBe(viaGraphql);
    expect(publicTourCacheOf(t.app.services)!.size).toBe(0);
    // Kept on this node for every grant holder: another browser's grant is served it without the database.
    expect(publicTourGrantedOf(t.app.services)!.size).toBe(1);
    const grantedGet = (access: string) =>
      fetch(
        `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_ACCESS_QUERY, variables: JSON.stringify({ tourID: tourId, access }) })}`,
      );
    const [, version] = grant.split('.');
    // Another visitor's grant: the password given a minute earlier.
    const other = signGrant(t.app.services, rowId, Number(version), Date.now() - 60_000).token;
    expect(other).not.toBe(grant);
    const statements = vi.spyOn(t.app.services.database, 'executeSql');
    try {
      const again = await grantedGet(other);
      expect(again.headers.get('cache-control')).toBe('private, no-store');
      expect(await again.text()).toBe(viaGraphql);
      // This request's statements: the app's job workers poll their queues through the same database meanwhile.
      const ofTheRequest = statements.mock.calls.filter(([text]) => !/\bpgboss\./.test(String(text)));
      expect(ofTheRequest).toEqual([]);
    } finally {
      statements.mockRestore();
    }
    // The kept answer goes only to a grant that verifies: a forged one at the current version, an expired one and
    // the grant of another tour get the gate and nothing of the tour.
    const expired = `${Math.floor(Date.now() / 1000) - 1}.${grant.split('.').slice(1).join('.')}`;
    for (const bad of [`9999999999.${version}.${'A'.repeat(43)}`, expired, `${grant}x`]) {
      const body = await (await grantedGet(bad)).text();
      expect(body).toContain('TOUR_PASSWORD_REQUIRED');
      for (const secret of secrets()) expect(body).not.toContain(secret);
    }
    expect((await t.gql(SHARED_REPORT, { token: sellerToken })).data.sharedSellerReport.tourTitle).toBe('Sunny flat');
    // The owner sees the tour without a grant (the console, the edit player).
    expect((await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId }, owner.token)).data.tour.title).toBe('Sunny flat');

    // A new password revokes the old grant and every signed URL at once.
    await setAccess('PASSWORD', 'new secret');
    expect(
      (await t.gql(PLAYER_TOUR_ACCESS_QUERY, { tourID: tourId, access: grant })).errors?.[0]?.extensions?.code,
    ).toBe('TOUR_PASSWORD_REQUIRED');
    const stale = await fetch(
      `${t.url}/query?${new URLSearchParams({ query: PLAYER_TOUR_ACCESS_QUERY, variables: JSON.stringify({ tourID: tourId, access: grant }) })}`,
    );
    expect(stale.headers.get('access-control-allow-origin')).toBe('*');
    const staleBody = await stale.text();
    expect(staleBody).toContain('TOUR_PASSWORD_REQUIRED');
    for (const secret of secrets()) expect(staleBody).not.toContain(secret);
    for (const url of mediaUrls(tour)) expect((await fetch(url)).status).toBe(404);
    expect((await beacon(t, tourId, grant)).status).toBe(403);
    expect((await unlock('open sesame')).errors?.[0]?.extensions?.code).toBe('TOUR_PASSWORD_WRONG');
  });

  it('wrong guesses are rate-limited per address; a right password does not spend the budget', async () => {
    for (let i = 0; i < 3; i++) expect((await unlock('new secret')).data.tourUnlock.access).toBeTruthy();
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++)
      limited = (await unlock(`guess ${i}`)).errors?.[0]?.extensions?.code === 'RATE_LIMITED';
    expect(limited).toBe(true);
    // Even the right password waits now: guesses cannot be told apart from it.
    expect((await unlock('new secret')).errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });

  it('company only: members see it, anyone else (signed in elsewhere or not) gets the members-only gate', async () => {
    await setAccess('COMPANY');
    const anonymous = await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('TOUR_MEMBERS_ONLY');
    const get = await (await getTour(t, tourId)).text();
    expect(get).toContain('TOUR_MEMBERS_ONLY');
    const other = await t.gql(PLAYER_TOUR_QUERY, { tourID: tourId }, stranger.token);
    expect(other.errors?.[0]?.extensions?.code).toBe('TOUR_MEMBERS_ONLY');
    const teammate = await seedUser(t.app, { companyId: owner.company.id, role: 'USER' });
    const seen = (await t.gql<{ tour: PlayerTour }>(PLAYER_TOUR_QUERY, { tourID: tourId }, teammate.token)).data.tour;
    expect(seen.title).toBe('Sunny flat');
    for (const url of mediaUrls(seen)) expect((await fetch(url)).status).toBe(200);
    for (const url of mediaUrls(publicTour)) expect((await fetch(url)).status).toBe(404);
    expect((await unlock('new secret')).errors?.[0]?.extensions?.code).toBe('TOUR_MEMBERS_ONLY');
    expect((await beacon(t, tourId)).status).toBe(403);
    // The seller report opens for members only; a password tour's stays open to its link (tested above it was made).
    const shared = await t.gql(SHARED_REPORT, { token: sellerToken });
    expect(shared.errors?.[0]?.extensions?.code).toBe('TOUR_MEMBERS_ONLY');
    expect((await t.gql(SHARED_REPORT, { token: sellerToken }, owner.token)).data.sharedSellerReport.tourTitle).toBe(
      'Sunny flat',
    );
    for (const body of [JSON.stringify(shared), get, JSON.stringify(anonymous), JSON.stringify(other)])
      for (const secret of secrets()) expect(body).not.toContain(secret);
  });

  it('back to a public link: the cached answer and the plain media URLs work again', async () => {
    await setAccess('PUBLIC');
    const r = await getTour(t, tourId);
    expect(((await r.json()) as { data: { tour: PlayerTour } }).data.tour.title).toBe('Sunny flat');
    expect(r.headers.get('etag')).toBeTruthy();
    for (const url of mediaUrls(publicTour)) expect((await fetch(url)).status).toBe(200);
    const stored = await t.app.services.db
      .selectFrom('tours')
      .select('access_password_hash')
      .where('id', '=', rowId)
      .executeTakeFirstOrThrow();
    expect(stored.access_password_hash).toBeNull();
  });
});

/**
 * The two public writes about a tour beside the beacon: the lead form (tourLeadCreate) and the live viewing socket obey
 * the tour's access like the tour query, from any address, whatever a hostile caller sends as its grant.
 */
describe.each(DB_KINDS)('leads and the live viewing socket obey tour access (%s)', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  let stranger: SeededUser;
  let tourId: string;
  let rowId: string;
  const sockets: LiveClient[] = [];
  const setAccess = (access: string, password?: string) =>
    t.gql(SET_ACCESS, { input: { id: tourId, access, ...(password !== undefined ? { password } : {}) } }, owner.token);
  /** A lead from one address (TRUST_PROXY is on: the forwarded address is the caller's). */
  const lead = async (ip: string, over: Record<string, unknown> = {}, token?: string) => {
    const r = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': ip,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: LEAD_MUTATION, variables: { input: leadInput(tourId, over) } }),
    });
    return (await r.json()) as {
      data: {
        tourLeadCreate: { tourLead: { id: string }; viewingSessionRequest: { signalingToken: string } | null };
      } | null;
      errors?: Array<{ message: string; extensions: { code: string } }>;
    };
  };
  const leads = async () =>
    Number(
      (
        (await t.app.services.database.executeSql('SELECT count(*) AS n FROM tour_leads WHERE tour_id = $1', [rowId]))
          .rows[0] as { n: string }
      ).n,
    );
  const socket = (q: Record<string, string>) => {
    const c = connect(wsUrl(t.url, q));
    sockets.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { ICE_SERVERS: '[]', TRUST_PROXY: '127.0.0.1' } as never);
    owner = await seedUser(t.app, { plan: 'pro' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const seeded = await seedProcessedTour(t, owner);
    tourId = seeded.id;
    rowId = seeded.row.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  it('a password tour takes no lead without a live grant, from any address, and keeps no row', async () => {
    // While public, a visitor's live viewing lead opens a socket that joins.
    const before = await lead('198.51.100.1');
    const publicToken = before.data!.tourLeadCreate.viewingSessionRequest!.signalingToken;
    await socket({ tourId, token: publicToken }).next((m) => m.type === 'roomwalk_welcome', 'welcome while public');

    await setAccess('PASSWORD', 'open sesame');
    const count = await leads();
    const hostile = [
      '',
      'null',
      `9999999999.1.${'A'.repeat(43)}`,
      `9999999999.0.${'A'.repeat(43)}.x`,
      'x'.repeat(5000),
      '../../etc/passwd',
      '{"$ne":null}',
    ];
    for (const [i, access] of [undefined, ...hostile].entries()) {
      const r = await lead(`198.51.100.${10 + i}`, access === undefined ? {} : { access });
      expect(r.errors?.[0]?.extensions.code).toBe('TOUR_PASSWORD_REQUIRED');
      expect(r.errors?.[0]?.message).toBe('This tour is protected by a password.');
      expect(r.data?.tourLeadCreate ?? null).toBeNull();
    }
    // A member of another company is a stranger to this tour.
    expect((await lead('198.51.100.40', {}, stranger.token)).errors?.[0]?.extensions.code).toBe(
      'TOUR_PASSWORD_REQUIRED',
    );
    expect(await leads()).toBe(count);
    // No viewing session was opened either.
    const sessions = await t.app.services.db
      .selectFrom('viewing_sessions')
      .select('id')
      .where('tour_id', '=', rowId)
      .execute();
    expect(sessions).toHaveLength(1);

    // The token handed out while the tour was public no longer joins: without a grant, with a forged one.
    for (const access of [undefined, `9999999999.1.${'A'.repeat(43)}`, 'x'.repeat(2000)]) {
      const s = socket({ tourId, token: publicToken, ...(access ? { access } : {}) });
      expect(await s.closed).toEqual({ code: CLOSE_CODES.forbidden, reason: 'This tour is protected by a password.' });
      expect(s.messages.filter((m) => m.type === 'roomwalk_welcome')).toEqual([]);
    }

    // With the password's grant: the lead is taken and its socket joins.
    const grant = (await t.gql(TOUR_UNLOCK_MUTATION, { tourID: tourId, password: 'open sesame' })).data.tourUnlock
      .access as string;
    const ok = await lead('198.51.100.50', { access: grant });
    expect(ok.errors).toBeUndefined();
    const token = ok.data!.tourLeadCreate.viewingSessionRequest!.signalingToken;
    await socket({ tourId, token, access: grant }).next((m) => m.type === 'roomwalk_welcome', 'welcome with a grant');
    expect(await leads()).toBe(count + 1);
    // A new password voids the grant: the lead and the socket are refused again.
    await setAccess('PASSWORD', 'another one');
    expect((await lead('198.51.100.51', { access: grant })).errors?.[0]?.extensions.code).toBe(
      'TOUR_PASSWORD_REQUIRED',
    );
    expect((await socket({ tourId, token, access: grant }).closed).code).toBe(CLOSE_CODES.forbidden);
  });

  it('a company-only tour takes leads from its members only; no visitor socket joins', async () => {
    await setAccess('COMPANY');
    const count = await leads();
    const anonymous = await lead('203.0.113.7');
    expect(anonymous.errors?.[0]?.extensions.code).toBe('TOUR_MEMBERS_ONLY');
    expect((await lead('203.0.113.8', {}, stranger.token)).errors?.[0]?.extensions.code).toBe('TOUR_MEMBERS_ONLY');
    expect(await leads()).toBe(count);
    const member = await lead('203.0.113.9', { leadType: 'CONTACT' }, owner.token);
    expect(member.errors).toBeUndefined();
    expect(await leads()).toBe(count + 1);
    // A viewer's token (signed for this tour, as a lead would have had) is refused: the tour has no visitors.
    const session = await t.app.services.db
      .selectFrom('viewing_sessions')
      .select('id')
      .where('tour_id', '=', rowId)
      .executeTakeFirstOrThrow();
    const token = await participantToken(t.app, rowId, session.id, 'viewer-forged1');
    const s = socket({ tourId, token });
    expect(await s.closed).toEqual({
      code: CLOSE_CODES.forbidden,
      reason: 'Only members of the company can view this tour. Please sign in to continue.',
    });
    // Back to public: the same token joins again.
    await setAccess('PUBLIC');
    await socket({ tourId, token }).next((m) => m.type === 'roomwalk_welcome', 'welcome once public again');
  });
});
