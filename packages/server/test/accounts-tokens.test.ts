/** Activation, password-reset and invite tokens: random, stored hashed, single use, expiring. */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { ERROR_CODES, ERROR_TEXTS, VALIDATION, decodeToken } from '@roomwalk/shared';
import { TOKEN_TTL_MS } from '../src/auth/one-time-tokens.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import {
  PASSWORD,
  login,
  register,
  signUpActivated,
  tokenFromLink,
  uniqueEmail,
  waitForMail,
} from './helpers/accounts.js';

const ACTIVATE = 'mutation($token: String!) { userActivation(token: $token) { id username activated } }';
const RESEND = 'mutation($email: String!) { userActivationEmailResend(email: $email) { success } }';
const REQUEST_RESET =
  'mutation($input: UserRequestPasswordResetInput!) { userRequestPasswordReset(input: $input) { success } }';
const RESET = 'mutation($input: UserPasswordResetInput!) { userPasswordReset(input: $input) { username } }';
const INVITE = 'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id email } }';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe.each(DB_KINDS)('one-time tokens on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterAll(async () => {
    await t?.stop();
  });

  const db = () => t.app.services.db;
  const licenseOf = async (email: string) => {
    const u = await db().selectFrom('users').selectAll().where('username', '=', email).executeTakeFirstOrThrow();
    return db().selectFrom('licenses').selectAll().where('company_id', '=', u.company_id).executeTakeFirst();
  };

  it('stores only the SHA-256 of a 256-bit activation token, valid for 7 days', async () => {
    const email = uniqueEmail('act');
    await register(t, { username: email });
    const token = tokenFromLink((await waitForMail(t, email, /Activate/)).links[0]!);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const row = await db()
      .selectFrom('one_time_tokens')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(row.purpose).toBe('activation');
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeCloseTo(
      TOKEN_TTL_MS.activation,
      -4,
    );
    const all = await db().selectFrom('one_time_tokens').select('token_hash').execute();
    expect(all.some((r) => r.token_hash === token)).toBe(false);
  });

  it('activates once; a second use says the account is already active and changes nothing', async () => {
    const email = uniqueEmail('once');
    await register(t, { username: email });
    const token = tokenFromLink((await waitForMail(t, email, /Activate/)).links[0]!);
    expect((await t.gql(ACTIVATE, { token })).data.userActivation).toMatchObject({ username: email, activated: true });
    expect((await licenseOf(email))?.plan_id).toBe('free');
    const again = await t.gql(ACTIVATE, { token });
    expect(again.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.accountAlreadyActive,
      extensions: { code: ERROR_CODES.ACCOUNT_ALREADY_ACTIVE },
    });
    expect((await licenseOf(email))?.plan_id).toBe('free');
  });

  it('refuses an expired or unknown activation token and grants nothing', async () => {
    const email = uniqueEmail('expired');
    await register(t, { username: email });
    const token = tokenFromLink((await waitForMail(t, email, /Activate/)).links[0]!);
    await db()
      .updateTable('one_time_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect((await t.gql(ACTIVATE, { token })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
    expect((await t.gql(ACTIVATE, { token: 'x'.repeat(43) })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.INVALID_TOKEN,
    );
    expect(await licenseOf(email)).toBeUndefined();
    const u = await db()
      .selectFrom('users')
      .select('activated_at')
      .where('username', '=', email)
      .executeTakeFirstOrThrow();
    expect(u.activated_at).toBeNull();
  });

  it('resends the activation mail to a not-activated account only, always answering success', async () => {
    const email = uniqueEmail('resend');
    await register(t, { username: email });
    await waitForMail(t, email, /Activate/);
    expect((await t.gql(RESEND, { email })).data.userActivationEmailResend).toEqual({ success: true });
    const second = await waitForMail(t, email, /Activate/, 1);
    expect((await t.gql(ACTIVATE, { token: tokenFromLink(second.links[0]!) })).errors).toBeUndefined();
    const nobody = uniqueEmail('nobody');
    expect((await t.gql(RESEND, { email: nobody })).data.userActivationEmailResend).toEqual({ success: true });
    expect((await t.gql(RESEND, { email: 'nope' })).errors?.[0]?.message).toBe(VALIDATION.emailInvalid);
  });

  it('resets a password with a 60-minute, single-use link; unknown emails get success and no mail', async () => {
    const email = uniqueEmail('reset');
    await signUpActivated(t, { username: email });
    const nobody = uniqueEmail('ghost');
    expect((await t.gql(REQUEST_RESET, { input: { email: nobody } })).data.userRequestPasswordReset).toEqual({
      success: true,
    });
    expect(
      (await t.gql(REQUEST_RESET, { input: { email: email.toUpperCase() } })).data.userRequestPasswordReset,
    ).toEqual({ success: true });
    const mail = await waitForMail(t, email, /Reset your Roomwalk password/);
    expect(mail.links[0]).toMatch(new RegExp(`^${t.url}/password/reset\\?token=`));
    const token = tokenFromLink(mail.links[0]!);
    const row = await db()
      .selectFrom('one_time_tokens')
      .selectAll()
      .where('token_hash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeCloseTo(60 * 60 * 1000, -4);

    const weak = await t.gql(RESET, { input: { token, newPassword: 'weak' } });
    expect(weak.errors?.[0]?.message).toBe(VALIDATION.passwordMin);
    const empty = await t.gql(RESET, { input: { token, newPassword: '' } });
    expect(empty.errors?.[0]?.message).toBe(VALIDATION.newPasswordRequired);

    const ok = await t.gql(RESET, { input: { token, newPassword: 'NewSecret456' } });
    expect(ok.data.userPasswordReset).toEqual({ username: email });
    expect((await login(t, email, PASSWORD)).status).toBe(401);
    expect((await login(t, email, 'NewSecret456')).status).toBe(200);
    expect((await t.gql(RESET, { input: { token, newPassword: 'Another789x' } })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.INVALID_TOKEN,
    );
    const ghostMails = await db().selectFrom('mail_outbox').select('id').where('to_address', '=', nobody).execute();
    expect(ghostMails).toHaveLength(0);
  });

  it('ends every session issued before a password reset', async () => {
    const email = uniqueEmail('sessions');
    const { token } = await signUpActivated(t, { username: email });
    const claims = decodeToken(token)!;
    const key = new TextEncoder().encode(t.app.config.jwtSecret);
    const earlier = Math.floor(Date.now() / 1000) - 60;
    const oldSession = await new SignJWT({ roles: claims.roles, cid: claims.cid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.sub))
      .setIssuedAt(earlier)
      .setExpirationTime(earlier + 3600)
      .sign(key);
    expect((await t.gql('{ me { user { username } } }', {}, oldSession)).status).toBe(200);
    await t.gql(REQUEST_RESET, { input: { email } });
    const reset = tokenFromLink((await waitForMail(t, email, /Reset/)).links[0]!);
    expect((await t.gql(RESET, { input: { token: reset, newPassword: 'NewSecret456' } })).errors).toBeUndefined();
    const refused = await t.gql('{ me { user { username } } }', {}, oldSession);
    expect(refused.status).toBe(401);
    const fresh = (await login(t, email, 'NewSecret456')).body.access_token;
    expect((await t.gql('{ me { user { username } } }', {}, fresh)).data.me.user.username).toBe(email);
  });

  it('refuses an expired reset link and keeps the old password; a used reset retires the other links', async () => {
    const email = uniqueEmail('reset2');
    await signUpActivated(t, { username: email });
    await t.gql(REQUEST_RESET, { input: { email } });
    await t.gql(REQUEST_RESET, { input: { email } });
    const first = tokenFromLink((await waitForMail(t, email, /Reset/)).links[0]!);
    const second = tokenFromLink((await waitForMail(t, email, /Reset/, 1)).links[0]!);
    await db()
      .updateTable('one_time_tokens')
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where('token_hash', '=', sha256(first))
      .execute();
    expect(
      (await t.gql(RESET, { input: { token: first, newPassword: 'NewSecret456' } })).errors?.[0]?.extensions?.code,
    ).toBe(ERROR_CODES.INVALID_TOKEN);
    expect((await login(t, email)).status).toBe(200);
    expect((await t.gql(RESET, { input: { token: second, newPassword: 'NewSecret456' } })).errors).toBeUndefined();
    await t.gql(REQUEST_RESET, { input: { email } });
    const third = tokenFromLink((await waitForMail(t, email, /Reset/, 2)).links[0]!);
    // A reset token never activates anything else: it is only good for its purpose.
    expect((await t.gql(ACTIVATE, { token: third })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
  });

  describe('invites', () => {
    async function invite(email: string) {
      const admin = await seedUser(t.app, { plan: 'basic' });
      const r = await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
      expect(r.errors).toBeUndefined();
      const token = tokenFromLink((await waitForMail(t, email, /invited you/)).links[0]!, 'inviteToken');
      return { admin, token, inviteId: r.data.inviteMember.id as string };
    }

    it('stores the invite token hashed with a 14-day expiry; it works once', async () => {
      const email = uniqueEmail('inv');
      const { admin, token } = await invite(email);
      const row = await db()
        .selectFrom('team_invites')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.token_hash).toBe(sha256(token));
      expect(new Date(row.expires_at).getTime() - new Date(row.created_at).getTime()).toBeCloseTo(
        TOKEN_TTL_MS.invite,
        -4,
      );
      const r = await register(t, { username: email, inviteToken: token });
      expect(r.errors).toBeUndefined();
      const user = await db().selectFrom('users').selectAll().where('username', '=', email).executeTakeFirstOrThrow();
      expect(user).toMatchObject({ company_id: admin.company.id, role: 'USER' });
      // The token is spent: nobody else can join with it.
      const other = await register(t, { username: uniqueEmail('other'), inviteToken: token });
      expect(other.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
    });

    it('refuses an expired, revoked or foreign-address invite and creates nothing', async () => {
      const expired = uniqueEmail('exp');
      const a = await invite(expired);
      await db()
        .updateTable('team_invites')
        .set({ expires_at: sql`now() - interval '1 second'` })
        .where('email', '=', expired)
        .execute();
      const revoked = uniqueEmail('rev');
      const b = await invite(revoked);
      expect(
        (
          await t.gql(
            'mutation($id: ID!) { revokeMemberInvite(inviteId: $id) { success } }',
            { id: b.inviteId },
            b.admin.token,
          )
        ).data.revokeMemberInvite,
      ).toEqual({ success: true });
      const other = uniqueEmail('wrongaddr');
      const c = await invite(uniqueEmail('right'));
      for (const [username, token] of [
        [expired, a.token],
        [revoked, b.token],
        [other, c.token],
      ] as const) {
        const users = await db().selectFrom('users').select('id').execute();
        const companies = await db().selectFrom('companies').select('id').execute();
        const r = await register(t, { username, inviteToken: token });
        expect(r.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
        expect(await db().selectFrom('users').select('id').execute()).toHaveLength(users.length);
        expect(await db().selectFrom('companies').select('id').execute()).toHaveLength(companies.length);
      }
    });
  });
});
