/**
 * API keys: shown once, stored hashed, acting as the company within their scope, limited per key, refused
 * at once when revoked (on every API node) and while the plan lacks APIs & Webhooks.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { seedProcessedTour } from './fixtures/tours.js';

const CREATE = `mutation($name: String!) { apiKeyCreate(input: { name: $name }) { secret apiKey { id name prefix createdAt lastUsedAt } } }`;
const LIST = `query { me { user { company { apiKeys { id name prefix lastUsedAt } } } } }`;
const REVOKE = `mutation($id: ID!) { apiKeyRevoke(id: $id) { id } }`;
const TOURS = `query { tours(first: 10) { edges { node { id title } } } }`;

async function setPlan(t: TestApp, companyId: string, plan: 'pro' | 'basic') {
  await t.app.services.db
    .updateTable('licenses')
    .set({ plan_id: plan, plan_name: plan === 'pro' ? 'Pro' : 'Basic' })
    .where('company_id', '=', companyId)
    .execute();
}

describe('API keys', () => {
  let t: TestApp;
  let admin: SeededUser;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', API_KEY_RATE_LIMIT_PER_MINUTE: 1000 });
    admin = await seedUser(t.app, { plan: 'pro' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('answers the secret once and stores only its hash; the key is listed by its prefix', async () => {
    const r = await t.gql(CREATE, { name: 'CRM sync' }, admin.token);
    expect(r.errors).toBeUndefined();
    const { secret, apiKey } = r.data.apiKeyCreate;
    expect(secret).toMatch(/^rw_live_[A-Za-z0-9_-]{32}$/);
    expect(apiKey).toMatchObject({ name: 'CRM sync', prefix: secret.slice(0, 12), lastUsedAt: null });
    const rows = await t.app.services.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', admin.company.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(rows[0]!.secret_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    const list = await t.gql(LIST, {}, admin.token);
    expect(list.data.me.user.company.apiKeys).toEqual([
      { id: apiKey.id, name: 'CRM sync', prefix: secret.slice(0, 12), lastUsedAt: null },
    ]);
    expect(JSON.stringify(list.data)).not.toContain(secret);
  });

  it('is for company admins on Pro or the Offline License only, and needs a name', async () => {
    const member = await seedUser(t.app, { companyId: admin.company.id });
    expect((await t.gql(CREATE, { name: 'x' }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    const basic = await seedUser(t.app, { plan: 'basic' });
    const refused = await t.gql(CREATE, { name: 'x' }, basic.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.PLAN_REQUIRED);
    expect(refused.errors?.[0]?.message).toMatch(/Pro plan/);
    const offline = await seedUser(t.app, { plan: 'offline' });
    expect((await t.gql(CREATE, { name: 'Listing site' }, offline.token)).errors).toBeUndefined();
    const blank = await t.gql(CREATE, { name: '   ' }, admin.token);
    expect(blank.errors?.[0]?.extensions).toMatchObject({ code: ERROR_CODES.BAD_USER_INPUT, field: 'name' });
  });

  it('acts as the company on /query within its scope, and records when it was last used', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    await seedProcessedTour(t, owner);
    const { secret, apiKey } = (await t.gql(CREATE, { name: 'Site' }, owner.token)).data.apiKeyCreate;
    // The company's tours, not only those of the admin who made the key.
    const colleague = await seedUser(t.app, { companyId: owner.company.id });
    await seedProcessedTour(t, colleague);
    await seedProcessedTour(t, await seedUser(t.app, { plan: 'pro' }));
    const tours = await t.gql(TOURS, {}, secret);
    expect(tours.errors).toBeUndefined();
    expect(tours.data.tours.edges).toHaveLength(2);
    expect((await t.gql(TOURS, {}, owner.token)).data.tours.edges).toHaveLength(1);
    // Outside the scope: accounts, the team, billing, keys and webhooks stay with a signed-in admin.
    for (const doc of [
      LIST,
      CREATE,
      `mutation { companySave(input: { name: "Hijacked" }) { id } }`,
      `query { webhookEndpoints { id } }`,
      `query { tours(first: 1) { edges { node { id } } } ...F } fragment F on Query { me { user { id } } }`,
    ]) {
      const r = await t.gql(doc, { name: 'x' }, secret);
      expect(r.errors?.[0]?.extensions?.code, doc).toBe(ERROR_CODES.FORBIDDEN);
      expect(r.errors?.[0]?.message).toMatch(/API keys cannot use/);
    }
    const row = await t.app.services.db
      .selectFrom('api_keys')
      .select('last_used_at')
      .where('id', '=', apiKey.id.replace('apikey_', ''))
      .executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeInstanceOf(Date);
    // An API key is no console session: the HTTP routes that take a session refuse it.
    const ai = await fetch(`${t.url}/ai-edit`, { method: 'POST', headers: { authorization: `Bearer ${secret}` } });
    expect([401, 404]).toContain(ai.status);
  });

  it('stops working while the plan lacks APIs & Webhooks (PLAN_REQUIRED) and works again after an upgrade', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const { secret } = (await t.gql(CREATE, { name: 'Downgrade' }, owner.token)).data.apiKeyCreate;
    await setPlan(t, owner.company.id, 'basic');
    const refused = await t.gql(TOURS, {}, secret);
    expect(refused.status).toBe(403);
    expect(refused.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.PLAN_REQUIRED);
    await setPlan(t, owner.company.id, 'pro');
    expect((await t.gql(TOURS, {}, secret)).errors).toBeUndefined();
  });

  it('is refused at once once revoked, and an unknown key is refused like a bad token', async () => {
    const { secret, apiKey } = (await t.gql(CREATE, { name: 'Revoke me' }, admin.token)).data.apiKeyCreate;
    expect((await t.gql(TOURS, {}, secret)).errors).toBeUndefined();
    expect((await t.gql(REVOKE, { id: apiKey.id }, admin.token)).errors).toBeUndefined();
    const r = await t.gql(TOURS, {}, secret);
    expect(r.status).toBe(401);
    expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
    expect((await t.gql(REVOKE, { id: apiKey.id }, admin.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await t.gql(TOURS, {}, 'rw_live_notakeyatall')).status).toBe(401);
    // Another company's admin cannot revoke it either.
    const other = await seedUser(t.app, { plan: 'pro' });
    const { apiKey: mine } = (await t.gql(CREATE, { name: 'Mine' }, admin.token)).data.apiKeyCreate;
    expect((await t.gql(REVOKE, { id: mine.id }, other.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });
});

describe('API key rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', API_KEY_RATE_LIMIT_PER_MINUTE: 3 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('limits each key on its own, whatever address the requests come from', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const a = (await t.gql(CREATE, { name: 'A' }, owner.token)).data.apiKeyCreate.secret;
    const b = (await t.gql(CREATE, { name: 'B' }, owner.token)).data.apiKeyCreate.secret;
    for (let i = 0; i < 3; i++) expect((await t.gql(TOURS, {}, a)).status).toBe(200);
    const res = await fetch(`${t.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${a}`, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ query: TOURS }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code).toBe(
      ERROR_CODES.RATE_LIMITED,
    );
    expect((await t.gql(TOURS, {}, b)).status).toBe(200);
    // A signed-in session of the same company is not limited by its keys.
    expect((await t.gql(TOURS, {}, owner.token)).status).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('API keys across two API nodes (PostgreSQL)', () => {
  let t: TestApp;
  let b: App;
  let bUrl: string;
  beforeAll(async () => {
    t = await startTestApp('postgres', { ROLE: 'api' });
    const config = loadConfig(
      { NODE_ENV: 'test' },
      {
        PORT: 0,
        HOST: '127.0.0.1',
        DATA_DIR: t.dataDir,
        LOG_LEVEL: 'silent',
        JWT_SECRET: t.app.config.JWT_SECRET!,
        DATABASE_URL: t.app.config.DATABASE_URL!,
        ROLE: 'api',
      },
    );
    b = await buildApp({ config });
    bUrl = (await b.start()).replace('localhost', '127.0.0.1');
  });
  afterAll(async () => {
    await b?.stop();
    await t?.stop();
  });

  it('a key revoked through node A is refused by node B on its next request', async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const { secret, apiKey } = (await t.gql(CREATE, { name: 'Two nodes' }, owner.token)).data.apiKeyCreate;
    const onB = () =>
      fetch(`${bUrl}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
        body: JSON.stringify({ query: TOURS }),
      });
    expect((await onB()).status).toBe(200);
    expect((await t.gql(REVOKE, { id: apiKey.id }, owner.token)).errors).toBeUndefined();
    expect((await onB()).status).toBe(401);
  });
});

describe('API keys and room analytics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { ROLE: 'api', API_KEY_RATE_LIMIT_PER_MINUTE: 1000 });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("reads a company tour's room analytics (tourAnalytics), not another company's", async () => {
    const owner = await seedUser(t.app, { plan: 'pro' });
    const tour = await seedProcessedTour(t, owner);
    const { secret } = (await t.gql(CREATE, { name: 'Analytics' }, owner.token)).data.apiKeyCreate;
    const ANALYTICS = 'query($id: ID!) { tourAnalytics(tourId: $id) { visits rooms { name seconds visits } } }';
    const r = await t.gql(ANALYTICS, { id: tour.id }, secret);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourAnalytics).toEqual({ visits: 0, rooms: [] });
    const other = await seedProcessedTour(t, await seedUser(t.app, { plan: 'pro' }));
    expect((await t.gql(ANALYTICS, { id: other.id }, secret)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });
});
