/**
 * Room-level analytics: the beacon's room fields (validation, bounds, one visit per visitor), the daily
 * rollup, tourAnalytics figures for a known set of visits (the same before and after the rollup), its plan gate and
 * access, and a lead's room path in the API and the lead mail.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type VisitBeacon } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { insertTours } from './billing-helpers.js';
import { eventually, LEAD_MUTATION, leadInput } from './fixtures/live-helpers.js';
import { recordBeacon, recordVisit } from './fixtures/visits.js';
import { addDays, utcDay } from '../src/core/days.js';
import { rollupRoomAnalytics } from '../src/services/reports/room-rollup.js';
import { flushViews } from '../src/services/view-counter.js';

const ANALYTICS = `query($id: ID!, $from: DateTime, $to: DateTime) {
  tourAnalytics(tourId: $id, from: $from, to: $to) {
    from to visits uniqueVisitors averageSeconds completionRate fastTravels
    rooms { name seconds visits } exits { name visits } daily { date visits uniqueVisitors } devices { name visits }
  }
}`;
const DAY = 86_400_000;
/** The test tours' markers. */
const ROOMS = ['Kitchen', 'Lounge', 'Master Bedroom'];

describe.each(DB_KINDS)('room analytics on %s', (kind) => {
  let t: TestApp;
  let basic: SeededUser;
  let tourId: string;
  const gid = () => `tour_${tourId}`;
  const today = utcDay(new Date());
  const old = addDays(today, -5);
  const oldAt = new Date(`${old}T10:00:00Z`);
  const visitsOf = (id: string) =>
    t.app.services.db.selectFrom('view_events').selectAll().where('tour_id', '=', id).orderBy('started_at').execute();
  const post = (body: unknown) =>
    fetch(`${t.url}/tour-visit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(body),
    });
  /** A visit of extra.secondsSpent seconds ending at `at` (a start beacon, then this one). */
  const record = (visitorId: string, at: Date, extra: Omit<VisitBeacon, 'tourId' | 'visitorId'>) =>
    recordVisit(t.app.services, { tourId: gid(), visitorId, ...extra }, { at });

  beforeAll(async () => {
    t = await startTestApp(kind);
    basic = await seedUser(t.app, { plan: 'basic' });
    [tourId] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      rooms: ROOMS,
    })) as [string];
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('takes the room fields of a beacon, keeps one visit per visitor, counts it once and stores no IP', async () => {
    const [tour2] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      views: () => 0,
      rooms: ROOMS,
    })) as [string];
    const base = {
      tourId: `tour_${tour2}`,
      visitorId: 'beacon-rooms-1',
      secondsSpent: 0,
      roomsReached: 0,
      device: 'phone',
    };
    expect((await post(base)).status).toBe(204);
    const later = {
      ...base,
      secondsSpent: 12,
      roomsReached: 2,
      fastTravels: 1,
      reachedEnd: true,
      segments: [
        { room: '', seconds: 2 },
        { room: 'Kitchen', seconds: 7 },
        { room: 'Lounge', seconds: 3 },
      ],
    };
    expect((await post(later)).status).toBe(204);
    // A late beacon covering less time (another page of the same visit) keeps the rooms already known.
    expect((await post({ ...base, segments: [{ room: 'Lounge', seconds: 2 }] })).status).toBe(204);
    const rows = await visitsOf(tour2);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      seconds_spent: 12,
      rooms: [
        { name: '', seconds: 2 },
        { name: 'Kitchen', seconds: 7 },
        { name: 'Lounge', seconds: 3 },
      ],
      exit_room: 'Lounge',
      reached_end: true,
      fast_travels: 1,
      device: 'phone',
    });
    await flushViews(t.app.services);
    const views = await t.app.services.db
      .selectFrom('tours')
      .select('views')
      .where('id', '=', tour2)
      .executeTakeFirstOrThrow();
    expect(views.views).toBe(1);
    const columns = await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns
      WHERE table_name IN ('view_events', 'tour_visit_daily', 'tour_room_daily', 'tour_visitors')`.execute(
      t.app.services.db,
    );
    expect(columns.rows.length).toBeGreaterThan(10);
    expect(columns.rows.map((c) => c.column_name).filter((c) => /ip|addr/i.test(c))).toEqual([]);
  });

  it('beacons sent at once are written together: one visit and one view per visitor, the longest rooms kept', async () => {
    const [tour3] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      views: () => 0,
      rooms: ROOMS,
    })) as [string];
    // Seconds within what a visit's first beacon may carry, so the longest beacon of each visitor is what is kept.
    const beacons = Array.from({ length: 20 }, (_, i) => ({
      tourId: `tour_${tour3}`,
      visitorId: `burst-visitor-${i % 5}`,
      secondsSpent: i >> 1,
      roomsReached: 1,
      segments: [{ room: 'Kitchen', seconds: i >> 1 }],
    }));
    const answers = await Promise.all(beacons.map((b) => post(b)));
    expect(answers.map((a) => a.status)).toEqual(beacons.map(() => 204));
    const rows = await visitsOf(tour3);
    expect(rows.map((r) => [r.visitor_id, r.seconds_spent, r.rooms]).sort()).toEqual(
      [0, 1, 2, 3, 4].map((v) => [`burst-visitor-${v}`, (15 + v) >> 1, [{ name: 'Kitchen', seconds: (15 + v) >> 1 }]]),
    );
    await flushViews(t.app.services);
    expect(
      (await t.app.services.db.selectFrom('tours').select('views').where('id', '=', tour3).executeTakeFirstOrThrow())
        .views,
    ).toBe(5);
  });

  it('refuses out-of-bounds room fields with a clear error and writes nothing', async () => {
    const before = (await visitsOf(tourId)).length;
    const base = { tourId: gid(), visitorId: 'beacon-rooms-bad', secondsSpent: 1, roomsReached: 0 };
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [
        { segments: Array.from({ length: 201 }, () => ({ room: 'A', seconds: 1 })) },
        400,
        'Too many room segments for one visit.',
      ],
      [{ segments: [{ room: 'x'.repeat(101), seconds: 1 }] }, 400, 'A room name is too long.'],
      [{ segments: [{ room: 'Kitchen', seconds: 6 * 3600 + 1 }] }, 400, 'Too many seconds in one room.'],
      [{ segments: [{ room: 'Kitchen', seconds: -2 }] }, 400, 'Seconds cannot be negative.'],
      [{ segments: [{ room: 7, seconds: 1 }] }, 400, 'A room name must be text.'],
      [{ segments: 'Kitchen' }, 400, 'Segments must be a list.'],
      [{ fastTravels: 1001 }, 400, 'Too many fast travels for one visit.'],
      [{ reachedEnd: 'yes' }, 400, 'Reached end must be true or false.'],
      [{ device: 'watch' }, 400, 'The device must be phone, tablet or desktop.'],
      [{ tourId: 'tour_00000000-0000-4000-8000-000000000000' }, 404, 'Not found.'],
    ];
    for (const [over, status, message] of cases) {
      const r = await post({ ...base, ...over });
      expect(r.status, message).toBe(status);
      expect(((await r.json()) as { error: string }).error).toBe(message);
    }
    // Over 16 KiB: refused before it is read.
    expect((await post({ ...base, pad: 'x'.repeat(17 * 1024) })).status).toBe(413);
    expect((await visitsOf(tourId)).length).toBe(before);
  });

  it('answers tourAnalytics for a known set of visits, the same before and after the rollup', async () => {
    const now = new Date();
    const earlier = new Date(now.getTime() - 60_000);
    await record('visitor-aaaa1', oldAt, {
      secondsSpent: 150,
      device: 'desktop',
      reachedEnd: true,
      fastTravels: 2,
      segments: [
        { room: '', seconds: 10 },
        { room: 'Kitchen', seconds: 90 },
        { room: 'Lounge', seconds: 30 },
        { room: 'Kitchen', seconds: 20 },
      ],
    });
    await record('visitor-bbbb2', new Date(oldAt.getTime() + 3_600_000), {
      secondsSpent: 45,
      device: 'phone',
      segments: [
        { room: '', seconds: 5 },
        { room: 'Kitchen', seconds: 40 },
      ],
    });
    await record('visitor-aaaa1', earlier, {
      secondsSpent: 60,
      device: 'tablet',
      reachedEnd: true,
      segments: [
        { room: '', seconds: 20 },
        { room: 'Master Bedroom', seconds: 40 },
      ],
    });
    await record('visitor-cccc3', earlier, {
      secondsSpent: 30,
      device: 'phone',
      segments: [{ room: 'Lounge', seconds: 30 }],
    });
    await recordBeacon(
      t.app.services,
      {
        tourId: gid(),
        visitorId: 'visitor-cccc3',
        secondsSpent: 45,
        segments: [
          { room: 'Lounge', seconds: 30 },
          { room: 'Kitchen', seconds: 15 },
        ],
      },
      { at: now },
    );

    const week = { id: gid(), from: `${addDays(today, -6)}T00:00:00Z`, to: `${today}T12:00:00Z` };
    const expected = {
      from: addDays(today, -6),
      to: today,
      visits: 4,
      uniqueVisitors: 3,
      averageSeconds: 75,
      completionRate: 0.5,
      fastTravels: 2,
      rooms: [
        { name: 'Kitchen', seconds: 165, visits: 3 },
        { name: 'Lounge', seconds: 60, visits: 2 },
        { name: 'Master Bedroom', seconds: 40, visits: 1 },
        { name: 'Entrance', seconds: 35, visits: 3 },
      ],
      exits: [
        { name: 'Kitchen', visits: 3 },
        { name: 'Master Bedroom', visits: 1 },
      ],
      daily: Array.from({ length: 7 }, (_, i) => {
        const date = addDays(today, i - 6);
        const n = date === old || date === today ? 2 : 0;
        return { date, visits: n, uniqueVisitors: n };
      }),
      devices: [
        { name: 'phone', visits: 2 },
        { name: 'tablet', visits: 1 },
        { name: 'desktop', visits: 1 },
      ],
    };
    const oldDayOnly = { id: gid(), from: `${old}T00:00:00Z`, to: `${old}T23:00:00Z` };
    const todayOnly = { id: gid(), from: `${today}T00:00:00Z`, to: `${today}T00:00:00Z` };
    const before = await t.gql(ANALYTICS, week, basic.token);
    expect(before.errors).toBeUndefined();
    expect(before.data.tourAnalytics).toEqual(expected);

    const done = await rollupRoomAnalytics(t.app.services.db, now);
    expect(done?.days?.through).toBe(addDays(utcDay(new Date(now.getTime() - 7 * 3_600_000)), -1));
    const rolled = await t.app.services.db
      .selectFrom('tour_room_daily')
      .select(['room', 'seconds', 'visits', 'exits'])
      .where('tour_id', '=', tourId)
      .where('day', '=', old)
      .orderBy('room')
      .execute();
    expect(rolled.map((r) => ({ ...r, seconds: Number(r.seconds) }))).toEqual([
      { room: '', seconds: 15, visits: 2, exits: 0 },
      { room: 'Kitchen', seconds: 150, visits: 2, exits: 2 },
      { room: 'Lounge', seconds: 30, visits: 1, exits: 0 },
    ]);
    // A second run finds nothing new; the figures read from the aggregates are the same.
    expect(await rollupRoomAnalytics(t.app.services.db, now)).toBeNull();
    expect((await t.gql(ANALYTICS, week, basic.token)).data.tourAnalytics).toEqual(expected);

    const oldDay = (await t.gql(ANALYTICS, oldDayOnly, basic.token)).data.tourAnalytics;
    expect(oldDay).toMatchObject({
      visits: 2,
      uniqueVisitors: 2,
      averageSeconds: 97.5,
      completionRate: 0.5,
      daily: [{ date: old, visits: 2 }],
    });
    const todays = (await t.gql(ANALYTICS, todayOnly, basic.token)).data.tourAnalytics;
    expect(todays).toMatchObject({
      visits: 2,
      uniqueVisitors: 2,
      exits: [
        { name: 'Kitchen', visits: 1 },
        { name: 'Master Bedroom', visits: 1 },
      ],
    });
    // The default period: the 30 days to today.
    const dflt = (await t.gql(ANALYTICS, { id: gid() }, basic.token)).data.tourAnalytics;
    expect(dflt).toMatchObject({ from: addDays(today, -29), to: today, visits: 4, uniqueVisitors: 3 });
    expect(dflt.daily).toHaveLength(30);
  });

  it('keeps visitors rolled up to a few minutes ago, so a returning visitor is counted once', async () => {
    const [tour2] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1)) as [string];
    const rec = (visitorId: string, at: Date) =>
      recordBeacon(t.app.services, { tourId: `tour_${tour2}`, visitorId, secondsSpent: 30, roomsReached: 1 }, { at });
    const base = Date.now();
    const min = 60_000;
    await rec('visitor-xxxx1', new Date(base - 4 * min));
    await rec('visitor-yyyy2', new Date(base - 3 * min));
    const done = await rollupRoomAnalytics(t.app.services.db, new Date(base + 10 * min));
    expect(done?.visitorsThrough.getTime()).toBe(base + 5 * min);
    // Both visitors are rolled up although their day is not over.
    const rolled = await t.app.services.db
      .selectFrom('tour_visitors')
      .select('visitor_id')
      .where('tour_id', '=', tour2)
      .orderBy('visitor_id')
      .execute();
    expect(rolled.map((r) => r.visitor_id)).toEqual(['visitor-xxxx1', 'visitor-yyyy2']);
    // After the rollup: x comes back (a new visit, over 30 minutes later) and z comes for the first time.
    await rec('visitor-xxxx1', new Date(base + 40 * min));
    await rec('visitor-zzzz3', new Date(base + 41 * min));
    const period = {
      id: `tour_${tour2}`,
      from: `${addDays(today, -1)}T00:00:00Z`,
      to: `${addDays(today, 1)}T00:00:00Z`,
    };
    const r = await t.gql(ANALYTICS, period, basic.token);
    expect(r.errors).toBeUndefined();
    expect(r.data.tourAnalytics).toMatchObject({ visits: 4, uniqueVisitors: 3 });
  });

  it('refuses a period that ends before it starts or is longer than a year', async () => {
    const r1 = await t.gql(
      ANALYTICS,
      { id: gid(), from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' },
      basic.token,
    );
    expect(r1.errors?.[0]).toMatchObject({
      message: 'The period must start before it ends.',
      extensions: { code: ERROR_CODES.BAD_USER_INPUT },
    });
    const r2 = await t.gql(ANALYTICS, { id: gid(), from: new Date(Date.now() - 400 * DAY).toISOString() }, basic.token);
    expect(r2.errors?.[0]?.message).toBe('Choose a period of at most a year.');
  });

  it('gates tourAnalytics by plan (Basic and Pro) and by who may edit the tour', async () => {
    for (const plan of ['free', 'entry'] as const) {
      const u = await seedUser(t.app, { plan });
      const [own] = (await insertTours(t.app, { companyId: u.company.id, userId: u.user.id }, 1)) as [string];
      const r = await t.gql(ANALYTICS, { id: `tour_${own}` }, u.token);
      expect(r.errors?.[0], plan).toMatchObject({
        message: 'Tour Analytics need the Basic or Pro plan. Upgrade to see them.',
        extensions: { code: ERROR_CODES.PLAN_REQUIRED },
      });
    }
    const pro = await seedUser(t.app, { plan: 'pro' });
    const [proTour] = (await insertTours(t.app, { companyId: pro.company.id, userId: pro.user.id }, 1)) as [string];
    expect((await t.gql(ANALYTICS, { id: `tour_${proTour}` }, pro.token)).data.tourAnalytics.visits).toBe(0);
    // Another company's admin: not found (ids cannot be probed); a team member who does not own it: forbidden.
    expect((await t.gql(ANALYTICS, { id: gid() }, pro.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    const member = await seedUser(t.app, { companyId: basic.company.id, role: 'USER' });
    expect((await t.gql(ANALYTICS, { id: gid() }, member.token)).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await t.gql(ANALYTICS, { id: gid() })).errors?.[0]?.extensions?.code).toBe(ERROR_CODES.UNAUTHENTICATED);
  });

  it("shows a lead's room path in the API and in the lead mail", async () => {
    const visitorId = 'lead-visitor-1';
    await record(visitorId, new Date(), {
      secondsSpent: 135,
      roomsReached: 2,
      segments: [
        { room: '', seconds: 5 },
        { room: 'Kitchen', seconds: 60 },
        { room: 'Master Bedroom', seconds: 40 },
        { room: 'Kitchen', seconds: 30 },
      ],
    });
    const res = await t.gql(LEAD_MUTATION, {
      input: leadInput(gid(), {
        leadType: 'CONTACT',
        name: 'Rita',
        surname: 'Rooms',
        email: 'rita@example.com',
        visitorId,
      }),
    });
    expect(res.errors).toBeUndefined();
    const leadId = res.data.tourLeadCreate.tourLead.id as string;
    const mail = await eventually(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', basic.user.username)
          .where('subject', 'like', '%Rita Rooms%')
          .executeTakeFirst(),
      'the lead mail',
    );
    expect(mail.text_body).toContain('Rooms viewed: Entrance 5 s, Kitchen 1 min 30 s, Master Bedroom 40 s');
    expect(mail.html_body).toContain('Rooms viewed: Entrance 5 s, Kitchen 1 min 30 s, Master Bedroom 40 s');

    const PATH = 'query($id: ID!) { node(id: $id) { ... on TourLead { name roomPath { name seconds } } } }';
    const own = await t.gql(PATH, { id: leadId }, basic.token);
    expect(own.data.node).toEqual({
      name: 'Rita',
      roomPath: [
        { name: 'Entrance', seconds: 5 },
        { name: 'Kitchen', seconds: 90 },
        { name: 'Master Bedroom', seconds: 40 },
      ],
    });
    const stranger = await seedUser(t.app, { plan: 'pro' });
    const other = await t.gql(PATH, { id: leadId }, stranger.token);
    expect(other.data.node?.roomPath ?? null).toBeNull();
    // A lead without a visitor id (an older player) has an empty path; a malformed id is not kept.
    const bare = await t.gql(LEAD_MUTATION, {
      input: leadInput(gid(), { leadType: 'CONTACT', email: 'bare@example.com', visitorId: 'bad id <x>' }),
    });
    expect((await t.gql(PATH, { id: bare.data.tourLeadCreate.tourLead.id }, basic.token)).data.node.roomPath).toEqual(
      [],
    );
  });
});

describe.each(DB_KINDS)('unique visitors per day on %s', (kind) => {
  let t: TestApp;
  let basic: SeededUser;
  let tourId: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    basic = await seedUser(t.app, { plan: 'basic' });
    [tourId] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1)) as [string];
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('counts a visitor who came twice in a day once for that day, before and after the rollup', async () => {
    const day = addDays(utcDay(new Date()), -3);
    const at = (h: number) => new Date(`${day}T${String(h).padStart(2, '0')}:00:00Z`);
    const rec = (visitorId: string, when: Date) =>
      recordBeacon(
        t.app.services,
        { tourId: `tour_${tourId}`, visitorId, secondsSpent: 20, roomsReached: 1 },
        { at: when },
      );
    // q visits twice (hours apart: two visits), r once.
    await rec('visitor-qqqq1', at(9));
    await rec('visitor-rrrr2', at(10));
    await rec('visitor-qqqq1', at(12));
    const period = { id: `tour_${tourId}`, from: `${day}T00:00:00Z`, to: `${day}T00:00:00Z` };
    const before = (await t.gql(ANALYTICS, period, basic.token)).data.tourAnalytics;
    expect(before.daily).toEqual([{ date: day, visits: 3, uniqueVisitors: 2 }]);
    const rolled = await rollupRoomAnalytics(t.app.services.db, new Date());
    expect((rolled?.days?.through ?? '') >= day, 'the day is rolled up').toBe(true);
    const after = (await t.gql(ANALYTICS, period, basic.token)).data.tourAnalytics;
    expect(after.daily).toEqual([{ date: day, visits: 3, uniqueVisitors: 2 }]);
    expect(after).toMatchObject({ visits: 3, uniqueVisitors: 2 });
  });
});
