/**
 * The personal data export against the real app: asked for in GraphQL, made by the job queue with progress, mailed
 * (development outbox), downloaded through its signed link as a ZIP whose manifest names every file, holding the
 * user's profile, tours with rooms and media links, leads and activity and nothing of another user; the link refuses
 * a forged signature, says "expired" once its time has passed, and the sweep removes the file from storage.
 */
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { waitForMail } from './helpers/accounts.js';
import { insertTours } from './billing-helpers.js';
import { sweepPersonalData } from '../src/services/personal-data/purge.js';

const CREATE = 'mutation { dataExportCreate { status progress progressText } }';
const LATEST = 'query { dataExport { status progress progressText error downloadURL expiresAt } }';

async function exportDone(t: TestApp, token: string) {
  return vi.waitFor(
    async () => {
      const res = await t.gql(LATEST, {}, token);
      const e = res.data?.dataExport;
      if (e?.status !== 'DONE') throw new Error(`export is ${e?.status ?? 'missing'} (${e?.progressText ?? ''})`);
      return e as { status: string; progress: number; downloadURL: string; expiresAt: string };
    },
    { timeout: 20_000, interval: 100 },
  );
}

describe.each(DB_KINDS)('personal data export on %s', (kind) => {
  let t: TestApp;
  let alice: SeededUser;
  let bob: SeededUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const db = t.app.services.db;
    alice = await seedUser(t.app, { email: 'alice.export@example.com', name: 'Alice', surname: 'Agent' });
    bob = await seedUser(t.app, { email: 'bob.other@example.com', name: 'Bob', surname: 'Other' });
    const [aTour] = (await insertTours(t.app, { companyId: alice.company.id, userId: alice.user.id }, 1, {
      title: () => 'Alice Garden Cottage',
      rooms: ['Kitchen', 'Sunroom'],
    })) as [string];
    const [bTour] = (await insertTours(t.app, { companyId: bob.company.id, userId: bob.user.id }, 1, {
      title: () => 'Bob Secret Villa',
      rooms: ['Wine Cellar'],
    })) as [string];
    await db
      .updateTable('tours')
      .set({ thumbnail_key: `tours/${aTour}/thumb.jpg` })
      .where('id', '=', aTour)
      .execute();
    await db
      .insertInto('clips')
      .values({
        tour_id: aTour,
        index: 0,
        frame_count: 36,
        duration: 1.2,
        high_key: `tours/${aTour}/v1/c0-high.mp4`,
        low_key: `tours/${aTour}/v1/c0-low.mp4`,
      })
      .execute();
    await db
      .insertInto('tour_leads')
      .values({
        tour_id: aTour,
        name: 'Lerato',
        surname: 'Buyer',
        email: 'lerato.buyer@example.com',
        contact_number: null,
        lead_type: 'CONTACT',
        ip: null,
        visitor_id: null,
      })
      .execute();
    await db
      .insertInto('tour_leads')
      .values({
        tour_id: bTour,
        name: 'Zed',
        surname: 'Stranger',
        email: 'zed.stranger@example.com',
        contact_number: null,
        lead_type: 'CONTACT',
        ip: null,
        visitor_id: null,
      })
      .execute();
    await db
      .insertInto('feedback')
      .values({ user_id: alice.user.id, name: 'Alice', email: alice.user.username, comment: 'Lovely product' })
      .execute();
    await db
      .insertInto('feedback')
      .values({ user_id: bob.user.id, name: 'Bob', email: bob.user.username, comment: 'Bob private remark' })
      .execute();
  });
  afterAll(async () => t?.stop());
  afterEach(() => vi.useRealTimers());

  it('makes a ZIP with a manifest and only the asking user’s data, shows progress and mails the link', async () => {
    const created = await t.gql(CREATE, {}, alice.token);
    expect(created.errors).toBeUndefined();
    expect(['QUEUED', 'RUNNING', 'DONE']).toContain(created.data.dataExportCreate.status);

    const done = await exportDone(t, alice.token);
    expect(done.progress).toBe(100);
    expect(new Date(done.expiresAt).getTime() - Date.now()).toBeGreaterThan(47 * 3600_000);
    const mail = await waitForMail(t, alice.user.username, /data is ready/);
    expect(mail.links).toEqual([done.downloadURL]);

    const res = await fetch(done.downloadURL);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="roomwalk-data-\d{4}-\d{2}-\d{2}\.zip"/,
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const json = (name: string) => JSON.parse(strFromU8(files[name]!));
    const manifest = json('manifest.json');
    expect(manifest).toMatchObject({
      format: 'roomwalk-personal-data',
      version: 1,
      user: { id: alice.userId, email: 'alice.export@example.com' },
    });
    expect(manifest.files.map((f: { name: string }) => f.name)).toEqual([
      'profile.json',
      'tours.json',
      'leads.json',
      'activity.json',
    ]);
    expect(Object.keys(files).sort()).toEqual([
      'activity.json',
      'leads.json',
      'manifest.json',
      'profile.json',
      'tours.json',
    ]);

    expect(json('profile.json')).toMatchObject({
      account: { email: 'alice.export@example.com', role: 'ADMIN' },
      profile: { name: 'Alice', surname: 'Agent' },
    });
    const tours = json('tours.json');
    expect(tours).toHaveLength(1);
    expect(tours[0]).toMatchObject({
      title: 'Alice Garden Cottage',
      rooms: [{ name: 'Kitchen' }, { name: 'Sunroom' }],
    });
    expect(tours[0].media.posterURL).toMatch(/\/thumb\.jpg$/);
    expect(tours[0].media.clips[0].highURL).toMatch(/c0-high\.mp4$/);
    expect(json('leads.json')).toEqual([
      expect.objectContaining({
        name: 'Lerato',
        email: 'lerato.buyer@example.com',
        tour: expect.objectContaining({ title: 'Alice Garden Cottage' }),
      }),
    ]);
    expect(json('activity.json').feedback).toEqual([expect.objectContaining({ comment: 'Lovely product' })]);
    expect(manifest.files.find((f: { name: string }) => f.name === 'leads.json').records).toBe(1);

    // Nothing of the other company's user, tours or leads.
    const everything = Object.values(files)
      .map((f) => strFromU8(f))
      .join('\n');
    for (const foreign of [
      'bob.other@example.com',
      'Bob Secret Villa',
      'Wine Cellar',
      'zed.stranger@example.com',
      'Bob private remark',
      bob.user.id,
      bob.company.id,
    ])
      expect(everything).not.toContain(foreign);
  });

  it('refuses a second export while one is being made', async () => {
    await t.app.services.db
      .insertInto('data_exports')
      .values({ user_id: bob.user.id, status: 'RUNNING', file_key: null, error: null })
      .execute();
    const res = await t.gql(CREATE, {}, bob.token);
    expect(res.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.CONFLICT);
    expect(res.errors?.[0]?.message).toBe('Your export is already being made. It will be ready in a moment.');
    const anonymous = await t.gql(CREATE, {});
    expect(anonymous.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it('allows five exports a day per user, then says to wait', async () => {
    const carol = await seedUser(t.app);
    for (let i = 0; i < 5; i++) {
      const ok = await t.gql(CREATE, {}, carol.token);
      expect(ok.errors, `export ${i + 1}`).toBeUndefined();
      // Finished (as failed) at once, so the next request is not refused as "already being made".
      await t.app.services.db
        .updateTable('data_exports')
        .set({ status: 'FAILED' })
        .where('user_id', '=', carol.user.id)
        .execute();
    }
    const sixth = await t.gql(CREATE, {}, carol.token);
    expect(sixth.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.RATE_LIMITED);
    expect(
      await t.app.services.db.selectFrom('data_exports').select('id').where('user_id', '=', carol.user.id).execute(),
    ).toHaveLength(5);
  });

  it('refuses a forged link, says when the link expired, and the sweep removes the file from storage', async () => {
    const done = await exportDone(t, alice.token);
    const forged = new URL(done.downloadURL);
    forged.searchParams.set('e', String(Number(forged.searchParams.get('e')) + 3600));
    const refused = await fetch(forged);
    expect(refused.status).toBe(404);
    expect(await refused.text()).toContain('This download link is not valid.');

    const row = await t.app.services.db
      .selectFrom('data_exports')
      .select(['file_key'])
      .where('user_id', '=', alice.user.id)
      .where('status', '=', 'DONE')
      .executeTakeFirstOrThrow();
    expect(await t.app.services.storage.head(row.file_key!)).not.toBeNull();

    // Two days and an hour later, by the server's clock.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 49 * 3600_000 });
    const expired = await fetch(done.downloadURL);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain('This download link has expired');
    expect((await t.gql(LATEST, {}, alice.token)).data.dataExport.downloadURL).toBeNull();

    const swept = await sweepPersonalData(t.app.services, new Date());
    expect(swept.exports).toBeGreaterThanOrEqual(1);
    expect(await t.app.services.storage.head(row.file_key!)).toBeNull();
    vi.useRealTimers();
    const after = await fetch(done.downloadURL);
    expect(after.status).toBe(410);
  });
});
