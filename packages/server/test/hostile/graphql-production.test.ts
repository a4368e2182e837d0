/**
 * In production the schema does not leak. Introspection answers only signed-in API users (Pro plan,
 * super admins) unless GRAPHQL_INTROSPECTION says otherwise, also for a document another caller had cached; error
 * messages carry no "Did you mean …" hints. Development keeps both (the console's tooling relies on them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { seedUser } from '../helpers/seed.js';
import { Tally } from './harness.js';
import { introspectionPolicy, mayIntrospect } from '../../src/graphql/hardening.js';

const SCHEMA = '{ __schema { queryType { name } types { name } } }';
const TYPE = '{ __type(name: "Tour") { name fields { name } } }';
const TYPO = '{ priceTier { tierName } }';
const ENUM_TYPO = 'mutation($i: ReportExportInput!) { generateSummaryByUserReport(input: $i) { fileName } }';

describe('production: introspection and suggestions', () => {
  let prod: TestApp;
  let dev: TestApp;
  const tally = new Tally('production schema leaks');
  beforeAll(async () => {
    // ROLE api: no worker, so no media binaries are needed for a production start.
    // One after another: three starts at once can overrun Fastify's plugin timeout on a loaded machine.
    // SMTP_URL: production refuses to start without a way to deliver mail (no connection is made unless a mail goes
    // out).
    prod = await startTestApp('pglite', { NODE_ENV: 'production', ROLE: 'api', SMTP_URL: 'smtp://127.0.0.1:1' });
    dev = await startTestApp('pglite');
  });
  afterAll(async () => {
    tally.print();
    await Promise.all([prod?.stop(), dev?.stop()]);
  });

  it('refuses introspection to anonymous and Free-plan callers, also for a document a Pro user had cached', async () => {
    const pro = await seedUser(prod.app, { plan: 'pro' });
    const free = await seedUser(prod.app, { plan: 'free' });
    const superadmin = await seedUser(prod.app, { plan: 'free', superadmin: true });

    const byPro = await prod.gql(SCHEMA, {}, pro.token);
    expect(byPro.errors).toBeUndefined();
    expect(byPro.data.__schema.queryType.name).toBe('Query');
    const bySuper = await prod.gql(TYPE, {}, superadmin.token);
    expect(bySuper.data.__type.name).toBe('Tour');

    for (const [who, token] of [
      ['anonymous', undefined],
      ['free', free.token],
    ] as const) {
      for (const q of [
        SCHEMA,
        TYPE,
        `{ tourList: __typename ...F } fragment F on Query { __schema { types { name } } }`,
      ]) {
        const r = await prod.gql(q, {}, token);
        const ok = r.errors?.[0]?.extensions?.code === ERROR_CODES.FORBIDDEN && !r.data;
        tally.record(`introspection by ${who}`, ok, JSON.stringify(r).slice(0, 200));
        expect(r.errors?.[0]?.extensions?.code, `${who}: ${q}`).toBe(ERROR_CODES.FORBIDDEN);
        expect(r.errors?.[0]?.message).toBe('Schema introspection is not available to this caller.');
        expect(r.data ?? null).toBeNull();
      }
    }
    // Plain queries and __typename still work for everyone.
    expect((await prod.gql('{ __typename priceTiers { tierName } }')).data.__typename).toBe('Query');
  });

  it('GRAPHQL_INTROSPECTION chooses who may introspect; development is open by default', async () => {
    expect((await dev.gql(SCHEMA)).data.__schema.queryType.name).toBe('Query');
    const pro = { userId: 'u', companyId: 'c', roles: ['pro'], isCompanyAdmin: false, isSuperAdmin: false };
    const free = { ...pro, roles: ['free'] };
    expect(introspectionPolicy(undefined, true)).toBe('api');
    expect(introspectionPolicy(undefined, false)).toBe('open');
    expect(introspectionPolicy('open', true)).toBe('open');
    expect(introspectionPolicy('off', false)).toBe('off');
    expect([
      mayIntrospect('open', null),
      mayIntrospect('api', null),
      mayIntrospect('api', free),
      mayIntrospect('api', pro),
      mayIntrospect('off', pro),
    ]).toEqual([true, false, false, true, false]);
  });

  it('drops "Did you mean" hints from validation and variable errors in production only', async () => {
    const devTypo = await dev.gql(TYPO);
    expect(devTypo.errors?.[0]?.message).toMatch(/Did you mean "priceTiers"\?/);
    const prodTypo = await prod.gql(TYPO);
    expect(prodTypo.errors?.[0]?.message).toBe('Cannot query field "priceTier" on type "Query".');
    expect(prodTypo.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);

    for (const i of [
      { companyId: 'x', exportType: 'cvs' },
      { companyId: 'x', exportTyp: 'csv' },
    ]) {
      const devEnum = await dev.gql(ENUM_TYPO, { i });
      expect(devEnum.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
      if (i.exportType) expect(devEnum.errors?.[0]?.message).toMatch(/Did you mean the enum value "csv"\?$/);
      const prodEnum = await prod.gql(ENUM_TYPO, { i });
      expect(prodEnum.errors?.[0]?.message).toMatch(/^Variable "\$i" got invalid value/);
      expect(JSON.stringify(prodEnum.errors)).not.toMatch(/Did you mean/);
      tally.record('suggestion hidden (variables)', !JSON.stringify(prodEnum).includes('Did you mean'));
    }

    expect((await dev.gql('{ tour(tourId: "x") { id } }')).errors?.[0]?.message).toMatch(/Did you mean "tourID"\?/);
    const prodArg = await prod.gql('{ tour(tourId: "x") { id } }');
    expect(JSON.stringify(prodArg.errors)).not.toMatch(/Did you mean/);
    for (const r of [prodTypo, prodArg]) tally.record('suggestion hidden', !JSON.stringify(r).includes('Did you mean'));
  });
});
