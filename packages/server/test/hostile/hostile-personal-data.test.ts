/**
 * A person's data attacked from outside (docs/data-retention.md): export links forged, tampered, borrowed from another
 * user's export or kept past their time; exports asked for in a burst; account deletion with wrong passwords (nothing
 * changes, then the account's limit), a session kept after the deletion was scheduled (GraphQL over HTTP and over the
 * WebSocket), the mailed confirmation replayed after the person cancelled by signing in; the visitor's lead deletion
 * link forged, borrowed from another lead, opened by a mail scanner and replayed. Every refusal is plain, changes no
 * row and no file, and shows nothing of anyone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import WebSocket from 'ws';
import { hashPassword } from '../../src/auth/passwords.js';
import { cancelDeletionOnSignIn } from '../../src/services/personal-data/account-deletion.js';
import { exportDownloadUrl } from '../../src/services/personal-data/signing.js';
import { seedProcessedTour } from '../fixtures/tours.js';
import { LEAD_MUTATION, leadInput } from '../fixtures/live-helpers.js';
import { login, PASSWORD, waitForMail } from '../helpers/accounts.js';
import { seedUser, type SeededUser } from '../helpers/seed.js';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/test-app.js';
import { CLIENT_ADDRESSES, post } from './harness.js';

const EXPORT = 'mutation { dataExportCreate { status } }';
const LATEST = 'query { dataExport { status downloadURL } }';
const REQUEST = 'mutation($p: String) { accountDeletionRequest(password: $p) { status deleteAfter } }';
const ME = 'query { me { user { username } } }';
const DAY = 86_400_000;

describe.each(DB_KINDS)('hostile: personal data (%s)', (kind) => {
  let t: TestApp;
  const db = () => t.app.services.db;

  async function withPassword(u: SeededUser): Promise<SeededUser> {
    await db()
      .updateTable('users')
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where('id', '=', u.user.id)
      .execute();
    return u;
  }
  const scheduled = async (userId: string) =>
    !!(await db().selectFrom('account_deletions').select('user_id').where('user_id', '=', userId).executeTakeFirst());
  const exportDone = (token: string) =>
    vi.waitFor(
      async () => {
        const e = (await t.gql(LATEST, {}, token)).data?.dataExport;
        if (e?.status !== 'DONE') throw new Error(`export is ${e?.status ?? 'missing'}`);
        return e.downloadURL as string;
      },
      { timeout: 30_000, interval: 100 },
    );
  const get = (url: string, from: string = CLIENT_ADDRESSES[0]) =>
    new Promise<{ status: number; text: string; type: string | undefined }>((resolve, reject) => {
      const u = new URL(url);
      import('node:http').then(({ get: httpGet }) =>
        httpGet({ host: u.hostname, port: u.port, path: u.pathname + u.search, localAddress: from }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(chunks).toString('latin1'),
              type: res.headers['content-type'],
            }),
          );
        }).on('error', reject),
      );
    });

  beforeAll(async () => {
    // Rate limits on: the export burst and the wrong passwords must meet them.
    t = await startTestApp(kind, { ICE_SERVERS: '[]' });
  });
  afterAll(async () => t?.stop());

  it("export links: forged, tampered, another user's, traversal and expired ones give no ZIP; a burst of exports stops at the limit", async () => {
    const alice = await seedUser(t.app, { name: 'Alice' });
    const bob = await seedUser(t.app, { name: 'Bob' });
    expect((await t.gql(EXPORT, {}, alice.token)).errors).toBeUndefined();
    // One at a time: a second while the first is made is refused in words, without a row.
    const busy = await t.gql(EXPORT, {}, alice.token);
    if (busy.errors)
      expect(busy.errors[0]!.message).toBe('Your export is already being made. It will be ready in a moment.');
    const aliceUrl = new URL(await exportDone(alice.token));
    expect((await t.gql(EXPORT, {}, bob.token)).errors).toBeUndefined();
    const bobUrl = new URL(await exportDone(bob.token));
    expect((await get(aliceUrl.toString())).type).toBe('application/zip');

    const aliceId = aliceUrl.pathname.split('/').pop()!;
    const bobId = bobUrl.pathname.split('/').pop()!;
    const e = aliceUrl.searchParams.get('e')!;
    const s = aliceUrl.searchParams.get('s')!;
    const tries = [
      `/data-export/${bobId}?e=${e}&s=${s}`, // Alice's signature on Bob's export
      `/data-export/${aliceId}?e=${Number(e) + 3600}&s=${s}`, // a later expiry
      `/data-export/${aliceId}?s=${s}`,
      `/data-export/${aliceId}?e=${e}&s=${s.slice(0, -2)}AA`,
      `/data-export/${aliceId}?e=${e}&s=${s}&s=${s}`,
      `/data-export/${aliceId}?e=${e}e3&s=${s}`,
      `/data-export/${aliceId.toUpperCase()}?e=${e}&s=${s}`,
      `/data-export/..%2F..%2Fexports%2F${alice.user.id}%2F${aliceId}.zip?e=${e}&s=${s}`,
      `/data-export/${aliceId}.zip?e=${e}&s=${s}`,
      `/data-export/${aliceId}?e=${e}&s=${'A'.repeat(5000)}`,
    ];
    for (const [i, path] of tries.entries()) {
      const r = await get(`${t.url}${path}`, CLIENT_ADDRESSES[i % CLIENT_ADDRESSES.length]);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.type ?? '', path).not.toContain('zip');
      expect(r.text, path).not.toContain('PK\u0003\u0004');
      expect(r.text, path).not.toContain(alice.user.username);
      expect(r.text, path).not.toMatch(/at .*\.(ts|js):\d+/);
    }
    // A well-signed link whose time has passed (an old mail) says it expired, and gives nothing.
    const stale = exportDownloadUrl(t.app.services, aliceId, new Date(Date.now() - DAY));
    const old = await get(stale, CLIENT_ADDRESSES[1]);
    expect(old.status).toBe(410);
    expect(old.text).toContain('This download link has expired');

    // The burst: five exports a day per user (RATE_LIMITS.dataExport), from any address.
    let accepted = 2; // the first above, and a refused "busy" one does not count
    for (let i = 0; i < 6; i++) {
      const r = await t.gql(EXPORT, {}, alice.token);
      if (r.errors?.[0]?.extensions?.code === 'RATE_LIMITED') break;
      if (r.errors) throw new Error(JSON.stringify(r.errors));
      accepted += 1;
      await exportDone(alice.token);
    }
    const rows = await db().selectFrom('data_exports').select('id').where('user_id', '=', alice.user.id).execute();
    expect(rows.length).toBeLessThanOrEqual(5);
    expect(accepted).toBeGreaterThanOrEqual(rows.length);
    const refused = await t.gql(EXPORT, {}, alice.token);
    expect(refused.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(
      (await db().selectFrom('data_exports').select('id').where('user_id', '=', alice.user.id).execute()).length,
    ).toBe(rows.length);
  });

  it('wrong passwords schedule nothing and keep the session; after ten the account is limited, even with the right one', async () => {
    const victim = await withPassword(await seedUser(t.app, { plan: 'pro', name: 'Vic' }));
    for (const p of ['', 'secret123', `${PASSWORD} `, 'x'.repeat(10_000), null]) {
      const r = await t.gql(REQUEST, { p }, victim.token);
      expect(r.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(JSON.stringify(r)).not.toContain('stack');
    }
    for (let i = 0; i < 8; i++) await t.gql(REQUEST, { p: `guess-${i}` }, victim.token);
    const limited = await t.gql(REQUEST, { p: PASSWORD }, victim.token);
    expect(limited.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    expect(await scheduled(victim.user.id)).toBe(false);
    expect((await t.gql(ME, {}, victim.token)).data.me.user.username).toBe(victim.user.username);
    const mails = await db()
      .selectFrom('mail_outbox')
      .select('subject')
      .where('to_address', '=', victim.user.username)
      .execute();
    expect(mails.filter((m) => /deleted/.test(m.subject))).toEqual([]);
  });

  it('a session kept after the deletion was asked is refused over HTTP and over the WebSocket; signing in cancels', async () => {
    const leaver = await withPassword(await seedUser(t.app, { plan: 'pro', name: 'Lee' }));
    // The stolen session was issued a minute before the request. (resolve-auth compares whole seconds: a session issued
    // in the very second of the request is refused while the deletion is scheduled, but works again once it is
    // cancelled.)
    const stolen = await new SignJWT({ roles: ['USER'], cid: leaver.company.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(leaver.user.id)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 60)
      .setExpirationTime(Math.floor(Date.now() / 1000) + 3600)
      .sign(new TextEncoder().encode(t.app.services.config.jwtSecret));
    expect((await t.gql(ME, {}, stolen)).data.me.user.username).toBe(leaver.user.username);
    const asked = await t.gql(REQUEST, { p: PASSWORD }, leaver.token);
    expect(asked.data.accountDeletionRequest.status).toBe('SCHEDULED');
    for (const from of CLIENT_ADDRESSES) {
      const r = await post(`${t.url}/query`, JSON.stringify({ query: ME }), {
        from,
        headers: { authorization: `Bearer ${stolen}` },
      });
      expect(r.json.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      // The stolen session cannot cancel the deletion, export or ask again either.
      const again = await post(`${t.url}/query`, JSON.stringify({ query: EXPORT }), {
        from,
        headers: { authorization: `Bearer ${stolen}` },
      });
      expect(again.json.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    // Over graphql-ws: the connection with the old token is refused (no acknowledgement, closed); a live token of
    // another account on the same path is acknowledged, so the refusal is the session's, not the socket's.
    const wsAnswer = (token: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/query`, 'graphql-transport-ws', {
          localAddress: CLIENT_ADDRESSES[2],
        });
        ws.on('open', () =>
          ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })),
        );
        ws.on('message', (data) => {
          const m = JSON.parse(String(data)) as { type: string };
          if (m.type === 'connection_ack') {
            resolve('ack');
            ws.close();
          }
        });
        ws.on('close', () => resolve('closed'));
      });
    expect(await wsAnswer(stolen)).toBe('closed');
    expect(await wsAnswer((await seedUser(t.app, { plan: 'pro' })).token)).toBe('ack');
    expect(await scheduled(leaver.user.id)).toBe(true);
    // The person signs in: the deletion is cancelled, and the old token still opens nothing.
    expect((await login(t, leaver.user.username)).status).toBe(200);
    expect(await scheduled(leaver.user.id)).toBe(false);
    expect((await t.gql(ME, {}, stolen)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('the mailed deletion confirmation of a Google account, replayed after the person cancelled by signing in, deletes nothing', async () => {
    const google = await seedUser(t.app, { name: 'Gus' });
    expect((await t.gql(REQUEST, {}, google.token)).data.accountDeletionRequest.status).toBe('CONFIRMATION_SENT');
    const link = (await waitForMail(t, google.user.username, /Confirm the deletion/)).links[0]!;
    const confirm = () =>
      post(link.split('?')[0]!, new URL(link).searchParams.toString(), {
        from: CLIENT_ADDRESSES[1],
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      });
    expect((await confirm()).status).toBe(200);
    expect(await scheduled(google.user.id)).toBe(true);
    // Signing in (with Google) cancels it.
    expect(await cancelDeletionOnSignIn(t.app.services, google.user.id)).toBe(true);
    expect(await scheduled(google.user.id)).toBe(false);
    // Someone holding the mail posts the link again within its 24 hours.
    const replay = await confirm();
    expect(replay.status).toBeGreaterThanOrEqual(400);
    expect(await scheduled(google.user.id)).toBe(false);
  });

  it("a visitor's lead deletion link: forged, another lead's, opened by a scanner or replayed deletes nothing else", async () => {
    const agent = await seedUser(t.app, { plan: 'pro', name: 'Ana' });
    const tour = await seedProcessedTour(t, agent, 1);
    const leave = async (email: string, name: string, from: string) => {
      const r = await post(
        `${t.url}/query`,
        JSON.stringify({
          query: LEAD_MUTATION,
          variables: {
            input: leadInput(tour.id, { leadType: 'CONTACT', email, name, visitorId: `visitor-${name}-0001` }),
          },
        }),
        { from },
      );
      expect(r.json.errors).toBeUndefined();
      const mail = await waitForMail(t, email, /Your details were sent to/);
      return {
        id: (r.json.data.tourLeadCreate.tourLead.id as string).replace(/^lead_/, ''),
        link: mail.links.find((l) => l.includes('/lead-erasure/'))!,
      };
    };
    const vera = await leave('vera.erase@example.com', 'Vera', CLIENT_ADDRESSES[0]);
    const otto = await leave('otto.keep@example.com', 'Otto', CLIENT_ADDRESSES[1]);
    const leads = async () =>
      (await db().selectFrom('tour_leads').select('id').where('tour_id', '=', tour.row.id).execute())
        .map((l) => l.id)
        .sort();
    const both = await leads();
    expect(both).toEqual([vera.id, otto.id].sort());
    const veraSig = new URL(vera.link).searchParams.get('s')!;
    const form = (id: string, body: string, from: string = CLIENT_ADDRESSES[2]) =>
      post(`${t.url}/lead-erasure/${id}`, body, {
        from,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      });
    // Vera's signature on Otto's lead, made-up ones, none, the signature in the query instead of the form, traversal.
    for (const [id, body] of [
      [otto.id, `s=${veraSig}`],
      [otto.id, `s=${'A'.repeat(43)}`],
      [otto.id, ''],
      [otto.id, `s=${veraSig}&s=${veraSig}`],
      [`..%2F${otto.id}`, `s=${veraSig}`],
    ] as const) {
      const r = await form(id, body);
      expect(r.status).toBe(404);
      expect(r.text).not.toContain('Otto');
      expect(r.text).not.toContain('otto.keep');
    }
    expect((await form(otto.id, '')).text).toContain('This link is not valid.');
    const viaQuery = await post(`${t.url}/lead-erasure/${otto.id}?s=${veraSig}`, '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(viaQuery.status).toBe(404);
    // A mail scanner opening Vera's link deletes nothing; the page names the tour, not the agent's other leads.
    const page = await get(vera.link, CLIENT_ADDRESSES[1]);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Otto');
    expect(await leads()).toEqual(both);
    // Her own POST deletes her lead only; replayed, it says so and deletes nothing more.
    expect((await form(vera.id, `s=${veraSig}`)).status).toBe(200);
    expect(await leads()).toEqual([otto.id]);
    const replay = await form(vera.id, `s=${veraSig}`, CLIENT_ADDRESSES[0]);
    expect(replay.status).toBe(200);
    expect(await leads()).toEqual([otto.id]);
    // Her link now shows nothing of the lead it named.
    const after = await get(vera.link);
    expect(after.text).not.toContain('Vera');
    expect(after.text).not.toContain('vera.erase');
  });
});
