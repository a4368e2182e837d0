/** Sign-in with Google, end to end against a local OpenID Connect issuer (oidc-provider) on loopback. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEV_TURNSTILE_TOKEN,
  ERROR_CODES,
  ERROR_TEXTS,
  FREE_TRIAL_PLAN_NAME,
  ROLES,
  decodeToken,
} from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { scheduleDeletion } from '../src/services/personal-data/account-deletion.js';
import { login, register, tokenFromLink, uniqueEmail, waitForMail } from './helpers/accounts.js';

const CLIENT = { id: 'roomwalk-web', secret: 'oidc-test-secret' };
const REDIRECT_URI = 'http://127.0.0.1:5173/signup/google';

interface Account {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/** A local issuer whose login step signs in `issuer.next` at once (no login page). */
async function startIssuer() {
  const accounts = new Map<string, Account>();
  const state: { next: Account | null } = { next: null };
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(url, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }] as never },
    cookies: { keys: ['test-cookie-key'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    // Like Google, put the requested claims in the id_token.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const a = accounts.get(id);
      return a ? { accountId: id, claims: () => ({ ...a }) } : undefined;
    },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const account = state.next!;
      accounts.set(account.sub, account);
      const grant = new provider.Grant({ accountId: account.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return { url, state, close: () => new Promise((r) => server.close(r)) };
}

/** Plays the browser: follows the issuer's redirects with its cookies until it lands on our redirect URI. */
async function authorize(startUrl: string): Promise<{ code: string; state: string }> {
  const jar = new Map<string, string>();
  let next = startUrl;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`issuer stopped at ${res.status}: ${await res.text()}`);
    const target = new URL(location, next);
    if (target.href.startsWith(REDIRECT_URI)) {
      if (target.searchParams.get('error'))
        throw new Error(`issuer error: ${target.searchParams.get('error_description')}`);
      return { code: target.searchParams.get('code')!, state: target.searchParams.get('state')! };
    }
    next = target.href;
  }
  throw new Error('too many redirects');
}

