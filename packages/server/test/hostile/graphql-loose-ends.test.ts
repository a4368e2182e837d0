/**
 * The GraphQL-level loose ends: `node(id)` resolves every id-carrying type for whoever may read it
 * and null for anyone else (as for an unknown id: no existence leak); out-of-range paging arguments, a multipart
 * request with more files than allowed and an array-batched body answer BAD_USER_INPUT with a clear message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { seedProcessedTour } from '../fixtures/tours.js';
import { pngImage } from '../helpers/accounts.js';
import { CLIENT_ADDRESSES, Tally, post } from './harness.js';

const NODE = 'query($id: ID!) { node(id: $id) { __typename id } }';

describe('GraphQL loose ends', () => {
  let t: TestApp;
  let owner: SeededUser;
  let member: SeededUser;
  let stranger: SeededUser;
  const ids: Record<string, string> = {};
  const tally = new Tally('GraphQL loose ends');

  beforeAll(async () => {
    t = await startTestApp('pglite');
    const { db } = t.app.services;
    owner = await seedUser(t.app, { plan: 'pro' });
    member = await seedUser(t.app, { companyId: owner.company.id, role: 'USER' });
    stranger = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner, 1);
    const clip = await db.selectFrom('clips').select('id').where('tour_id', '=', tour.row.id).executeTakeFirstOrThrow();
    const marker = await db
      .insertInto('markers')
      .values({ tour_id: tour.row.id, name: 'Kitchen', frame_index: 3 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const invite = await db
      .insertInto('team_invites')
      .values({
        company_id: owner.company.id,
        email: 'invitee@example.com',
        token_hash: 'x'.repeat(64),
        invited_by: owner.user.id,
        expires_at: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const profile = await db
      .selectFrom('user_profiles')
      .select('id')
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow();
    const reel = await db
      .insertInto('reels')
      .values({ tour_id: tour.row.id, created_by: owner.user.id, key: 'reel-1', seed: 7 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const shot = await db
      .insertInto('shots')
      .values({ tour_id: tour.row.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const lead = await db
      .insertInto('tour_leads')
      .values({ tour_id: tour.row.id, name: 'Lerato', email: 'lead@example.com', lead_type: 'CONTACT' })
      .returning('id')
      .executeTakeFirstOrThrow();
    Object.assign(ids, {
      Tour: tour.id,
      User: owner.userId,
      Company: `company_${owner.company.id}`,
      UserProfile: `profile_${profile.id}`,
      TeamInvite: `invite_${invite.id}`,
      Marker: `marker_${marker.id}`,
      Clip: `clip_${clip.id}`,
      Reel: `reel_${reel.id}`,
      Shot: `shot_${shot.id}`,
      TourLead: `lead_${lead.id}`,
    });
  });
  afterAll(async () => {
    tally.print();
    await t?.stop();
  });

  it('node(id) resolves each type for its company and answers null (no error) to others and anonymous callers', async () => {
    for (const [typename, id] of Object.entries(ids)) {
      const mine = await t.gql(NODE, { id }, owner.token);
      expect(mine.errors, `${typename} for its owner`).toBeUndefined();
      expect(mine.data.node, typename).toEqual({ __typename: typename, id });
      for (const [who, token] of [
        ['stranger', stranger.token],
        ['anonymous', undefined],
      ] as const) {
        const other = await t.gql(NODE, { id }, token);
        const ok = other.errors === undefined && other.data.node === null;
        tally.record(`node ${typename} by ${who}`, ok, JSON.stringify(other));
        expect(other.errors, `${typename} for ${who}`).toBeUndefined();
        expect(other.data.node, `${typename} for ${who}`).toBeNull();
      }
    }
    // The same answer as for an id that does not exist, and a malformed id is NOT_FOUND.
    expect(
      (await t.gql(NODE, { id: 'marker_00000000-0000-4000-8000-000000000000' }, owner.token)).data.node,
    ).toBeNull();
    expect((await t.gql(NODE, { id: 'marker_nope' }, owner.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });

  it("node(id) reads fields through the resolved type; leads only for the tour's owner or an admin, invites only for company admins", async () => {
    const m = await t.gql(
      `query($id: ID!) { node(id: $id) { ... on Marker { name } } }`,
      { id: ids.Marker },
      owner.token,
    );
    expect(m.data.node).toEqual({ name: 'Kitchen' });
    const LEAD = `query($id: ID!) { node(id: $id) { ... on TourLead { name email leadType } } }`;
    const l = await t.gql(LEAD, { id: ids.TourLead }, owner.token);
    expect(l.data.node).toEqual({ name: 'Lerato', email: 'lead@example.com', leadType: 'CONTACT' });
    // A standard member sees the leads of the tours they own only (docs/access-and-privacy.md), as for an unknown id.
    const ofColleague = await t.gql(LEAD, { id: ids.TourLead }, member.token);
    expect(ofColleague.errors).toBeUndefined();
    expect(ofColleague.data.node).toBeNull();
    const byAdmin = await t.gql(
      `query($id: ID!) { node(id: $id) { ... on TeamInvite { email } } }`,
      { id: ids.TeamInvite },
      owner.token,
    );
    expect(byAdmin.data.node).toEqual({ email: 'invitee@example.com' });
    const byMember = await t.gql(
      `query($id: ID!) { node(id: $id) { ... on TeamInvite { email } } }`,
      { id: ids.TeamInvite },
      member.token,
    );
    expect(byMember.errors).toBeUndefined();
    expect(byMember.data.node).toBeNull();
    tally.record('invite by non-admin member', byMember.data.node === null);
  });

  it('out-of-range paging arguments answer BAD_USER_INPUT, not INTERNAL', async () => {
    for (const args of ['last: -5', 'first: -1']) {
      const r = await t.gql(`{ tours(${args}) { edges { node { id } } } }`, {}, owner.token);
      const code = r.errors?.[0]?.extensions?.code;
      tally.record(`tours(${args})`, code === ERROR_CODES.BAD_USER_INPUT, JSON.stringify(r.errors));
      expect(code, args).toBe(ERROR_CODES.BAD_USER_INPUT);
      expect(r.errors?.[0]?.message, args).toMatch(/^Argument "(first|last)"/);
    }
  });

  it('a multipart request with more files than allowed answers BAD_USER_INPUT at once', async () => {
    const png = await pngImage();
    const form = new FormData();
    form.set(
      'operations',
      JSON.stringify({
        query: 'mutation($input: TourUpdateThumbnailInput!) { tourUpdateThumbnail(input: $input) { id } }',
        variables: { input: { id: ids.Tour, thumbnailURL: null }, a: null, b: null },
      }),
    );
    form.set('map', JSON.stringify({ 0: ['variables.input.thumbnailURL'], 1: ['variables.a'], 2: ['variables.b'] }));
    for (const i of [0, 1, 2]) form.set(String(i), new Blob([new Uint8Array(png)], { type: 'image/png' }), `t${i}.png`);
    const res = await fetch(`${t.url}/query`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as { errors?: Array<{ message: string; extensions?: { code?: string } }> };
    tally.record(
      '3-file upload',
      body.errors?.[0]?.extensions?.code === ERROR_CODES.BAD_USER_INPUT,
      JSON.stringify(body),
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(body.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    expect(body.errors?.[0]?.message).toBe('Send at most 2 files with one request.');
  });

  it('an array-batched JSON body (and other malformed bodies) answer BAD_USER_INPUT, from any address', async () => {
    const bodies: Array<[string, RegExp]> = [
      ['[{"query":"{ __typename }"},{"query":"{ __typename }"}]', /batching\) is not accepted/],
      ['[]', /batching\) is not accepted/],
      ['{"query":{"kind":"Document"}}', /query must be a string/],
      ['{"query":null}', /has no query/],
      ['{}', /has no query/],
      ['"{ __typename }"', /not accepted|not a GraphQL request/],
    ];
    for (const [i, [body, message]] of bodies.entries()) {
      const r = await post(`${t.url}/query`, body, { from: CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length] });
      const e = r.json?.errors?.[0];
      tally.record(`body ${body}`, r.status === 400 && e?.extensions?.code === ERROR_CODES.BAD_USER_INPUT, r.text);
      expect(r.status, body).toBe(400);
      expect(e?.extensions?.code, body).toBe(ERROR_CODES.BAD_USER_INPUT);
      expect(e?.message, body).toMatch(message);
    }
  });
});
