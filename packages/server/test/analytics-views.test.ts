import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { insertTours } from './billing-helpers.js';
import { VISIT_GAP_MS } from '../src/services/reports/analytics.js';
import { RATE_LIMITS } from '../src/auth/rate-limit.js';
import { recordBeacon } from './fixtures/visits.js';
import { flushViews } from '../src/services/view-counter.js';

const RECORD = 'mutation($input: TourViewRecordInput!) { tourViewRecord(input: $input) { success } }';
const USER_ANALYTICS =
  '{ me { user { monthlyActiveTours tourAnalytics { visits uniqueVisitors totalSecondsSpent averageSecondsSpent averageRoomsReached } } } }';
const TOURS_REPORT =
  'mutation($input: ReportExportInput!) { generateTourByCompanyReport(input: $input) { fileContent } }';
const csvRows = (b64: string) =>
  Buffer.from(b64, 'base64')
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));
const TOUR_ANALYTICS =
  'query($id: ID!) { node(id: $id) { ... on Tour { views analytics { visits uniqueVisitors averageSecondsSpent averageRoomsReached } } } }';

describe.each(DB_KINDS)('tour analytics on %s', (kind) => {
  let t: TestApp;
  let basic: SeededUser;
  let tourId: string;
  const visits = () =>
    t.app.services.db
      .selectFrom('view_events')
      .selectAll()
      .where('tour_id', '=', tourId)
      .orderBy('started_at')
      .execute();

  beforeAll(async () => {
    t = await startTestApp(kind);
    basic = await seedUser(t.app, { plan: 'basic' });
    [tourId] = (await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      rooms: ['Kitchen', 'Lounge', 'Bedroom'],
    })) as [string];
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('records a visit from the public player and keeps one row per visit as it goes on', async () => {
    const input = { tourId: `tour_${tourId}`, visitorId: 'anon-visitor-1', secondsSpent: 10, roomsReached: 1 };
    expect((await t.gql(RECORD, { input })).data.tourViewRecord).toEqual({ success: true });
    await t.gql(RECORD, { input: { ...input, secondsSpent: 14, roomsReached: 3 } });
    // A late, smaller report of the same visit never lowers it.
    await t.gql(RECORD, { input: { ...input, secondsSpent: 12, roomsReached: 2 } });
    await t.gql(RECORD, { input: { ...input, visitorId: 'anon-visitor-2', secondsSpent: 15, roomsReached: 1 } });
    const rows = await visits();
    expect(rows.map((r) => [r.visitor_id, r.seconds_spent, r.rooms_reached])).toEqual([
      ['anon-visitor-1', 14, 3],
      ['anon-visitor-2', 15, 1],
    ]);
    expect(rows[0]!.company_id).toBe(basic.company.id);
  });

  it('starts a new visit after 30 minutes without news from the visitor', async () => {
    const later = new Date(Date.now() + VISIT_GAP_MS + 1000);
    await recordBeacon(
      t.app.services,
      { tourId: `tour_${tourId}`, visitorId: 'anon-visitor-1', secondsSpent: 5, roomsReached: 1 },
      { at: later },
    );
    expect((await visits()).filter((r) => r.visitor_id === 'anon-visitor-1')).toHaveLength(2);
  });

  it('refuses out-of-bounds input with a clear error and records nothing', async () => {
    const before = (await visits()).length;
    const base = { tourId: `tour_${tourId}`, visitorId: 'anon-visitor-9', secondsSpent: 1, roomsReached: 0 };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ secondsSpent: -1 }, 'Seconds cannot be negative.'],
      [{ secondsSpent: 6 * 3600 + 1 }, 'Too many seconds for one visit.'],
      [{ roomsReached: 501 }, 'Too many rooms for one visit.'],
      [{ visitorId: 'short' }, 'The visitor id is too short.'],
      [{ visitorId: 'x'.repeat(65) }, 'The visitor id is too long.'],
      [{ visitorId: 'bad id <script>' }, 'The visitor id may hold letters, digits, _ and - only.'],
    ];
    for (const [over, message] of cases) {
      const r = await t.gql(RECORD, { input: { ...base, ...over } });
      expect(r.errors?.[0]?.extensions?.code, message).toBe(ERROR_CODES.BAD_USER_INPUT);
      expect(r.errors?.[0]?.message).toBe(message);
    }
    expect((await t.gql(RECORD, { input: { ...base, tourId: 'nonsense' } })).errors?.[0]?.extensions?.code).toBe(
      ERROR_CODES.INVALID_TOUR_ID,
    );
    expect(
      (await t.gql(RECORD, { input: { ...base, tourId: 'tour_00000000-0000-4000-8000-000000000000' } })).errors?.[0]
        ?.extensions?.code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect((await visits()).length).toBe(before);
  });

  it('shows analytics to Basic and higher, and null (counts only) to Free and Entry', async () => {
    const me = await t.gql(USER_ANALYTICS, {}, basic.token);
    expect(me.data.me.user.tourAnalytics).toEqual({
      visits: 3,
      uniqueVisitors: 2,
      totalSecondsSpent: 34,
      averageSecondsSpent: 11.3,
      averageRoomsReached: 1.7,
    });
    const node = await t.gql(TOUR_ANALYTICS, { id: `tour_${tourId}` }, basic.token);
    expect(node.data.node.analytics).toMatchObject({ visits: 3, uniqueVisitors: 2 });

    const entry = await seedUser(t.app, { plan: 'entry' });
    const [entryTour] = await insertTours(t.app, { companyId: entry.company.id, userId: entry.user.id }, 1, {
      views: () => 8,
    });
    await t.gql(RECORD, {
      input: { tourId: `tour_${entryTour}`, visitorId: 'anon-visitor-3', secondsSpent: 5, roomsReached: 1 },
    });
    const e = await t.gql(USER_ANALYTICS, {}, entry.token);
    expect(e.data.me.user).toEqual({ monthlyActiveTours: 1, tourAnalytics: null });
    await flushViews(t.app.services);
    const en = await t.gql(TOUR_ANALYTICS, { id: `tour_${entryTour}` }, entry.token);
    // The visit above counts as a view (8 before): counts are for every plan, analytics for Basic and higher.
    expect(en.data.node).toEqual({ views: 9, analytics: null });
  });

  it('takes the player beacon (POST /tour-visit, text/plain JSON as sendBeacon sends it) and refuses bad beacons clearly, writing nothing', async () => {
    const post = (body: string, type = 'text/plain;charset=UTF-8') =>
      fetch(`${t.url}/tour-visit`, { method: 'POST', headers: { 'content-type': type }, body });
    const before = (await visits()).length;
    const ok = await post(JSON.stringify({ tourId: `tour_${tourId}`, visitorId: 'beacon-visitor-1' }));
    expect(ok.status).toBe(204);
    expect((await visits()).length).toBe(before + 1);
    const cases: Array<[string, number, string]> = [
      ['not json', 400, 'The visit could not be read.'],
      ['[]', 400, 'The visit could not be read.'],
      [JSON.stringify({ visitorId: 'beacon-visitor-2' }), 400, 'This is not a valid tour link.'],
      [JSON.stringify({ tourId: 'nonsense', visitorId: 'beacon-visitor-2' }), 400, 'This is not a valid tour link.'],
      [JSON.stringify({ tourId: `tour_${tourId}` }), 400, 'The visitor id is missing.'],
      [
        JSON.stringify({ tourId: `tour_${tourId}`, visitorId: 'bad id <script>' }),
        400,
        'The visitor id may hold letters, digits, _ and - only.',
      ],
      [
        JSON.stringify({ tourId: `tour_${tourId}`, visitorId: 'beacon-visitor-2', secondsSpent: 'x' }),
        400,
        'Seconds must be a number.',
      ],
      [
        JSON.stringify({ tourId: 'tour_00000000-0000-4000-8000-000000000000', visitorId: 'beacon-visitor-2' }),
        404,
        'Not found.',
      ],
    ];
    for (const [body, status, message] of cases) {
      const r = await post(body);
      expect(r.status, body).toBe(status);
      expect(((await r.json()) as { error: string }).error, body).toBe(message);
    }
    // Over 16 KiB (room segments need more than the first beacon's 1 KiB): refused before it is read.
    expect(
      (
        await post(
          JSON.stringify({ tourId: `tour_${tourId}`, visitorId: 'beacon-visitor-2', pad: 'x'.repeat(17 * 1024) }),
        )
      ).status,
    ).toBe(413);
    // A tour that does not play yet cannot be visited.
    const [processing] = await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      status: 'PROCESSING',
    });
    expect((await post(JSON.stringify({ tourId: `tour_${processing}`, visitorId: 'beacon-visitor-2' }))).status).toBe(
      404,
    );
    expect((await visits()).length).toBe(before + 1);
  });

  it("one definition: the card's views, the analytics' visits and Tours By Company's row agree", async () => {
    const [fresh] = await insertTours(t.app, { companyId: basic.company.id, userId: basic.user.id }, 1, {
      title: () => 'One definition',
    });
    const beacon = (visitorId: string, secondsSpent = 0) =>
      fetch(`${t.url}/tour-visit`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({ tourId: `tour_${fresh}`, visitorId, secondsSpent, roomsReached: 1 }),
      });
    // Three visitors, one of them reporting three times in one visit; and anonymous tour() answers, which count
    // nothing.
    for (const [v, s] of [
      ['def-visitor-1', 0],
      ['def-visitor-1', 20],
      ['def-visitor-1', 40],
      ['def-visitor-2', 10],
      ['def-visitor-3', 30],
    ] as const)
      expect((await beacon(v, s)).status).toBe(204);
    for (let i = 0; i < 5; i++) await t.gql('query($id: ID!) { tour(tourID: $id) { id } }', { id: `tour_${fresh}` });
    await flushViews(t.app.services);
    const node = await t.gql(TOUR_ANALYTICS, { id: `tour_${fresh}` }, basic.token);
    expect(node.data.node.views).toBe(3);
    expect(node.data.node.analytics).toMatchObject({ visits: 3, uniqueVisitors: 3 });
    const report = await t.gql(TOURS_REPORT, { input: { companyId: basic.companyId, exportType: 'csv' } }, basic.token);
    const rows = csvRows(report.data.generateTourByCompanyReport.fileContent);
    const header = rows[0]!;
    expect(header).toContain('Views (visits)');
    expect(header).toContain('Unique visitors');
    const row = rows.find((r) => r[0] === 'One definition')!;
    expect(row[header.indexOf('Views (visits)')]).toBe('3');
    expect(row[header.indexOf('Unique visitors')]).toBe('3');
    expect(rows.flat().join(' ')).toContain('A view is a visit');
  });

  it('limits calls per IP', async () => {
    const input = { tourId: `tour_${tourId}`, visitorId: 'anon-visitor-rate', secondsSpent: 1, roomsReached: 0 };
    // One more than the address's calls of a minute, all at once (one after another, a loaded machine can outlast the
    // minute).
    const answers = await Promise.all(
      Array.from({ length: RATE_LIMITS.tourVisit.points + 1 }, () => t.gql(RECORD, { input })),
    );
    expect(answers.map((r) => r.errors?.[0]?.extensions?.code)).toContain(ERROR_CODES.RATE_LIMITED);
  });
});
