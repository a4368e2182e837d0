/** Team rules: who may invite, revoke, promote and demote; the last admin stays; the invites connection pages. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, NOTICES, VALIDATION } from '@roomwalk/shared';
import { TEAM_TEXTS } from '../src/services/team.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { register, tokenFromLink, uniqueEmail, waitForMail } from './helpers/accounts.js';

const INVITE = 'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id email accepted } }';
const REVOKE = 'mutation($id: ID!) { revokeMemberInvite(inviteId: $id) { success } }';
const PROMOTE = 'mutation($id: ID!) { makeAdminMember(userId: $id) { success } }';
const DEMOTE = 'mutation($id: ID!) { revokeAdminMember(userId: $id) { success } }';
const INVITES =
  'query($count: Int, $cursor: String) { me { user { company { invites(first: $count, after: $cursor) { edges { cursor node { email accepted } } pageInfo { hasNextPage endCursor } } } } } }';

describe.each(DB_KINDS)('team on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterAll(async () => {
    await t?.stop();
  });
  const db = () => t.app.services.db;
  const invitesOf = (companyId: string) =>
    db().selectFrom('team_invites').selectAll().where('company_id', '=', companyId).orderBy('created_at').execute();
  const roleOf = async (userId: string) =>
    (await db().selectFrom('users').select('role').where('id', '=', userId).executeTakeFirstOrThrow()).role;

  it('lets an admin invite on every plan, the Free Trial included', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const email = uniqueEmail('free');
    const r = await t.gql(INVITE, { input: { email: email.toUpperCase(), companyId: admin.companyId } }, admin.token);
    expect(r.data.inviteMember).toMatchObject({ email, accepted: false });
  });

  it('refuses a standard member, and another company, changing nothing', async () => {
    const admin = await seedUser(t.app);
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const stranger = await seedUser(t.app);
    const byMember = await t.gql(INVITE, { input: { email: uniqueEmail(), companyId: admin.companyId } }, member.token);
    expect(byMember.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.FORBIDDEN);
    const foreign = await t.gql(
      INVITE,
      { input: { email: uniqueEmail(), companyId: admin.companyId } },
      stranger.token,
    );
    expect(foreign.errors?.[0]).toMatchObject({
      message: NOTICES.unknownCompany,
      extensions: { code: ERROR_CODES.NOT_FOUND },
    });
    expect(await invitesOf(admin.company.id)).toHaveLength(0);
  });

  it('validates the invitee email and refuses existing accounts', async () => {
    const admin = await seedUser(t.app);
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const other = await seedUser(t.app);
    for (const [email, message] of [
      ['', VALIDATION.emailRequired],
      ['nope', VALIDATION.emailInvalid],
      [member.user.username, TEAM_TEXTS.alreadyMember],
      [other.user.username, TEAM_TEXTS.hasAccount],
    ]) {
      const r = await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
      expect(r.errors?.[0]).toMatchObject({ message, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
    }
    expect(await invitesOf(admin.company.id)).toHaveLength(0);
  });

  it('keeps the earlier link valid when the same address is invited again, listed once; accepting one retires the rest', async () => {
    const admin = await seedUser(t.app);
    const email = uniqueEmail('twice');
    await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
    await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
    const first = tokenFromLink((await waitForMail(t, email, /invited/)).links[0]!, 'inviteToken');
    const second = tokenFromLink((await waitForMail(t, email, /invited/, 1)).links[0]!, 'inviteToken');
    expect(first).not.toBe(second);
    const listed = await t.gql(INVITES, {}, admin.token);
    expect(listed.data.me.user.company.invites.edges.map((e: { node: { email: string } }) => e.node.email)).toEqual([
      email,
    ]);
    // The first mail's link ("valid for 14 days") still works.
    expect((await register(t, { username: email, inviteToken: first })).errors).toBeUndefined();
    const joined = await db()
      .selectFrom('users')
      .select('company_id')
      .where('username', '=', email)
      .executeTakeFirstOrThrow();
    expect(joined.company_id).toBe(admin.company.id);
    // Accepted once: the listing shows the accepted invite only, and the second link no longer opens a second account.
    const after = await t.gql(INVITES, {}, admin.token);
    expect(
      after.data.me.user.company.invites.edges.map((e: { node: { email: string; accepted: boolean } }) => e.node),
    ).toEqual([{ email, accepted: true }]);
    expect(
      (
        await db()
          .selectFrom('team_invites')
          .select(['accepted', 'revoked_at'])
          .where('company_id', '=', admin.company.id)
          .orderBy('created_at')
          .execute()
      ).map((i) => [i.accepted, i.revoked_at !== null]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('revoking the listed invite stops every link mailed to that address', async () => {
    const admin = await seedUser(t.app);
    const email = uniqueEmail('revall');
    await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
    const newest = (await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token)).data
      .inviteMember.id;
    const first = tokenFromLink((await waitForMail(t, email, /invited/)).links[0]!, 'inviteToken');
    expect((await t.gql(REVOKE, { id: newest }, admin.token)).data.revokeMemberInvite).toEqual({ success: true });
    expect((await t.gql(INVITES, {}, admin.token)).data.me.user.company.invites.edges).toEqual([]);
    expect((await register(t, { username: email, inviteToken: first })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.INVALID_TOKEN,
    );
  });

  it('revokes a pending invite (admins only); an accepted one cannot be revoked', async () => {
    const admin = await seedUser(t.app);
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const pending = (
      await t.gql(INVITE, { input: { email: uniqueEmail('p'), companyId: admin.companyId } }, admin.token)
    ).data.inviteMember.id;
    expect((await t.gql(REVOKE, { id: pending }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await t.gql(REVOKE, { id: pending }, admin.token)).data.revokeMemberInvite).toEqual({ success: true });
    expect((await t.gql(REVOKE, { id: pending }, admin.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await t.gql(INVITES, {}, admin.token)).data.me.user.company.invites.edges).toEqual([]);

    const email = uniqueEmail('acc');
    const acceptedId = (await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token)).data
      .inviteMember.id;
    await register(t, {
      username: email,
      inviteToken: tokenFromLink((await waitForMail(t, email, /invited/)).links[0]!, 'inviteToken'),
    });
    const r = await t.gql(REVOKE, { id: acceptedId }, admin.token);
    expect(r.errors?.[0]).toMatchObject({
      message: TEAM_TEXTS.inviteAccepted,
      extensions: { code: ERROR_CODES.CONFLICT },
    });
  });

  it('promotes and demotes as admin only, and never removes the last admin', async () => {
    const admin = await seedUser(t.app);
    const member = await seedUser(t.app, { companyId: admin.company.id });
    expect((await t.gql(PROMOTE, { id: admin.userId }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await t.gql(DEMOTE, { id: admin.userId }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );

    const last = await t.gql(DEMOTE, { id: admin.userId }, admin.token);
    expect(last.errors?.[0]).toMatchObject({
      message: TEAM_TEXTS.lastAdmin,
      extensions: { code: ERROR_CODES.CONFLICT },
    });
    expect(await roleOf(admin.user.id)).toBe('ADMIN');

    expect((await t.gql(PROMOTE, { id: member.userId }, admin.token)).data.makeAdminMember).toEqual({ success: true });
    // Roles are read fresh for every request, so the promotion counts at once, without a new token.
    expect((await t.gql(DEMOTE, { id: admin.userId }, member.token)).data.revokeAdminMember).toEqual({ success: true });
    expect(await roleOf(admin.user.id)).toBe('USER');
    expect((await t.gql(DEMOTE, { id: member.userId }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.CONFLICT,
    );
    expect(await roleOf(member.user.id)).toBe('ADMIN');
  });

  it('pages the invites connection with first and after (default page 100)', async () => {
    const admin = await seedUser(t.app);
    const emails = [uniqueEmail('a'), uniqueEmail('b'), uniqueEmail('c')];
    for (const email of emails) await t.gql(INVITE, { input: { email, companyId: admin.companyId } }, admin.token);
    const page1 = (await t.gql(INVITES, { count: 2 }, admin.token)).data.me.user.company.invites;
    expect(page1.edges.map((e: { node: { email: string } }) => e.node.email)).toEqual(emails.slice(0, 2));
    expect(page1.pageInfo.hasNextPage).toBe(true);
    const page2 = (await t.gql(INVITES, { count: 2, cursor: page1.pageInfo.endCursor }, admin.token)).data.me.user
      .company.invites;
    expect(page2.edges.map((e: { node: { email: string } }) => e.node.email)).toEqual(emails.slice(2));
    expect(page2.pageInfo.hasNextPage).toBe(false);
    const all = (await t.gql(INVITES, {}, admin.token)).data.me.user.company.invites;
    expect(all.edges).toHaveLength(3);
    const back = await t.gql(
      'query($c: String) { me { user { company { invites(last: 1, before: $c) { edges { node { email } } } } } } }',
      { c: all.edges[2].cursor },
      admin.token,
    );
    expect(back.data.me.user.company.invites.edges.map((e: { node: { email: string } }) => e.node.email)).toEqual([
      emails[1],
    ]);
    const bad = await t.gql(INVITES, { cursor: 'nonsense' }, admin.token);
    expect(bad.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
  });
});
