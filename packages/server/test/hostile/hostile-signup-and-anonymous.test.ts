/**
 * Per-address and per-address-book limits: sign-up attempts are limited per client address and per e-mail
 * (the spec's "Username already taken" stays, but cannot test lists of addresses); anonymous GraphQL documents are
 * limited per address on HTTP and graphql-ws alike (RATE_LIMITS.anonymousQuery) while signed-in callers are not; and a
 * development server answers only to its own host names (a DNS-rebinding page cannot read /dev/outbox.json).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { RATE_LIMITS } from '../../src/auth/rate-limit.js';
import { REGISTER, registerInput, uniqueEmail } from '../helpers/accounts.js';
import { seedUser } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { gqlPost, post, SUB_ROOT, wsSubscribe } from './harness.js';

const signUp = (t: TestApp, username: string, from: string) =>
  post(`${t.url}/query`, JSON.stringify({ query: REGISTER, variables: { input: registerInput({ username }) } }), {
    from,
  });

/**
 * A GET with a chosen Host header (fetch does not let a page set it; a rebinding browser sends the attacker's name).
 */
function getWithHost(url: string, host: string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    http
      .get({ host: u.hostname, port: u.port, path: u.pathname, headers: { host }, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

describe('sign-up and anonymous limits, development Host check (hostile)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('limits sign-up attempts per e-mail address, whatever addresses they come from', async () => {
    const email = uniqueEmail('listed');
    const answers: string[] = [];
    for (let i = 0; i <= RATE_LIMITS.userRegisterEmail.points; i++) {
      const r = await signUp(t, email, `127.0.0.${1 + (i % 3)}`);
      answers.push(r.json.errors?.[0]?.extensions?.code ?? 'created');
    }
    expect(answers[0]).toBe('created');
    expect(answers.slice(1, -1).every((c) => c !== ERROR_CODES.RATE_LIMITED)).toBe(true);
    expect(answers.at(-1)).toBe(ERROR_CODES.RATE_LIMITED);
  });

  it('limits sign-up attempts per client address, each with a new e-mail', async () => {
    const codes: string[] = [];
    for (let i = 0; i <= RATE_LIMITS.userRegister.points; i++)
      codes.push((await signUp(t, uniqueEmail('list'), '127.0.0.4')).json.errors?.[0]?.extensions?.code ?? 'created');
    expect(codes.slice(0, -1).every((c) => c === 'created')).toBe(true);
    expect(codes.at(-1)).toBe(ERROR_CODES.RATE_LIMITED);
  });

  it('limits anonymous documents per address on HTTP and graphql-ws; other addresses and signed-in callers go on', async () => {
    const from = '127.0.0.5';
    for (let i = 0; i < RATE_LIMITS.anonymousQuery.points; i++)
      expect((await gqlPost(t.url, '{ __typename }', undefined, from)).status).toBe(200);
    const refused = await gqlPost(t.url, '{ __typename }', undefined, from);
    expect(refused.status).toBe(429);
    expect(refused.json.errors[0].extensions.code).toBe(ERROR_CODES.RATE_LIMITED);
    const ws = await wsSubscribe(t.url, { query: `subscription { ${SUB_ROOT} { progress } }` }, { from });
    expect(ws.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.RATE_LIMITED);
    expect((await gqlPost(t.url, '{ __typename }', undefined, '127.0.0.6')).status).toBe(200);
    const user = await seedUser(t.app);
    const signedIn = await post(`${t.url}/query`, '{"query":"{ me { user { id } } }"}', {
      from,
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(signedIn.status).toBe(200);
  });

  it('development: /dev/outbox.json answers its own host names only, not a rebound one', async () => {
    const port = new URL(t.url).port;
    const outbox = `${t.url}/dev/outbox.json`;
    expect(await getWithHost(outbox, `127.0.0.1:${port}`)).toBe(200);
    expect(await getWithHost(outbox, `localhost:${port}`)).toBe(200);
    expect(await getWithHost(outbox, `[::1]:${port}`)).toBe(200);
    expect(await getWithHost(outbox, `attacker.example:${port}`)).toBe(403);
    expect(await getWithHost(outbox, `localhost.attacker.example:${port}`)).toBe(403);
    expect(await getWithHost(`${t.url}/query`, `attacker.example:${port}`)).toBe(403);
  });
});
