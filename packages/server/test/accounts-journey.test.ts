/** The whole account journey over the real HTTP API, one step per test. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TEXTS, FREE_TRIAL_PLAN_NAME, ROLES, decodeToken } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { PASSWORD, login, register, tokenFromLink, uniqueEmail, waitForMail } from './helpers/accounts.js';

const TEAM_QUERY = `query Team($count: Int = 100, $cursor: String) {
  me { user { id company { id name invites(first: $count, after: $cursor) {
    edges { cursor node { id email accepted createdAt expiresAt user { id username isAdmin role monthlyActiveTours monthlyUploadedTours topFiveTours { id title } profile { name surname } } } }
    pageInfo { hasNextPage endCursor }
  } } } }
}`;

describe.each(DB_KINDS)('account journey on %s', (kind) => {
  let t: TestApp;
  const owner = uniqueEmail('owner');
  const mate = uniqueEmail('mate');
  let ownerToken = '';
  let mateToken = '';
  let companyId = '';
  let inviteToken = '';
  let mateUserId = '';

  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('signs up a new user with a company in en_ZA', async () => {
    const r = await register(t, { username: `  ${owner.toUpperCase()} `, referredBy: 'agent-007' });
    expect(r.errors).toBeUndefined();
    expect(r.data.userRegister.username).toBe(owner);
  });

  it('keeps the activation mail in the development outbox (table and /dev/outbox.json)', async () => {
    const mail = await waitForMail(t, owner, /Activate your Roomwalk account/);
    expect(mail.links[0]).toMatch(new RegExp(`^${t.url}/account/activate\\?token=`));
    expect(mail.text_body).toContain(mail.links[0]);
    const listed = (await (await fetch(`${t.url}/dev/outbox.json`)).json()) as Array<{
      to_address: string;
      links: string[];
    }>;
    expect(listed.find((m) => m.to_address === owner)?.links).toEqual(mail.links);
  });

  it('lets the user log in before activation, shown as not activated and without a licence', async () => {
    const { status, body } = await login(t, owner);
    expect(status).toBe(200);
    const r = await t.gql('{ me { user { activated company { license { planName } } } } }', {}, body.access_token);
    expect(r.data.me.user).toEqual({ activated: false, company: { license: null } });
  });

  it('activates through the mailed token and grants the Free Trial licence', async () => {
    const mail = await waitForMail(t, owner, /Activate/);
    const r = await t.gql('mutation($token: String!) { userActivation(token: $token) { id username activated } }', {
      token: tokenFromLink(mail.links[0]!),
    });
    expect(r.errors).toBeUndefined();
    expect(r.data.userActivation).toMatchObject({ username: owner, activated: true });
  });

  it('answers a second click on the activation link with "already active", not a failure', async () => {
    const mail = await waitForMail(t, owner, /Activate/);
    const r = await t.gql('mutation($token: String!) { userActivation(token: $token) { id } }', {
      token: tokenFromLink(mail.links[0]!),
    });
    expect(r.errors?.[0]).toMatchObject({
      message: ERROR_TEXTS.accountAlreadyActive,
      extensions: { code: ERROR_CODES.ACCOUNT_ALREADY_ACTIVE },
    });
    // An unknown token is still just invalid.
    const unknown = await t.gql('mutation($token: String!) { userActivation(token: $token) { id } }', {
      token: 'x'.repeat(43),
    });
    expect(unknown.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.INVALID_TOKEN);
  });

  it('logs in with /oauth/token and gets a JWT with roles and exp', async () => {
    const { status, body } = await login(t, owner, PASSWORD);
    expect(status).toBe(200);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
    const claims = decodeToken(body.access_token)!;
    expect(claims.roles).toEqual([ROLES.free, ROLES.admin]);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    ownerToken = body.access_token;
  });

  it('reads me.user with profile, company, licence and invites', async () => {
    const r = await t.gql(
      `{ me { user { id username isAdmin role profile { name surname email contactNumber profileImageURL } company { id name countrycode referredby logoimageurl license { planName quantity uploadLimit monthlyActiveTours monthlyUploadedTours } invites { edges { node { id } } } } } } }`,
      {},
      ownerToken,
    );
    expect(r.errors).toBeUndefined();
    const u = r.data.me.user;
    expect(u).toMatchObject({ username: owner, isAdmin: true, role: 'ADMIN' });
    expect(u.profile).toEqual({
      name: 'Thandi',
      surname: 'Nkosi',
      email: owner,
      contactNumber: '+27 821234567',
      profileImageURL: null,
    });
    expect(u.company).toMatchObject({
      countrycode: 'en_ZA',
      referredby: 'agent-007',
      logoimageurl: null,
      invites: { edges: [] },
    });
    expect(u.company.license).toEqual({
      planName: FREE_TRIAL_PLAN_NAME,
      quantity: 1,
      uploadLimit: 2,
      monthlyActiveTours: 0,
      monthlyUploadedTours: 0,
    });
    companyId = u.company.id;
  });

  it('edits the profile (contact number saved as +code national)', async () => {
    const r = await t.gql(
      'mutation($input: UserSaveInput!) { userSave(input: $input) { name surname email contactNumber } }',
      { input: { name: ' Thandiwe ', surname: 'Nkosi-Dlamini', contactNumber: '+27 (0)82 555 1234' } },
      ownerToken,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.userSave).toEqual({
      name: 'Thandiwe',
      surname: 'Nkosi-Dlamini',
      email: owner,
      contactNumber: '+27 825551234',
    });
  });

  it('edits the company', async () => {
    const r = await t.gql(
      'mutation($input: CompanySaveInput!) { companySave(input: $input) { name address vatno logoimageurl countrycode } }',
      { input: { name: 'Nkosi Realty', address: '1 Long Street, Cape Town', vatNo: '4123456789' } },
      ownerToken,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.companySave).toEqual({
      name: 'Nkosi Realty',
      address: '1 Long Street, Cape Town',
      vatno: '4123456789',
      logoimageurl: null,
      countrycode: 'en_ZA',
    });
  });

  it('invites a teammate, who gets a mail with the sign-up link carrying inviteToken', async () => {
    const r = await t.gql(
      'mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id email accepted expiresAt } }',
      { input: { email: mate, companyId } },
      ownerToken,
    );
    expect(r.errors).toBeUndefined();
    expect(r.data.inviteMember).toMatchObject({ email: mate, accepted: false });
    const mail = await waitForMail(t, mate, /invited you to Nkosi Realty/);
    expect(mail.links[0]).toMatch(new RegExp(`^${t.url}/signup\\?inviteToken=`));
    inviteToken = tokenFromLink(mail.links[0]!, 'inviteToken');
  });

  it('the teammate signs up through the invite and joins the company as a standard user', async () => {
    const r = await register(t, { username: mate, name: 'Sipho', surname: 'Mokoena', inviteToken });
    expect(r.errors).toBeUndefined();
    mateUserId = r.data.userRegister.id;
    const mail = await waitForMail(t, mate, /Activate/);
    await t.gql('mutation($token: String!) { userActivation(token: $token) { id } }', {
      token: tokenFromLink(mail.links[0]!),
    });
    const { body } = await login(t, mate);
    mateToken = body.access_token;
    expect(decodeToken(mateToken)!.roles).toEqual([ROLES.free]);
    const me = await t.gql('{ me { user { role company { id name license { planName } } } } }', {}, mateToken);
    expect(me.data.me.user).toEqual({
      role: 'USER',
      company: { id: companyId, name: 'Nkosi Realty', license: { planName: FREE_TRIAL_PLAN_NAME } },
    });
  });

  it('shows the accepted teammate in the team query with monthly counts and top five tours', async () => {
    const db = t.app.services.db;
    const mateRow = await db.selectFrom('users').selectAll().where('username', '=', mate).executeTakeFirstOrThrow();
    await db
      .insertInto('tours')
      .values({
        company_id: mateRow.company_id,
        owner_id: mateRow.id,
        title: 'Sea Point flat',
        status: 'PROCESSED',
        views: 12,
      })
      .execute();
    const r = await t.gql(TEAM_QUERY, {}, ownerToken);
    expect(r.errors).toBeUndefined();
    const edges = r.data.me.user.company.invites.edges;
    expect(edges).toHaveLength(1);
    expect(edges[0].cursor).toEqual(expect.any(String));
    expect(edges[0].node).toMatchObject({
      email: mate,
      accepted: true,
      user: {
        id: mateUserId,
        username: mate,
        isAdmin: false,
        role: 'USER',
        monthlyActiveTours: 1,
        monthlyUploadedTours: 0,
        topFiveTours: [{ title: 'Sea Point flat' }],
        profile: { name: 'Sipho', surname: 'Mokoena' },
      },
    });
    expect(r.data.me.user.company.invites.pageInfo).toEqual({ hasNextPage: false, endCursor: edges[0].cursor });
  });

  it('promotes the teammate to admin', async () => {
    const r = await t.gql(
      'mutation($id: ID!) { makeAdminMember(userId: $id) { success } }',
      { id: mateUserId },
      ownerToken,
    );
    expect(r.data.makeAdminMember).toEqual({ success: true });
    const team = await t.gql(TEAM_QUERY, {}, ownerToken);
    expect(team.data.me.user.company.invites.edges[0].node.user).toMatchObject({ isAdmin: true, role: 'ADMIN' });
    const { body } = await login(t, mate);
    expect(decodeToken(body.access_token)!.roles).toEqual([ROLES.free, ROLES.admin]);
  });

  it('demotes the teammate again', async () => {
    const r = await t.gql(
      'mutation($id: ID!) { revokeAdminMember(userId: $id) { success } }',
      { id: mateUserId },
      ownerToken,
    );
    expect(r.data.revokeAdminMember).toEqual({ success: true });
    const team = await t.gql(TEAM_QUERY, {}, ownerToken);
    expect(team.data.me.user.company.invites.edges[0].node.user).toMatchObject({ isAdmin: false, role: 'USER' });
  });
});
