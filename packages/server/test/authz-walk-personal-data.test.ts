/**
 * Authorisation of a person's data operations. They take no id (the walker in authz-walk.test.ts covers those): each
 * acts on the caller alone. Every such field of the schema is listed here; each is refused without a session and to
 * an API key (a key is a company, not a person), and a user calling them changes nothing of another company's users.
 */
import type { GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { getSchema } from '../src/graphql/schema.js';
import { hashPassword } from '../src/auth/passwords.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { PASSWORD } from './helpers/accounts.js';
import { seedUser, type SeededUser } from './helpers/seed.js';

/** The caller-only operations of a person's data, with a document calling each. */
const CALLER_ONLY: Record<string, string> = {
  'Query.dataExport': 'query { dataExport { status } }',
  'Query.accountDeletionPreview': 'query { accountDeletionPreview { allowed } }',
  'Mutation.dataExportCreate': 'mutation { dataExportCreate { status } }',
  'Mutation.accountDeletionRequest': `mutation { accountDeletionRequest(password: "${PASSWORD}") { status } }`,
};

function personalDataFields(): string[] {
  const schema = getSchema();
  const roots: Array<[string, GraphQLObjectType | null | undefined]> = [
    ['Query', schema.getQueryType()],
    ['Mutation', schema.getMutationType()],
  ];
  return roots
    .flatMap(([root, type]) =>
      Object.keys(type?.getFields() ?? {})
        .filter((f) => /^(dataExport|accountDeletion)/.test(f))
        .map((f) => `${root}.${f}`),
    )
    .sort();
}

describe('the personal data walk knows every operation', () => {
  it('has one case per dataExport* / accountDeletion* field', () => {
    expect(Object.keys(CALLER_ONLY).sort()).toEqual(personalDataFields());
  });
});

describe.each(DB_KINDS)('personal data operations act on the caller alone on %s', (kind) => {
  let t: TestApp;
  let attacker: SeededUser;
  let victim: SeededUser;
  let apiKey: string;

  const snapshotOfVictim = async () => {
    const db = t.app.services.db;
    return JSON.stringify({
      users: await db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', victim.company.id)
        .orderBy('id')
        .execute(),
      exports: await db.selectFrom('data_exports').selectAll().where('user_id', '=', victim.user.id).execute(),
      deletions: await db
        .selectFrom('account_deletions')
        .selectAll()
        .where('company_id', '=', victim.company.id)
        .execute(),
      mails: await db
        .selectFrom('mail_outbox')
        .select(['subject'])
        .where('to_address', '=', victim.user.username)
        .execute(),
    });
  };

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
    attacker = await seedUser(t.app, { plan: 'pro' });
    victim = await seedUser(t.app, { plan: 'pro' });
    for (const u of [attacker, victim])
      await t.app.services.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD) })
        .where('id', '=', u.user.id)
        .execute();
    const key = await t.gql('mutation { apiKeyCreate(input: { name: "walk" }) { secret } }', {}, attacker.token);
    apiKey = key.data.apiKeyCreate.secret;
  });
  afterAll(async () => t?.stop());

  for (const [name, doc] of Object.entries(CALLER_ONLY)) {
    it(`${name}: refused without a session and to an API key; another company's users untouched`, async () => {
      const before = await snapshotOfVictim();
      const anonymous = await t.gql(doc);
      expect(anonymous.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
      const byKey = await t.gql(doc, {}, apiKey);
      expect([ERROR_CODES.FORBIDDEN, ERROR_CODES.UNAUTHENTICATED]).toContain(byKey.errors?.[0]?.extensions?.code);
      const own = await t.gql(doc, {}, attacker.token);
      expect(own.errors, JSON.stringify(own)).toBeUndefined();
      expect(await snapshotOfVictim()).toBe(before);
    });
  }
});
