import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';

describe.each(DB_KINDS)('server core on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers GraphQL on POST /query', async () => {
    const r = await t.gql('{ priceTiers { tierName upTo flatAmount currencySymbol } }');
    expect(r.status).toBe(200);
    expect(r.data.priceTiers.map((p: { tierName: string }) => p.tierName)).toEqual(['Free', 'Entry', 'Basic', 'Pro']);
  });

  it('refuses private queries without a session with UNAUTHENTICATED', async () => {
    const r = await t.gql('{ me { user { id } } }');
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('answers 401 to a bad bearer token, so the console logs out', async () => {
    const r = await t.gql('{ priceTiers { tierName } }', {}, 'not-a-token');
    expect(r.status).toBe(401);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('rejects a too-deep query with QUERY_TOO_COMPLEX and runs nothing', async () => {
    let sel = 'id';
    for (let i = 0; i < 14; i++) sel = `topFiveTours { owner { ${sel} } }`;
    const r = await t.gql(`{ me { user { ${sel} } } }`);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
    expect(r.data ?? null).toBeNull();
  });

  it('rejects too many aliases', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => `a${i}: priceTiers { tierName }`).join(' ');
    const r = await t.gql(`{ ${fields} }`);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
  });

  it('gives a malformed tour id INVALID_TOUR_ID and an unknown one NOT_FOUND', async () => {
    const bad = await t.gql('query($id: ID!) { tour(tourID: $id) { id } }', { id: 'nonsense' });
    expect(bad.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOUR_ID);
    const unknown = await t.gql('query($id: ID!) { tour(tourID: $id) { id } }', {
      id: 'tour_00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('masks unexpected errors and never sends a stack trace', async () => {
    const r = await t.gql('{ nope }');
    expect(r.errors?.[0]?.message).toMatch(/Cannot query field/);
    expect(JSON.stringify(r)).not.toMatch(/at .*\.ts:\d+/);
  });

  it('reports health and readiness', async () => {
    const r = await fetch(`${t.url}/readyz`);
    expect(await r.json()).toMatchObject({ ok: true, database: kind });
  });
});

describe('subscriptions over WebSocket share the HTTP rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.stop();
  });

  function firstError(
    query: string,
    variables: Record<string, unknown> = {},
  ): Promise<{ message: string; extensions?: { code?: string } }> {
    const client = t.wsClient();
    return new Promise((resolve, reject) => {
      client.subscribe(
        { query, variables },
        {
          next: (v) => (v.errors ? resolve(v.errors[0] as never) : reject(new Error('expected an error'))),
          error: (e) => resolve((Array.isArray(e) ? e[0] : e) as never),
          complete: () => reject(new Error('completed without an error')),
        },
      );
    });
  }

  it('rejects an unknown field before running anything', async () => {
    const e = await firstError(
      'subscription { tourProgressUpdated(tourId: "tour_00000000-0000-4000-8000-000000000000") { nope } }',
    );
    expect(e.message).toMatch(/Cannot query field "nope"/);
  });

  it('applies the alias limit', async () => {
    const fields = Array.from({ length: 40 }, (_, i) => `a${i}: progress`).join(' ');
    const e = await firstError(
      `subscription { tourProgressUpdated(tourId: "tour_00000000-0000-4000-8000-000000000000") { ${fields} } }`,
    );
    expect(e.extensions?.code).toBe(ERROR_CODES.QUERY_TOO_COMPLEX);
  });

  it('answers a private subscription without a session with UNAUTHENTICATED', async () => {
    const e = await firstError(
      'subscription { tourProgressUpdated(tourId: "tour_00000000-0000-4000-8000-000000000000") { progress } }',
    );
    expect(e.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });
});
