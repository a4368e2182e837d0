/** Sign-in and sign-up protection: the password grant, argon2id, human check, validation messages, rate limits. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURNSTILE_TOKEN, ERROR_CODES, ERROR_TEXTS, VALIDATION } from '@roomwalk/shared';
import { createHumanCheck } from '../src/auth/human-check.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import {
  PASSWORD,
  REGISTER,
  basicClientHeader,
  login,
  register,
  registerInput,
  uniqueEmail,
  waitForMail,
} from './helpers/accounts.js';

async function counts(t: TestApp) {
  const db = t.app.services.db;
  const n = async (table: 'users' | 'companies' | 'user_profiles' | 'one_time_tokens') =>
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  return {
    users: Number(await n('users')),
    companies: Number(await n('companies')),
    profiles: Number(await n('user_profiles')),
    tokens: Number(await n('one_time_tokens')),
  };
}

describe.each(DB_KINDS)('password grant and sign-up on %s', (kind) => {
  let t: TestApp;
  const email = uniqueEmail('login');

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
    expect((await register(t, { username: email })).errors).toBeUndefined();
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('stores the password as argon2id with m=19456, t=2, p=1', async () => {
    const row = await t.app.services.db
      .selectFrom('users')
      .select('password_hash')
      .where('username', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  it('answers an access token for the right password, the email trimmed and lower-cased', async () => {
    const { status, body } = await login(t, ` ${email.toUpperCase()} `);
    expect(status).toBe(200);
    expect(body.access_token).toEqual(expect.any(String));
  });

  it('gives unknown user and wrong password the very same 401 answer', async () => {
    const wrong = await login(t, email, 'Wrong12345');
    const unknown = await login(t, uniqueEmail('nobody'), PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      code: ERROR_CODES.INVALID_CREDENTIALS,
      message: ERROR_TEXTS.loginFailed,
    });
  });

  it('refuses the wrong client credentials and other grant types', async () => {
    const badClient = await login(t, email, PASSWORD, basicClientHeader('roomwalk-console', 'guess'));
    expect(badClient.status).toBe(401);
    expect(badClient.body.message).toBe(ERROR_TEXTS.authenticationFailed);
    const noClient = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: email, password: PASSWORD, grant_type: 'password' }),
    });
    expect(noClient.status).toBe(401);
    const grant = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicClientHeader() },
      body: JSON.stringify({ username: email, password: PASSWORD, grant_type: 'client_credentials' }),
    });
    expect(grant.status).toBe(400);
    expect(((await grant.json()) as { error: string }).error).toBe('unsupported_grant_type');
  });

  it("refuses a taken username with USERNAME_TAKEN and 'Username already taken', changing nothing", async () => {
    const before = await counts(t);
    const r = await register(t, { username: email.toUpperCase() });
    expect(r.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.usernameTaken,
      extensions: { code: ERROR_CODES.USERNAME_TAKEN },
    });
    expect(await counts(t)).toEqual(before);
  });

  it.each([
    [{ username: 'not-an-email' }, VALIDATION.emailInvalid, 'username'],
    [{ username: '' }, VALIDATION.emailRequired, 'username'],
    [{ password: 'Sh0rt' }, VALIDATION.passwordMin, 'password'],
    [{ password: 'ALLUPPER123' }, VALIDATION.passwordLowercase, 'password'],
    [{ password: 'alllower123' }, VALIDATION.passwordUppercase, 'password'],
    [{ password: 'NoDigitsHere' }, VALIDATION.passwordNumber, 'password'],
    [{ name: '   ' }, VALIDATION.firstnameRequired, 'name'],
    [{ surname: '' }, VALIDATION.surnameRequired, 'surname'],
    [{ name: 'x'.repeat(31) }, VALIDATION.maxChars, 'name'],
    [{ acceptedTerms: false }, VALIDATION.acceptTerms, 'acceptedTerms'],
    [{ turnstileToken: '' }, VALIDATION.humanCheckRequired, 'turnstileToken'],
    [{ contactNumber: '12' }, VALIDATION.invalidPhone, 'contactNumber'],
  ])('refuses sign-up input %j with the spec message, changing nothing', async (patch, message, field) => {
    const before = await counts(t);
    const r = await t.gql(REGISTER, { input: { ...registerInput({ username: uniqueEmail() }), ...patch } });
    expect(r.errors?.[0]?.message).toBe(message);
    expect(r.errors?.[0]?.extensions).toMatchObject({ code: ERROR_CODES.BAD_USER_INPUT, fields: { [field]: message } });
    expect(await counts(t)).toEqual(before);
  });

  it('accepts the development dummy human-check token and refuses any other without a secret', async () => {
    const before = await counts(t);
    const r = await register(t, { username: uniqueEmail(), turnstileToken: 'some-other-token' });
    expect(r.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.humanCheckFailed,
      extensions: { code: ERROR_CODES.HUMAN_CHECK_FAILED },
    });
    expect(await counts(t)).toEqual(before);
    expect(
      (await register(t, { username: uniqueEmail(), turnstileToken: DEV_TURNSTILE_TOKEN })).errors,
    ).toBeUndefined();
  });
});

describe('human check against a siteverify stub on loopback', () => {
  let server: http.Server;
  let verifyUrl = '';
  const seen: URLSearchParams[] = [];
  let t: TestApp;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const params = new URLSearchParams(body);
        seen.push(params);
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ success: params.get('secret') === 'stub-secret' && params.get('response') === 'human-ok' }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
    t = await startTestApp('pglite', {
      RATE_LIMIT_DISABLED: true,
      TURNSTILE_SECRET: 'stub-secret',
      TURNSTILE_VERIFY_URL: verifyUrl,
    });
  });
  afterAll(async () => {
    await t?.stop();
    await new Promise((r) => server.close(r));
  });

  it('passes when siteverify answers success true, sending secret, token and client IP', async () => {
    const email = uniqueEmail('human');
    const r = await register(t, { username: email, turnstileToken: 'human-ok' });
    expect(r.errors).toBeUndefined();
    expect(seen.at(-1)?.get('response')).toBe('human-ok');
    expect(seen.at(-1)?.get('remoteip')).toBe('127.0.0.1');
  });

  it('refuses when siteverify answers success false, and the dummy token no longer passes', async () => {
    for (const token of ['bot', DEV_TURNSTILE_TOKEN]) {
      const before = await counts(t);
      const r = await register(t, { username: uniqueEmail('bot'), turnstileToken: token });
      expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.HUMAN_CHECK_FAILED);
      expect(await counts(t)).toEqual(before);
    }
  });

  it('refuses when the verifier cannot be reached, and in production without a secret', async () => {
    const unreachable = createHumanCheck({ secret: 's', verifyUrl: 'http://127.0.0.1:9/siteverify', isDev: false });
    expect(await unreachable.verify('human-ok')).toBe(false);
    const production = createHumanCheck({ verifyUrl, isDev: false });
    expect(await production.verify(DEV_TURNSTILE_TOKEN)).toBe(false);
  });
});

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('limits /oauth/token per IP with 429 RATE_LIMITED', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(t, 'nobody@example.com', 'Wrong12345')).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    const limited = await login(t, 'nobody@example.com', 'Wrong12345');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: ERROR_CODES.RATE_LIMITED, message: ERROR_TEXTS.rateLimited });
  });

  it('limits userRegister per IP', async () => {
    const codes: Array<string | undefined> = [];
    for (let i = 0; i < 11; i++)
      codes.push((await register(t, { username: 'not-an-email' })).errors?.[0]?.extensions?.code);
    expect(codes.slice(0, 10).every((c) => c === ERROR_CODES.BAD_USER_INPUT)).toBe(true);
    expect(codes[10]).toBe(ERROR_CODES.RATE_LIMITED);
  });

  it('limits userRequestPasswordReset per IP', async () => {
    const q =
      'mutation($input: UserRequestPasswordResetInput!) { userRequestPasswordReset(input: $input) { success } }';
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await t.gql(q, { input: { email: uniqueEmail() } }));
    expect(answers.slice(0, 5).every((a) => a.data?.userRequestPasswordReset?.success === true)).toBe(true);
    expect(answers[5]!.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.RATE_LIMITED);
  });

  it('still sends the activation mail of a sign-up within the limit', async () => {
    const email = uniqueEmail('limited');
    const fresh = await startTestApp('pglite');
    try {
      expect((await register(fresh, { username: email })).errors).toBeUndefined();
      expect((await waitForMail(fresh, email, /Activate/)).to_address).toBe(email);
    } finally {
      await fresh.stop();
    }
  });
});
