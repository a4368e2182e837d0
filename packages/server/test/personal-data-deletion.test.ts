/**
 * Deleting an account against the real app: the password confirms it (a wrong one changes nothing); the last admin of
 * a company that keeps other members is refused with the reason; a scheduled account is signed out, mailed the date,
 * and nothing goes before the grace period ends (clock moved); signing in cancels; after the grace period a member's
 * tours pass to the admin and the person's rows and files go; the last member takes the company, its tours, leads,
 * visits and every file on local storage with them; an account without a password confirms by a mailed link. A
 * visitor's receipt link deletes their lead after one click on its page, and their visits no longer lead to them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { hashPassword } from '../src/auth/passwords.js';
import { purgeAccount, sweepPersonalData } from '../src/services/personal-data/purge.js';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { login, PASSWORD, waitForMail } from './helpers/accounts.js';
import { insertTours } from './billing-helpers.js';
import { recordVisit } from './fixtures/visits.js';
import { LEAD_MUTATION, leadInput } from './fixtures/live-helpers.js';

const PREVIEW =
  'query { accountDeletionPreview { allowed refusal consequences companyToo tours graceDays deleteAfter needsPassword } }';
const REQUEST = 'mutation($p: String) { accountDeletionRequest(password: $p) { status deleteAfter } }';
const ME = 'query { me { user { username } } }';
const CANCELLED = 'query { me { deletionCancelledAt } }';
const DAY = 86_400_000;

describe.each(DB_KINDS)('account deletion on %s', (kind) => {
  let t: TestApp;
  const db = () => t.app.services.db;
  const storage = () => t.app.services.storage;
  const filesRoot = () => (storage() as unknown as { opts: { root: string } }).opts.root;
  const onDisk = (key: string) => fs.existsSync(path.join(filesRoot(), key));

  async function withPassword(u: SeededUser): Promise<SeededUser> {
    await db()
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', u.user.id)
      .execute();
    return u;
  }
  async function putFile(key: string) {
    await storage().put(key, Buffer.from(`bytes of ${key}`), 'application/octet-stream');
    expect(onDisk(key)).toBe(true);
  }
  const purgeAt = async (userId: string) =>
    new Date(
      (
        await db()
          .selectFrom('account_deletions')
          .select('purge_after')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).purge_after,
    );

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true });
  });
  afterAll(async () => t?.stop());

  it('refuses the last admin while others stay, and a wrong password, changing nothing', async () => {
    const admin = await withPassword(await seedUser(t.app, { name: 'Ada' }));
    const member = await withPassword(await seedUser(t.app, { companyId: admin.company.id }));
    const preview = await t.gql(PREVIEW, {}, admin.token);
    expect(preview.data.accountDeletionPreview).toMatchObject({
      allowed: false,
      companyToo: false,
      needsPassword: true,
    });
    expect(preview.data.accountDeletionPreview.refusal).toMatch(
      /only admin of .*Make one of them an admin on the Team page first/,
    );
    const refused = await t.gql(REQUEST, { p: PASSWORD }, admin.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);
    expect(refused.errors?.[0]?.message).toMatch(/Make one of them an admin on the Team page first/);

    const wrong = await t.gql(REQUEST, { p: 'not-my-password' }, member.token);
    expect(wrong.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.BAD_USER_INPUT);
    expect(wrong.errors?.[0]?.extensions?.fields).toEqual({ password: 'This password is not right.' });
    const none = await t.gql(REQUEST, {}, member.token);
    expect(none.errors?.[0]?.extensions?.fields).toEqual({ password: 'Enter your password to confirm.' });
    expect(
      await db().selectFrom('account_deletions').selectAll().where('company_id', '=', admin.company.id).execute(),
    ).toEqual([]);
    expect((await t.gql(ME, {}, member.token)).data.me.user.username).toBe(member.user.username);

    // With a second admin, the first may go.
    await db().updateTable('users').set({ role: 'ADMIN' }).where('id', '=', member.user.id).execute();
    expect((await t.gql(PREVIEW, {}, admin.token)).data.accountDeletionPreview.allowed).toBe(true);
  });

  it('a member leaves: signed out, mailed, kept through the grace period, then gone with their files; their tours pass to the admin', async () => {
    const admin = await withPassword(await seedUser(t.app, { name: 'Ada' }));
    const leaver = await withPassword(await seedUser(t.app, { companyId: admin.company.id, name: 'Lee' }));
    const [tourId] = (await insertTours(t.app, { companyId: admin.company.id, userId: leaver.user.id }, 1, {
      title: () => 'Lee Loft',
    })) as [string];
    const picture = `profiles/${leaver.user.id}/face.jpg`;
    await putFile(picture);
    await db()
      .updateTable('user_profiles')
      .set({ profile_image_key: picture })
      .where('user_id', '=', leaver.user.id)
      .execute();
    await db()
      .insertInto('feedback')
      .values({ user_id: leaver.user.id, name: 'Lee', email: leaver.user.username, comment: 'bye' })
      .execute();

    const preview = (await t.gql(PREVIEW, {}, leaver.token)).data.accountDeletionPreview;
    expect(preview).toMatchObject({ allowed: true, companyToo: false, tours: 1, graceDays: 30 });
    expect(preview.consequences).toMatch(/Your 1 tour stay with .* and pass to one of its admins/);
    const asked = await t.gql(REQUEST, { p: PASSWORD }, leaver.token);
    expect(asked.errors).toBeUndefined();
    expect(asked.data.accountDeletionRequest.status).toBe('SCHEDULED');
    expect(new Date(asked.data.accountDeletionRequest.deleteAfter).getTime() - Date.now()).toBeGreaterThan(29.9 * DAY);
    const mail = await waitForMail(t, leaver.user.username, /will be deleted on/);
    expect(mail.text_body).toContain('in 30 days');
    expect(mail.text_body).toContain('Sign in before');
    expect((await t.gql(ME, {}, leaver.token)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);

    // A day before the end of the grace period nothing goes.
    const due = await purgeAt(leaver.user.id);
    expect(await purgeAccount(t.app.services, leaver.user.id, new Date(due.getTime() - DAY))).toBeNull();
    expect(
      await db().selectFrom('users').select('id').where('id', '=', leaver.user.id).executeTakeFirst(),
    ).toBeDefined();

    const swept = await sweepPersonalData(t.app.services, new Date(due.getTime() + 60_000));
    expect(swept.accounts).toBeGreaterThanOrEqual(1);
    expect(
      await db().selectFrom('users').select('id').where('id', '=', leaver.user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(
      await db().selectFrom('user_profiles').select('id').where('user_id', '=', leaver.user.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await db().selectFrom('feedback').select('id').where('email', '=', leaver.user.username).execute()).toEqual(
      [],
    );
    expect(
      (await db().selectFrom('tours').select('owner_id').where('id', '=', tourId).executeTakeFirstOrThrow()).owner_id,
    ).toBe(admin.user.id);
    expect(onDisk(picture)).toBe(false);
    expect(await storage().head(picture)).toBeNull();
    await waitForMail(t, leaver.user.username, /has been deleted/);
  });

  it('the last member takes the company, its tours, leads, visits and files, after the grace period; signing in cancels', async () => {
    const owner = await withPassword(await seedUser(t.app, { name: 'Olu' }));
    const other = await seedUser(t.app, { name: 'Keep' });
    const [tourId] = (await insertTours(t.app, { companyId: owner.company.id, userId: owner.user.id }, 1, {
      title: () => 'Olu House',
      rooms: ['Kitchen'],
    })) as [string];
    const [keptTour] = (await insertTours(t.app, { companyId: other.company.id, userId: other.user.id }, 1, {
      title: () => 'Kept House',
    })) as [string];
    const keys = [
      `tours/${tourId}/v1/c0-high.mp4`,
      `tours/${tourId}/thumbs/poster.jpg`,
      `tours/${tourId}/reels/r1.mp4`,
      `companies/${owner.company.id}/logo.png`,
      `uploads/${tourId}-source.mp4`,
      `profiles/${owner.user.id}/me.jpg`,
    ];
    for (const k of keys) await putFile(k);
    await putFile(`tours/${keptTour}/v1/c0-high.mp4`);
    await db()
      .updateTable('tours')
      .set({ video_key: `uploads/${tourId}-source.mp4` })
      .where('id', '=', tourId)
      .execute();
    await db()
      .updateTable('companies')
      .set({ logo_key: `companies/${owner.company.id}/logo.png` })
      .where('id', '=', owner.company.id)
      .execute();
    await recordVisit(t.app.services, { tourId: `tour_${tourId}`, visitorId: 'visitor-of-olu-0001', secondsSpent: 30 });
    await db()
      .insertInto('tour_leads')
      .values({
        tour_id: tourId,
        name: 'Bea',
        surname: null,
        email: 'bea@example.com',
        contact_number: null,
        lead_type: 'CONTACT',
        ip: '192.0.2.1',
        visitor_id: 'visitor-of-olu-0001',
      })
      .execute();

    expect(await db().selectFrom('view_events').select('id').where('tour_id', '=', tourId).execute()).toHaveLength(1);
    const preview = (await t.gql(PREVIEW, {}, owner.token)).data.accountDeletionPreview;
    expect(preview).toMatchObject({ allowed: true, companyToo: true, tours: 1 });
    expect(preview.consequences).toMatch(
      /your company .*, its 1 tour with their pictures and clips, its leads and analytics will be deleted for good on .* \(in 30 days\)/,
    );
    expect((await t.gql(REQUEST, { p: PASSWORD }, owner.token)).data.accountDeletionRequest.status).toBe('SCHEDULED');

    // Signing in within the grace period cancels the deletion.
    const signedIn = await login(t, owner.user.username);
    expect(signedIn.status).toBe(200);
    expect(
      await db()
        .selectFrom('account_deletions')
        .select('user_id')
        .where('user_id', '=', owner.user.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    await waitForMail(t, owner.user.username, /will not be deleted/);
    await sweepPersonalData(t.app.services, new Date(Date.now() + 31 * DAY));
    expect(
      await db().selectFrom('companies').select('id').where('id', '=', owner.company.id).executeTakeFirst(),
    ).toBeDefined();
    expect(onDisk(keys[0]!)).toBe(true);

    const again = await t.gql(REQUEST, { p: PASSWORD }, signedIn.body.access_token);
    expect(again.data.accountDeletionRequest.status).toBe('SCHEDULED');
    const due = await purgeAt(owner.user.id);
    expect((await sweepPersonalData(t.app.services, new Date(due.getTime() + 60_000))).accounts).toBeGreaterThanOrEqual(
      1,
    );

    expect(await db().selectFrom('tours').select('id').where('id', '=', tourId).execute()).toEqual([]);
    for (const table of ['view_events', 'tour_visitors', 'tour_leads', 'markers', 'tour_visit_daily'] as const) {
      const rows = await db().selectFrom(table).select('tour_id').where('tour_id', '=', tourId).execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      await db().selectFrom('companies').select('id').where('id', '=', owner.company.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await db().selectFrom('users').select('id').where('company_id', '=', owner.company.id).execute()).toEqual(
      [],
    );
    for (const k of keys) expect(onDisk(k), k).toBe(false);
    expect(fs.existsSync(path.join(filesRoot(), `tours/${tourId}`))).toBe(false);
    // Another company's tour and file are untouched.
    expect(await db().selectFrom('tours').select('id').where('id', '=', keptTour).executeTakeFirst()).toBeDefined();
    expect(onDisk(`tours/${keptTour}/v1/c0-high.mp4`)).toBe(true);
    const done = await waitForMail(t, owner.user.username, /has been deleted/);
    expect(done.text_body).toContain('This is the last mail we send you.');
  });

  it('a session issued in the same second as the deletion request, before it, stays signed out after the deletion is cancelled', async () => {
    const sam = await withPassword(await seedUser(t.app, { name: 'Sam' }));
    const early = await login(t, sam.user.username);
    expect(early.status).toBe(200);
    const earlyToken = early.body.access_token as string;
    const { iat } = JSON.parse(Buffer.from(earlyToken.split('.')[1]!, 'base64url').toString()) as { iat: number };
    expect((await t.gql(ME, {}, earlyToken)).data.me.user.username).toBe(sam.user.username);
    const asked = await t.gql(REQUEST, { p: PASSWORD }, earlyToken);
    expect(asked.data.accountDeletionRequest.status).toBe('SCHEDULED');
    // Both within one second, as a quick click after signing in makes them: the request's moment is put in the
    // session's own second, after it was issued.
    await sql`update users set credentials_changed_at = to_timestamp(${iat} + 0.9) where id = ${sam.user.id}`.execute(
      db(),
    );
    // Signing in again cancels the deletion and gives a session; the earlier one stays refused.
    const again = await login(t, sam.user.username);
    expect(again.status).toBe(200);
    expect(
      await db()
        .selectFrom('account_deletions')
        .select('user_id')
        .where('user_id', '=', sam.user.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    expect((await t.gql(ME, {}, again.body.access_token)).data.me.user.username).toBe(sam.user.username);
    expect((await t.gql(ME, {}, earlyToken)).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
    // The sign-in answer says the deletion was cancelled, and `me` keeps when (the Your data card shows it).
    expect(again.body.deletion_cancelled).toBe(true);
    const cancelledAt = (await t.gql(CANCELLED, {}, again.body.access_token)).data.me.deletionCancelledAt as string;
    expect(Math.abs(Date.parse(cancelledAt) - Date.now())).toBeLessThan(10 * 60_000);
    // Signing in once more, with nothing to cancel, says nothing and keeps the date.
    const third = await login(t, sam.user.username);
    expect(third.body.deletion_cancelled).toBeUndefined();
    expect((await t.gql(CANCELLED, {}, third.body.access_token)).data.me.deletionCancelledAt).toBe(cancelledAt);
  });

  it('refuses the last member while a paid plan still renews', async () => {
    const payer = await withPassword(await seedUser(t.app, { plan: 'pro' }));
    await db()
      .updateTable('licenses')
      .set({ subscription_id: 'sub_123' })
      .where('company_id', '=', payer.company.id)
      .execute();
    const res = await t.gql(REQUEST, { p: PASSWORD }, payer.token);
    expect(res.errors?.[0]?.message).toMatch(/Cancel it under Manage billing first/);
  });

  it('an account without a password confirms by a mailed link: a page, then one click; an old link says it expired', async () => {
    const google = await seedUser(t.app, { name: 'Gia' });
    const asked = await t.gql(REQUEST, {}, google.token);
    expect(asked.data.accountDeletionRequest).toEqual({ status: 'CONFIRMATION_SENT', deleteAfter: null });
    const mail = await waitForMail(t, google.user.username, /Confirm the deletion/);
    const link = mail.links[0]!;
    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Your account will be deleted in 30 days');
    expect(
      await db()
        .selectFrom('account_deletions')
        .select('user_id')
        .where('user_id', '=', google.user.id)
        .executeTakeFirst(),
    ).toBeUndefined();
    const u = new URL(link);
    const confirmed = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: u.searchParams.toString(),
    });
    expect(confirmed.status).toBe(200);
    expect(await confirmed.text()).toContain('Your account will be deleted on');
    expect(
      await db()
        .selectFrom('account_deletions')
        .select('user_id')
        .where('user_id', '=', google.user.id)
        .executeTakeFirst(),
    ).toBeDefined();

    const forged = new URL(link);
    forged.searchParams.set('s', 'x'.repeat(43));
    expect((await fetch(forged)).status).toBe(404);
    const old = new URL(link);
    const { deletionConfirmLink } = await import('../src/services/personal-data/account-deletion.js');
    const stale = (await deletionConfirmLink(t.app.services, google.user.id, Date.now() - 2 * DAY))!;
    expect(old.pathname).toBe(new URL(stale).pathname);
    const expired = await fetch(stale);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This link has expired.');
  });
});

describe.each(DB_KINDS)('a visitor deletes their lead on %s', (kind) => {
  let t: TestApp;
  let agent: SeededUser;
  let tourId: string;

  beforeAll(async () => {
    t = await startTestApp(kind, { RATE_LIMIT_DISABLED: true, ICE_SERVERS: '[]' });
    agent = await seedUser(t.app, { name: 'Anna' });
    [tourId] = (await insertTours(t.app, { companyId: agent.company.id, userId: agent.user.id }, 1, {
      title: () => 'Harbour View',
      rooms: ['Kitchen'],
    })) as [string];
  });
  afterAll(async () => t?.stop());

  it('mails the visitor a receipt whose link, after one click on its page, deletes the lead and unlinks their visits', async () => {
    const db = t.app.services.db;
    await recordVisit(t.app.services, { tourId: `tour_${tourId}`, visitorId: 'visitor-vera-000001', secondsSpent: 20 });
    const created = await t.gql(LEAD_MUTATION, {
      input: leadInput(`tour_${tourId}`, {
        leadType: 'CONTACT',
        email: 'vera.visitor@example.com',
        visitorId: 'visitor-vera-000001',
      }),
    });
    expect(created.errors).toBeUndefined();
    const leadId = created.data.tourLeadCreate.tourLead.id as string;
    const visitsBefore = await db
      .selectFrom('view_events')
      .select(['visitor_id'])
      .where('tour_id', '=', tourId)
      .execute();

    // The lead.created events a Pro company's endpoints would get (stored as emitWebhookEvent stores them).
    const event = (id: string) => ({
      company_id: agent.company.id,
      type: 'lead.created',
      payload: JSON.stringify({
        type: 'lead.created',
        timestamp: new Date().toISOString(),
        api_version: '1',
        data: { lead: { id, email: 'vera.visitor@example.com' } },
      }),
    });
    await db
      .insertInto('webhook_events')
      .values([event(leadId), event('lead_00000000-0000-4000-8000-000000000000')])
      .execute();

    const receipt = await waitForMail(t, 'vera.visitor@example.com', /Your details were sent to Anna/);
    const link = receipt.links[0]!;
    expect(receipt.text_body).toContain('Harbour View');

    // A forged signature shows an error and deletes nothing.
    const forged = new URL(link);
    forged.searchParams.set('s', 'A'.repeat(43));
    expect((await fetch(forged)).status).toBe(404);
    const forgedPost = await fetch(forged.origin + forged.pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `s=${'A'.repeat(43)}`,
    });
    expect(forgedPost.status).toBe(404);

    // Opening the link (a mail scanner does) deletes nothing; the button does.
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Delete my details');
    expect(
      await db.selectFrom('tour_leads').select('id').where('email', '=', 'vera.visitor@example.com').executeTakeFirst(),
    ).toBeDefined();
    const s = new URL(link).searchParams.get('s')!;
    const done = await fetch(link.split('?')[0]!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `s=${encodeURIComponent(s)}`,
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your details are deleted.');

    expect(
      await db.selectFrom('tour_leads').select('id').where('email', '=', 'vera.visitor@example.com').execute(),
    ).toEqual([]);
    const node = await t.gql('query($id: ID!) { node(id: $id) { id } }', { id: leadId }, agent.token);
    expect(node.data.node).toBeNull();
    // The visits are still counted, but no visit carries the visitor id the lead named.
    const visitsAfter = await db
      .selectFrom('view_events')
      .select(['visitor_id'])
      .where('tour_id', '=', tourId)
      .execute();
    expect(visitsAfter).toHaveLength(visitsBefore.length);
    expect(visitsAfter.some((v) => v.visitor_id === 'visitor-vera-000001')).toBe(false);
    expect(
      await db
        .selectFrom('tour_visitors')
        .select('visitor_id')
        .where('visitor_id', '=', 'visitor-vera-000001')
        .execute(),
    ).toEqual([]);
    const events = await db
      .selectFrom('webhook_events')
      .select('payload')
      .where('type', '=', 'lead.created')
      .where('company_id', '=', agent.company.id)
      .execute();
    expect(events.map((e) => (e.payload as { data: { lead: { id: string } } }).data.lead.id)).toEqual([
      'lead_00000000-0000-4000-8000-000000000000',
    ]);

    // The link again: the details are gone already.
    const again = await fetch(link);
    expect(await again.text()).toContain('Your details are no longer held for this tour.');
  });
});
