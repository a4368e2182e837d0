/**
 * The Team pages ask each member for the same figures, and a page of tours each tour for its owner, agent and visits;
 * they are read for the whole page at once (graphql/loaders.ts), so many members or tours cost a few statements, not
 * several each (the Team document of 100 members took 79-105 ms of CPU on PostgreSQL, one statement per
 * member and field). Each member's and each tour's figures stay their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const TEAM = `query { me { user { company { invites(first: 100) { edges { node { email user {
  id username monthlyActiveTours monthlyUploadedTours totalViews deletedTourViews profile { name surname email } topFiveTours { title views }
} } } } } } } }`;

interface Member {
  username: string;
  monthlyActiveTours: number;
  monthlyUploadedTours: number;
  totalViews: number;
  deletedTourViews: number;
  profile: { name: string; surname: string; email: string };
  topFiveTours: Array<{ title: string; views: number }>;
}

describe('Team pages: members read together', () => {
  let t: TestApp;
  let admin: SeededUser;
  /** SQL statements run through the app's database while `fn` runs. */
  async function statements<T>(fn: () => Promise<T>): Promise<{ value: T; count: number }> {
    const executor = t.app.services.db.getExecutor() as unknown as {
      executeQuery: (...args: unknown[]) => Promise<unknown>;
    };
    const original = executor.executeQuery;
    let count = 0;
    executor.executeQuery = function (this: unknown, ...args: unknown[]) {
      count += 1;
      return original.apply(this, args);
    };
    try {
      return { value: await fn(), count };
    } finally {
      executor.executeQuery = original;
    }
  }

  /** Adds `n` members, member i with i + 1 tours of views 10, 20, …, one deleted tour of 7 views and i uploads. */
  async function addMembers(n: number, from: number): Promise<void> {
    const db = t.app.services.db;
    for (let i = from; i < from + n; i++) {
      const m = await seedUser(t.app, { companyId: admin.company.id, name: `Member${i}`, surname: 'Team' });
      await db
        .insertInto('team_invites')
        .values({
          company_id: admin.company.id,
          email: m.user.username,
          token_hash: `team-${i}`,
          accepted: true,
          accepted_user_id: m.user.id,
          expires_at: new Date(Date.now() + 86_400_000),
        })
        .execute();
      const tours = Array.from({ length: Math.min(i + 1, 7) }, (_, k) => ({
        company_id: admin.company.id,
        owner_id: m.user.id,
        title: `M${i}-T${k}`,
        status: 'PROCESSED' as const,
        progress: 100,
        views: (k + 1) * 10,
        fps: 15,
        clips_version: 1,
        processing_attempt: 1,
      }));
      await db.insertInto('tours').values(tours).execute();
      await db
        .insertInto('tours')
        .values({
          company_id: admin.company.id,
          owner_id: m.user.id,
          title: `M${i}-gone`,
          status: 'PROCESSED',
          progress: 100,
          views: 7,
          fps: 15,
          clips_version: 1,
          processing_attempt: 1,
          deleted_at: new Date(),
        })
        .execute();
      for (let u = 0; u < i; u++)
        await db
          .insertInto('uploads')
          .values({
            key: `uploads/${m.user.id}/${u}.mp4`,
            company_id: admin.company.id,
            user_id: m.user.id,
            extension: 'mp4',
            submitted_at: new Date(),
          })
          .execute();
    }
  }

  const members = async () => {
    const r = await t.gql(TEAM, {}, admin.token);
    expect(r.errors).toBeUndefined();
    return (r.data.me.user.company.invites.edges as Array<{ node: { user: Member | null } }>)
      .map((e) => e.node.user)
      .filter((u): u is Member => !!u);
  };

  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', RATE_LIMIT_DISABLED: true });
    admin = await seedUser(t.app, { plan: 'pro' });
    await addMembers(3, 0);
  });
  afterAll(() => t?.stop());

  it("answers each member's own figures and top five tours", async () => {
    const byName = new Map((await members()).map((m) => [m.profile.name, m]));
    for (let i = 0; i < 3; i++) {
      const m = byName.get(`Member${i}`)!;
      const tours = i + 1;
      expect(m, `Member${i}`).toMatchObject({
        monthlyActiveTours: tours,
        monthlyUploadedTours: i,
        deletedTourViews: 7,
        profile: { surname: 'Team', email: m.username },
      });
      expect(m.totalViews).toBe((10 * tours * (tours + 1)) / 2);
      expect(m.topFiveTours.map((x) => x.views)).toEqual(
        Array.from({ length: Math.min(tours, 5) }, (_, k) => (tours - k) * 10),
      );
    }
  });

  it('runs as many statements for 12 members as for 3', async () => {
    const few = await statements(members);
    expect(few.value).toHaveLength(3);
    await addMembers(9, 3);
    const many = await statements(members);
    expect(many.value).toHaveLength(12);
    // Top five of a member with seven tours: the five most viewed.
    expect(many.value.find((m) => m.profile.name === 'Member8')!.topFiveTours.map((x) => x.title)).toEqual([
      'M8-T6',
      'M8-T5',
      'M8-T4',
      'M8-T3',
      'M8-T2',
    ]);
    expect(many.count).toBe(few.count);
  });

  it('reads a page of tours with their owners, agents and visits in as many statements for 12 tours as for 2', async () => {
    const db = t.app.services.db;
    const owner = await seedUser(t.app, { companyId: admin.company.id, name: 'Owner' });
    const { token } = owner;
    const addTours = async (n: number, from: number) => {
      for (let i = from; i < from + n; i++) {
        const [tour] = await db
          .insertInto('tours')
          .values({
            company_id: admin.company.id,
            owner_id: owner.user.id,
            title: `P${i}`,
            status: 'PROCESSED',
            progress: 100,
            fps: 15,
            clips_version: 1,
            processing_attempt: 1,
          })
          .returning('id')
          .execute();
        // Tour i has i visits, of 10 s each, from i visitors.
        for (let v = 0; v < i; v++)
          await db
            .insertInto('view_events')
            .values({
              tour_id: tour!.id,
              company_id: admin.company.id,
              visitor_id: `visitor-${i}-${v}`,
              seconds_spent: 10,
              rooms_reached: 1,
            })
            .execute();
      }
    };
    const PAGE =
      '{ tours(first: 100) { edges { node { title owner { username } agentProfile { fullname } analytics { visits uniqueVisitors } } } } }';
    const page = async () => {
      const r = await t.gql(PAGE, {}, token);
      expect(r.errors).toBeUndefined();
      return r.data.tours.edges.map((e: { node: unknown }) => e.node) as Array<{
        title: string;
        owner: { username: string };
        agentProfile: { fullname: string };
        analytics: { visits: number; uniqueVisitors: number };
      }>;
    };
    await addTours(2, 1);
    const few = await statements(page);
    await addTours(10, 3);
    const many = await statements(page);
    expect(many.value).toHaveLength(12);
    for (const tour of many.value) {
      const i = Number(tour.title.slice(1));
      expect(tour, tour.title).toMatchObject({
        owner: { username: owner.user.username },
        agentProfile: { fullname: 'Owner User' },
        analytics: { visits: i, uniqueVisitors: i },
      });
    }
    expect(many.count).toBe(few.count);
  });
});