describe.each(DB_KINDS)('Google sign-in (OpenID Connect) on %s', (kind) => {
  let issuer: Awaited<ReturnType<typeof startIssuer>>;
  let t: TestApp;

  beforeAll(async () => {
    issuer = await startIssuer();
    t = await startTestApp(kind, {
      RATE_LIMIT_DISABLED: true,
      OIDC_ISSUER: issuer.url,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_REDIRECT_URI: REDIRECT_URI,
    });
  });
  afterAll(async () => {
    await t?.stop();
    await issuer?.close();
  });

  async function startSignIn(query = '') {
    const res = await fetch(`${t.url}/auth/google/url${query}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { url: string; state: string };
    expect(new URL(body.url).searchParams.get('code_challenge_method')).toBe('S256');
    return body;
  }
  async function complete(body: Record<string, unknown>) {
    const res = await fetch(`${t.url}/auth/google/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  }
  async function signIn(account: Account, opts: { gToken?: string | null; query?: string } = {}) {
    issuer.state.next = account;
    const { url } = await startSignIn(opts.query);
    const { code, state } = await authorize(url);
    return complete({ code, state, gToken: opts.gToken === undefined ? DEV_TURNSTILE_TOKEN : opts.gToken });
  }
  const userByEmail = (email: string) =>
    t.app.services.db.selectFrom('users').selectAll().where('username', '=', email).executeTakeFirst();

  it('creates an activated account with a company and Free Trial for a new Google user', async () => {
    const email = uniqueEmail('google');
    const r = await signIn({
      sub: 'sub-new-1',
      email: email.toUpperCase(),
      email_verified: true,
      given_name: 'Naledi',
      family_name: 'Khumalo',
    });
    expect(r.status).toBe(200);
    expect(r.body.email).toBe(email);
    expect(decodeToken(r.body.token)!.roles).toEqual([ROLES.free, ROLES.admin]);
    const me = await t.gql(
      '{ me { user { username activated role profile { name surname } company { countrycode license { planName } } } } }',
      {},
      r.body.token,
    );
    expect(me.data.me.user).toEqual({
      username: email,
      activated: true,
      role: 'ADMIN',
      profile: { name: 'Naledi', surname: 'Khumalo' },
      company: { countrycode: 'en_ZA', license: { planName: FREE_TRIAL_PLAN_NAME } },
    });
    expect(await userByEmail(email)).toMatchObject({
      oidc_issuer: issuer.url,
      oidc_subject: 'sub-new-1',
      password_hash: null,
    });
    // A Google-only account has no password to guess.
    expect((await login(t, email, 'Anything123')).status).toBe(401);
  });

  it('finds the account by issuer and subject even when the email changed at the issuer', async () => {
    const email = uniqueEmail('stable');
    const first = await signIn({ sub: 'sub-stable', email, email_verified: true, given_name: 'A', family_name: 'B' });
    const again = await signIn(
      { sub: 'sub-stable', email: uniqueEmail('renamed'), email_verified: true },
      { gToken: null },
    );
    expect(again.status).toBe(200);
    expect(again.body.email).toBe(email);
    expect(decodeToken(again.body.token)!.sub).toBe(decodeToken(first.body.token)!.sub);
  });

  it('says when signing in cancelled the account deletion, and keeps when', async () => {
    const email = uniqueEmail('leaving');
    const account = { sub: 'sub-leaving', email, email_verified: true, given_name: 'Lerato', family_name: 'M' };
    expect((await signIn(account)).body.deletionCancelled).toBeUndefined();
    const user = (await userByEmail(email))!;
    await scheduleDeletion(t.app.services, user.id);
    const back = await signIn(account, { gToken: null });
    expect(back.status).toBe(200);
    expect(back.body.deletionCancelled).toBe(true);
    const me = await t.gql('{ me { deletionCancelledAt } }', {}, back.body.token);
    expect(me.data.me.deletionCancelledAt).toEqual(expect.any(String));
    expect((await signIn(account, { gToken: null })).body.deletionCancelled).toBeUndefined();
  });

  it('links an existing password account with the same verified email', async () => {
    const email = uniqueEmail('linked');
    await register(t, { username: email });
    const r = await signIn({ sub: 'sub-linked', email, email_verified: true }, { gToken: null });
    expect(r.status).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ oidc_subject: 'sub-linked', activated_at: expect.any(Date) });
    expect((await login(t, email)).status).toBe(200);
  });

  it('refuses an unverified email, changing nothing', async () => {
    const email = uniqueEmail('unverified');
    const r = await signIn({ sub: 'sub-unverified', email, email_verified: false });
    expect(r).toEqual({
      status: 401,
      body: {
        error: ERROR_TEXTS.googleLoginFailed,
        code: ERROR_CODES.UNAUTHENTICATED,
        message: ERROR_TEXTS.googleLoginFailed,
      },
    });
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('needs the human-check token (gToken) to create a new account', async () => {
    const email = uniqueEmail('bot');
    const r = await signIn({ sub: 'sub-bot', email, email_verified: true }, { gToken: 'wrong' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(ERROR_CODES.HUMAN_CHECK_FAILED);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it('refuses a forged state, a state from elsewhere and a replayed code', async () => {
    issuer.state.next = { sub: 'sub-replay', email: uniqueEmail('replay'), email_verified: true };
    const { url } = await startSignIn();
    const { code, state } = await authorize(url);
    expect((await complete({ code, state: `${state.slice(0, -4)}AAAA`, gToken: DEV_TURNSTILE_TOKEN })).status).toBe(
      401,
    );
    expect((await complete({ code, state: 'not-a-state', gToken: DEV_TURNSTILE_TOKEN })).status).toBe(401);
    expect((await complete({ code, state, gToken: DEV_TURNSTILE_TOKEN })).status).toBe(200);
    expect((await complete({ code, state, gToken: DEV_TURNSTILE_TOKEN })).status).toBe(401);
    expect((await complete({ state })).status).toBe(400);
  });

  it('carries an invite through the round trip: the new Google user joins the inviting company', async () => {
    const admin = await seedUser(t.app);
    const email = uniqueEmail('invited');
    await t.gql(
      'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id } }',
      { input: { email, companyId: admin.companyId } },
      admin.token,
    );
    const inviteToken = tokenFromLink((await waitForMail(t, email, /invited/)).links[0]!, 'inviteToken');
    const r = await signIn(
      { sub: 'sub-invited', email, email_verified: true, name: 'Kagiso Molefe' },
      { query: `?inviteToken=${encodeURIComponent(inviteToken)}` },
    );
    expect(r.status).toBe(200);
    expect(await userByEmail(email)).toMatchObject({ company_id: admin.company.id, role: 'USER' });
    const invite = await t.app.services.db
      .selectFrom('team_invites')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(invite.accepted).toBe(true);
  });
});

describe('Google sign-in without settings', () => {
  it('answers 503 SERVICE_NOT_CONFIGURED', async () => {
    const t = await startTestApp('pglite');
    try {
      const res = await fetch(`${t.url}/auth/google/user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'c', state: 's' }),
      });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { code: string }).code).toBe(ERROR_CODES.SERVICE_NOT_CONFIGURED);
    } finally {
      await t.stop();
    }
  });
});
