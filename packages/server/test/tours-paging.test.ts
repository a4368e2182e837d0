import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';

const PAGE = `query($first: Int, $after: String) { tours(first: $first, after: $after) { edges { cursor node { id title } } pageInfo { hasNextPage endCursor } } }`;

describe.each(DB_KINDS)('tours connection paging on %s', (kind) => {
  let t: TestApp;
  let owner: SeededUser;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await seedUser(t.app, { plan: 'pro' });
    const other = await seedUser(t.app, { plan: 'pro' });
    const sameInstant = new Date('2026-01-01T00:00:00.123456Z');
    const rows = Array.from({ length: 23 }, (_, i) => ({
      company_id: owner.company.id,
      owner_id: owner.user.id,
      title: `T${i}`,
      status: 'PROCESSED',
      // Most share one instant so the order falls back to the id, like tours created in one transaction.
      created_at: i < 15 ? sameInstant : new Date(Date.UTC(2026, 0, 2, 0, 0, i)),
    }));
    await t.app.services.db.insertInto('tours').values(rows).execute();
    await t.app.services.db
      .insertInto('tours')
      .values({ company_id: other.company.id, owner_id: other.user.id, title: 'not mine', status: 'PROCESSED' })
      .execute();
    await t.app.services.db
      .insertInto('tours')
      .values({
        company_id: owner.company.id,
        owner_id: owner.user.id,
        title: 'deleted',
        status: 'PROCESSED',
        deleted_at: new Date(),
      })
      .execute();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('pages through every own tour exactly once, 10 by default, newest first', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const r: { errors?: unknown; data: any } = await t.gql(PAGE, { after }, owner.token);
      expect(r.errors).toBeUndefined();
      const conn: { edges: Array<{ node: { title: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string } } =
        r.data.tours;
      pages += 1;
      expect(conn.edges.length).toBeLessThanOrEqual(10);
      seen.push(...conn.edges.map((e) => e.node.title));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
      expect(pages).toBeLessThan(5);
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(23);
    expect(seen).not.toContain('not mine');
    expect(seen).not.toContain('deleted');
    expect(seen.slice(0, 8)).toEqual(['T22', 'T21', 'T20', 'T19', 'T18', 'T17', 'T16', 'T15']);
  });

  it('refuses a malformed cursor with BAD_USER_INPUT', async () => {
    const r = await t.gql(PAGE, { after: 'garbage' }, owner.token);
    expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
