/**
 * An API key stays in its lane on a real server: nested paths to the team, `node(id)` of a company and live-viewing
 * host tokens are refused; a key acts with its creator's current rights (demoted → no admin rights; gone from the
 * company → stopped). A plain member cannot start reels or photos on a colleague's tour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedProcessedTour } from '../fixtures/tours.js';

const CREATE_KEY = `mutation($name: String!) { apiKeyCreate(input: { name: $name }) { secret } }`;
const SAVE = `mutation($id: ID!) { tourSave(input: { id: $id, title: "Changed by key" }) { id title } }`;

describe('API key scope and rights (hostile)', () => {
  let t: TestApp;
  let admin: SeededUser;
  let secret: string;
  let tourId: string;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', API_KEY_RATE_LIMIT_PER_MINUTE: 1000 });
    admin = await seedUser(t.app, { plan: 'pro' });
    await seedUser(t.app, { companyId: admin.company.id, role: 'USER' });
    expect(
      (
        await t.gql(
          `mutation($c: ID!) { inviteMember(input: { email: "pending@example.com", companyId: $c }) { id } }`,
          { c: admin.companyId },
          admin.token,
        )
      ).errors,
    ).toBeUndefined();
    tourId = (await seedProcessedTour(t, admin)).id;
    secret = (await t.gql(CREATE_KEY, { name: 'CRM' }, admin.token)).data.apiKeyCreate.secret;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('refuses the team, the licence, invites and host tokens on nested paths and through node(id)', async () => {
    const probes = {
      'User.company': `query($id: ID!) { tour(tourID: $id) { owner { company { members { username role } license { planName } invites(first: 5) { edges { node { email } } } } } } }`,
      'Company.members': `query { node(id: "${admin.companyId}") { id ... on Company { members { username } } } }`,
      'Company.name': `query { node(id: "${admin.companyId}") { ... on Company { name } } }`,
      'Tour.viewingSessionRequest': `query($id: ID!) { tour(tourID: $id) { viewingSessionRequest { signalingToken } } }`,
      'User.profile': `query($id: ID!) { tours(first: 1) { edges { node { ...O } } } tour(tourID: $id) { id } } fragment O on Tour { owner { profile { email } } }`,
    };
    for (const [field, query] of Object.entries(probes)) {
      const r = await t.gql(query, { id: tourId }, secret);
      expect(r.errors?.[0]?.extensions?.code, query).toBe(ERROR_CODES.FORBIDDEN);
      expect(r.errors?.[0]?.message).toContain(`API keys cannot use ${field}.`);
      expect(r.data ?? null).toBeNull();
      expect(JSON.stringify(r)).not.toMatch(/pending@example\.com|signalingToken"\s*:\s*"/);
    }
    // What the allow-list keeps: the tour with its owner's name, and node(id) of a tour.
    const ok = await t.gql(
      `query($id: ID!) { tour(tourID: $id) { id title owner { id username } } node(id: $id) { id ... on Tour { title } } }`,
      { id: tourId },
      secret,
    );
    expect(ok.errors).toBeUndefined();
    expect(ok.data.tour.owner.username).toBe(admin.user.username);
  });

  it("acts with its creator's current rights: demoted → only their own tours; gone from the company → 401", async () => {
    const boss = await seedUser(t.app, { plan: 'pro' });
    const second = await seedUser(t.app, { companyId: boss.company.id, role: 'ADMIN' });
    const colleagueTour = (await seedProcessedTour(t, await seedUser(t.app, { companyId: boss.company.id }))).id;
    const key = (await t.gql(CREATE_KEY, { name: 'Site' }, second.token)).data.apiKeyCreate.secret;
    expect((await t.gql(SAVE, { id: colleagueTour }, key)).errors).toBeUndefined();
    expect(
      (
        await t.gql(
          `mutation($id: ID!) { revokeAdminMember(userId: $id) { success } }`,
          { id: second.userId },
          boss.token,
        )
      ).errors,
    ).toBeUndefined();
    expect((await t.gql(SAVE, { id: colleagueTour }, second.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await t.gql(SAVE, { id: colleagueTour }, key)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.FORBIDDEN);
    // Their own tour still works with the key, as it does for them.
    const own = (await seedProcessedTour(t, second)).id;
    expect((await t.gql(SAVE, { id: own }, key)).errors).toBeUndefined();
    // The creator leaves the company (moved to another one): the key stops.
    const elsewhere = await seedUser(t.app, { plan: 'pro' });
    await t.app.services.db
      .updateTable('users')
      .set({ company_id: elsewhere.company.id })
      .where('id', '=', second.user.id)
      .execute();
    const stopped = await t.gql(SAVE, { id: own }, key);
    expect(stopped.status).toBe(401);
    expect(stopped.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it("a plain member cannot start reels or photos on a colleague's tour", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const member = await seedUser(t.app, { companyId: owner.company.id });
    const tour = await seedProcessedTour(t, owner);
    await t.app.services.db
      .updateTable('tours')
      .set({ video_key: 'uploads/seeded.mp4' })
      .where('id', '=', tour.row.id)
      .execute();
    const shot = await t.app.services.db
      .insertInto('shots')
      .values({ tour_id: tour.row.id, status: 'COMPLETED', original_key: `tours/${tour.row.id}/shots/a.jpg` })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [query, vars] of [
      [`mutation($id: ID!) { tourGenerateReel(tourId: $id) { id } }`, { id: tour.id }],
      [`mutation($id: ID!) { generateTourShots(tourId: $id) { id } }`, { id: tour.id }],
      [`mutation($id: ID!) { regenerateShot(shotId: $id) { id } }`, { id: `shot_${shot.id}` }],
      [`mutation($id: ID!) { generateStagedShot(shotId: $id) { id } }`, { id: `shot_${shot.id}` }],
    ] as const) {
      const r = await t.gql(query, vars, member.token);
      expect(r.errors?.[0]?.extensions?.code, query).toBe(ERROR_CODES.FORBIDDEN);
    }
    expect(
      await t.app.services.db.selectFrom('reels').select('id').where('tour_id', '=', tour.row.id).execute(),
    ).toEqual([]);
    const row = await t.app.services.db
      .selectFrom('shots')
      .select('status')
      .where('id', '=', shot.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('COMPLETED');
  });
});
