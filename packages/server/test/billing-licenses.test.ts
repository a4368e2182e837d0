import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, planById } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser } from './helpers/seed.js';
import { deactivatedTours, insertTours, license } from './billing-helpers.js';
import { applyPlan, downgradeToFree } from '../src/services/billing/licenses.js';
import { expireLicenses } from '../src/services/billing/sync.js';
import { countActiveTours, countUploadsSince, currentPeriodStart, licenseCounts } from '../src/services/licenses.js';
import { resolveAuth } from '../src/services/resolve-auth.js';

const GRANT =
  'mutation($id: ID!) { licenseGrantOffline(companyId: $id) { planName quantity uploadLimit subscriptionId endDate } }';
const DAY = 24 * 3600 * 1000;

describe.each(DB_KINDS)('licences on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('applies a plan: quantity = upTo, upload limit = 2 × upTo, plan name, subscription, dates', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const periodStart = new Date(Date.now() - 3 * DAY);
    const { license: l } = await applyPlan(t.app.services.db, admin.company.id, planById('pro')!, {
      subscriptionId: 'sub_123',
      endDate: null,
      periodStart,
      startDate: periodStart,
      now: new Date(),
    });
    expect(l).toMatchObject({
      plan_id: 'pro',
      plan_name: 'Pro',
      quantity: 60,
      upload_limit: 120,
      subscription_id: 'sub_123',
      end_date: null,
    });
    expect(new Date(l.period_start).getTime()).toBe(periodStart.getTime());
    expect(new Date(l.start_date).getTime()).toBe(periodStart.getTime());
    const auth = await resolveAuth(t.app.services, `Bearer ${admin.token}`);
    expect(auth?.roles).toEqual(['pro', 'admin']);
  });

  it('on a downgrade deactivates the tours beyond the allowance, newest kept, status unchanged', async () => {
    const admin = await seedUser(t.app, { plan: 'basic' });
    const member = await seedUser(t.app, { companyId: admin.company.id });
    const a = await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 4, {
      start: new Date(Date.now() - 10 * DAY),
    });
    const b = await insertTours(t.app, { companyId: admin.company.id, userId: member.user.id }, 4, {
      start: new Date(Date.now() - 5 * DAY),
    });
    // Failed and deleted tours hold no slot and are left alone.
    const [failed] = await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 1, {
      status: 'FAILED',
    });
    const [deleted] = await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 1);
    await t.app.services.db.updateTable('tours').set({ deleted_at: new Date() }).where('id', '=', deleted!).execute();

    const { deactivatedTourIds } = await applyPlan(t.app.services.db, admin.company.id, planById('entry')!, {
      subscriptionId: 'sub_e',
      endDate: null,
      now: new Date(),
    });
    // Entry allows 5: the newest 5 active (b's 4 and a's newest) stay, the 3 oldest go.
    expect(new Set(deactivatedTourIds)).toEqual(new Set(a.slice(0, 3)));
    expect(await deactivatedTours(t.app, admin.company.id)).toEqual(a.slice(0, 3));
    expect(await countActiveTours(t.app.services.db, { companyId: admin.company.id })).toBe(5);
    const rows = await t.app.services.db
      .selectFrom('tours')
      .select(['id', 'status', 'deactivated_at'])
      .where('id', 'in', [...a, failed!, deleted!])
      .execute();
    expect(rows.find((r) => r.id === a[0])!.status).toBe('PROCESSED');
    expect(rows.find((r) => r.id === failed)!.deactivated_at).toBeNull();
    expect(rows.find((r) => r.id === deleted)!.deactivated_at).toBeNull();
    const counts = await licenseCounts(t.app.services.db, await license(t.app, admin.company.id), new Date());
    expect(counts).toMatchObject({ quantity: 5, monthlyActiveTours: 5 });

    // A slot freed by the tours domain (deactivated_at cleared by tourReactivate) is what the counters read.
    await t.app.services.db.updateTable('tours').set({ deactivated_at: null }).where('id', '=', a[2]!).execute();
    expect(await countActiveTours(t.app.services.db, { companyId: admin.company.id })).toBe(6);
    // Applying the same plan again enforces the allowance again, and nothing else changes.
    const again = await applyPlan(t.app.services.db, admin.company.id, planById('entry')!, {
      subscriptionId: 'sub_e',
      endDate: null,
      now: new Date(),
    });
    expect(again.deactivatedTourIds).toEqual([a[2]]);
    expect(b.every((id) => !again.deactivatedTourIds.includes(id))).toBe(true);
  });

  it('lets the owner bring a switched-off tour back with tourReactivate once a slot is free', async () => {
    const admin = await seedUser(t.app, { plan: 'entry' });
    const tours = await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 3);
    await downgradeToFree(t.app.services.db, admin.company.id, new Date());
    expect(await deactivatedTours(t.app, admin.company.id)).toEqual(tours.slice(0, 2));
    const REACTIVATE = 'mutation($id: ID!) { tourReactivate(id: $id) { id } }';
    const full = await t.gql(REACTIVATE, { id: `tour_${tours[0]}` }, admin.token);
    expect(full.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.NO_ACTIVE_TOURS_LEFT);
    await applyPlan(t.app.services.db, admin.company.id, planById('entry')!, {
      subscriptionId: 'sub_back',
      endDate: null,
      now: new Date(),
    });
    const back = await t.gql(REACTIVATE, { id: `tour_${tours[0]}` }, admin.token);
    expect(back.errors).toBeUndefined();
    expect(await deactivatedTours(t.app, admin.company.id)).toEqual([tours[1]]);
  });

  it('keeps the running monthly period on a plan change, and restarts it on a new provider period', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const db = t.app.services.db;
    const anchor = new Date(Date.now() - 40 * DAY);
    await db.updateTable('licenses').set({ period_start: anchor }).where('company_id', '=', admin.company.id).execute();
    const running = currentPeriodStart({ period_start: anchor }, new Date());
    expect(running.getTime()).toBeGreaterThan(anchor.getTime());
    // Two uploads this month, one before the current period.
    await db
      .insertInto('uploads')
      .values([
        {
          key: `k-${kind}-1`,
          company_id: admin.company.id,
          user_id: admin.user.id,
          extension: 'mp4',
          submitted_at: new Date(running.getTime() + 1000),
        },
        {
          key: `k-${kind}-2`,
          company_id: admin.company.id,
          user_id: admin.user.id,
          extension: 'mp4',
          submitted_at: new Date(),
        },
        {
          key: `k-${kind}-3`,
          company_id: admin.company.id,
          user_id: admin.user.id,
          extension: 'mp4',
          submitted_at: new Date(running.getTime() - 1000),
        },
      ])
      .execute();
    expect((await licenseCounts(db, await license(t.app, admin.company.id), new Date())).monthlyUploadedTours).toBe(2);

    // A plan change without a provider period (offline grant, fall back to Free) keeps the month: the counters carry
    // on.
    await applyPlan(db, admin.company.id, planById('offline')!, {
      subscriptionId: null,
      endDate: null,
      now: new Date(),
    });
    const kept = await license(t.app, admin.company.id);
    expect(new Date(kept.period_start).getTime()).toBe(running.getTime());
    expect((await licenseCounts(db, kept, new Date())).monthlyUploadedTours).toBe(2);
    await downgradeToFree(db, admin.company.id, new Date());
    expect((await licenseCounts(db, await license(t.app, admin.company.id), new Date())).monthlyUploadedTours).toBe(2);

    // A paid subscription's billing period starts now: the monthly counters restart from it.
    const now = new Date();
    await applyPlan(db, admin.company.id, planById('entry')!, {
      subscriptionId: 'sub_new',
      endDate: null,
      periodStart: now,
      now: new Date(),
    });
    expect((await licenseCounts(db, await license(t.app, admin.company.id), new Date())).monthlyUploadedTours).toBe(0);
    expect(await countUploadsSince(db, now, { companyId: admin.company.id })).toBe(0);
  });

  it('grants the Offline License to super admins only', async () => {
    const target = await seedUser(t.app, { plan: 'free' });
    await insertTours(t.app, { companyId: target.company.id, userId: target.user.id }, 2);
    const admin = await seedUser(t.app, { plan: 'pro' });
    const superadmin = await seedUser(t.app, { plan: 'free', superadmin: true });
    expect((await t.gql(GRANT, { id: target.companyId })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.UNAUTHENTICATED,
    );
    expect((await t.gql(GRANT, { id: target.companyId }, admin.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect(
      (await t.gql(GRANT, { id: 'company_00000000-0000-4000-8000-000000000000' }, superadmin.token)).errors?.[0]
        ?.extensions?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect((await license(t.app, target.company.id)).plan_id).toBe('free');

    const r = await t.gql(GRANT, { id: target.companyId }, superadmin.token);
    expect(r.data.licenseGrantOffline).toEqual({
      planName: 'Offline License',
      quantity: 500,
      uploadLimit: 1000,
      subscriptionId: null,
      endDate: null,
    });
    const auth = await resolveAuth(t.app.services, `Bearer ${target.token}`);
    expect(auth?.roles).toContain('offlicenselicense');
  });

  it('ends an expired licence: back to the Free Trial with the tours beyond its allowance deactivated', async () => {
    const admin = await seedUser(t.app, { plan: 'free' });
    const tours = await insertTours(t.app, { companyId: admin.company.id, userId: admin.user.id }, 3);
    const end = new Date(Date.now() + DAY);
    await applyPlan(t.app.services.db, admin.company.id, planById('basic')!, {
      subscriptionId: null,
      endDate: end,
      now: new Date(),
    });
    expect(await expireLicenses(t.app.services, new Date())).toBe(0);
    const auth = await resolveAuth(t.app.services, `Bearer ${admin.token}`);
    expect(auth?.roles).toContain('basic');

    expect(await expireLicenses(t.app.services, new Date(end.getTime() + 1))).toBeGreaterThanOrEqual(1);
    expect(await license(t.app, admin.company.id)).toMatchObject({
      plan_id: 'free',
      quantity: 1,
      upload_limit: 2,
      end_date: null,
    });
    expect(await deactivatedTours(t.app, admin.company.id)).toEqual(tours.slice(0, 2));
  });
});
