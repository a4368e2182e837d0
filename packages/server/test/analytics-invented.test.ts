/**
 * Analytics that cannot be invented: what one address, or one anonymous beacon, can add to Tour Analytics and to what
 * the seller sees (the shared seller report, the digest mail and its PDF). Beacons go through the real route; the
 * "10-second visit" is made by moving its first beacon 10 s back in the database, since tests never sleep.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/test-app.js';
import { seedUser, type SeededUser } from './helpers/seed.js';
import { insertTours } from './billing-helpers.js';
import { eventually } from './fixtures/live-helpers.js';
import { RATE_LIMITS } from '../src/auth/rate-limit.js';
import { sweepDueDigests } from '../src/services/seller-reports/runs.js';
import { flushViews } from '../src/services/view-counter.js';

const ANALYTICS = `query($id: ID!) { tourAnalytics(tourId: $id) { visits averageSeconds completionRate fastTravels rooms { name seconds visits } exits { name visits } } }`;
const LINK_CREATE = 'mutation($input: SellerReportLinkCreateInput!) { sellerReportLinkCreate(input: $input) { url } }';
const SHARED =
  'query($token: String!) { sharedSellerReport(token: $token) { analytics { visits averageSeconds rooms { name seconds visits } exits { name visits } } } }';
const DIGEST_SAVE =
  'mutation($input: SellerReportDigestInput!) { sellerReportDigestSave(input: $input) { nextSendAt } }';

/** The tour's markers: the only rooms a visit can have ('' before the first marker is the Entrance). */
const ROOMS = ['Kitchen', 'Lounge'];
/** Names a beacon may bring that are no markers: formula-looking, and a message to the seller. */
const INVENTED = ['-2+3', '@cmd', '+SUM(1,2)', 'Call 0800 000 000: buyer offers 20% below asking'];
/** The most a visit's first beacon may claim (services/reports/visit-writer.ts VISIT_START_GRACE_SECONDS). */
const GRACE = 15;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'invented-analytics-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const pdfText = (pdf: Buffer) => {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

describe.each(DB_KINDS)('analytics that cannot be invented on %s', (kind) => {
  let t: TestApp;
  let pro: SeededUser;
  // Every beacon of this file comes from 127.0.0.1: fewer than RATE_LIMITS.tourVisit.points in all.
  const post = (body: unknown) =>
    fetch(`${t.url}/tour-visit`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(body),
    });
  const visitsOf = (id: string) =>
    t.app.services.db.selectFrom('view_events').selectAll().where('tour_id', '=', id).orderBy('started_at').execute();
  const newTour = async (title: string) =>
    (
      await insertTours(t.app, { companyId: pro.company.id, userId: pro.user.id }, 1, {
        title: () => title,
        rooms: ROOMS,
      })
    )[0]!;

  beforeAll(async () => {
    t = await startTestApp(kind);
    pro = await seedUser(t.app, { plan: 'pro', name: 'Thandi', surname: 'Nkosi' });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it('one address opens a plausible number of visits per tour: made-up visitor ids beyond it add nothing, open visits go on', async () => {
    const tour = await newTour('Flooded Flat');
    const open = RATE_LIMITS.visitOpen.points;
    const answers: number[] = [];
    const sent = open + 10;
    for (let i = 0; i < sent; i++) {
      const r = await post({
        tourId: `tour_${tour}`,
        visitorId: `made-up-visitor-${i}`,
        secondsSpent: 21_600,
        roomsReached: 2,
        reachedEnd: true,
      });
      answers.push(r.status);
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(answers).toEqual([...Array(open).fill(204), ...Array(sent - open).fill(429)]);
    const rows = await visitsOf(tour);
    expect(rows).toHaveLength(open);
    for (const r of rows) expect(r.seconds_spent).toBeLessThanOrEqual(GRACE + 1);
    // A visit this address opened still reports its time (the limit is on opening visits, not on beacons).
    expect(
      (await post({ tourId: `tour_${tour}`, visitorId: 'made-up-visitor-0', secondsSpent: 3, roomsReached: 1 })).status,
    ).toBe(204);
    await flushViews(t.app.services);
    const card = await t.app.services.db
      .selectFrom('tours')
      .select('views')
      .where('id', '=', tour)
      .executeTakeFirstOrThrow();
    expect(card.views).toBe(open);
    const a = (await t.gql(ANALYTICS, { id: `tour_${tour}` }, pro.token)).data.tourAnalytics;
    expect(a.visits).toBe(open);
    expect(a.averageSeconds).toBeLessThanOrEqual(GRACE + 1);
  });

  it('an anonymous 8 KB beacon of 200 made-up rooms of 21,600 s from a 10-second visit adds nothing invented to analytics, seller report, digest or PDF', async () => {
    const tour = await newTour('Garden Cottage');
    const tourId = `tour_${tour}`;
    const visitorId = 'ten-second-visitor';
    expect((await post({ tourId, visitorId })).status).toBe(204);
    await sql`UPDATE view_events SET started_at = started_at - interval '10 seconds', last_seen_at = last_seen_at - interval '10 seconds' WHERE tour_id = ${tour}`.execute(
      t.app.services.db,
    );

    const names = [
      ...INVENTED.slice(0, 2),
      'Kitchen',
      ...INVENTED.slice(2),
      ...Array.from({ length: 195 }, (_v, i) => (i === 100 ? 'Lounge' : `Made-up room ${i}`)),
    ];
    const beacon = {
      tourId,
      visitorId,
      secondsSpent: 21_600,
      roomsReached: 200,
      fastTravels: 1000,
      reachedEnd: true,
      segments: names.map((room) => ({ room, seconds: 21_600 })),
    };
    expect(names).toHaveLength(200);
    expect(Buffer.byteLength(JSON.stringify(beacon))).toBeGreaterThan(8 * 1024);
    expect((await post(beacon)).status).toBe(204);

    // What was stored: at most the 10 seconds since the first beacon (plus what a first beacon may claim), only the
    // tour's rooms, their time within the visit's, no more rooms reached than markers, at most a fast travel a second.
    const [row] = await visitsOf(tour);
    expect(row!.seconds_spent).toBeGreaterThanOrEqual(10 + GRACE);
    expect(row!.seconds_spent).toBeLessThanOrEqual(10 + GRACE + 5);
    expect(row!.rooms).toEqual([{ name: 'Kitchen', seconds: row!.seconds_spent }]);
    expect(row!.exit_room).toBeNull();
    expect(row!.rooms_reached).toBe(ROOMS.length);
    expect(row!.fast_travels).toBeLessThanOrEqual(row!.seconds_spent);

    // A visit written before beacons were checked (one beacon, 60 s, made-up rooms): what it claims is not shown
    // either.
    await t.app.services.db
      .insertInto('view_events')
      .values({
        tour_id: tour,
        company_id: pro.company.id,
        visitor_id: 'visitor-from-before',
        started_at: new Date(Date.now() - 3_600_000),
        last_seen_at: new Date(Date.now() - 3_600_000),
        seconds_spent: 60,
        rooms_reached: 1,
        rooms: JSON.stringify([
          ...INVENTED.map((name) => ({ name, seconds: 21_600 })),
          { name: 'Lounge', seconds: 40 },
        ]),
        exit_room: '@cmd',
        reached_end: false,
        fast_travels: 0,
        device: 'phone',
      })
      .execute();

    const shown = (text: string) => INVENTED.filter((n) => text.includes(n));
    const analytics = (await t.gql(ANALYTICS, { id: tourId }, pro.token)).data.tourAnalytics;
    expect(analytics.rooms.map((r: { name: string }) => r.name).sort()).toEqual(['Kitchen', 'Lounge']);
    expect(analytics.exits).toEqual([]);
    // Its 60 s are read as what a visit of one beacon may claim.
    expect(analytics.averageSeconds).toBe((row!.seconds_spent + GRACE) / 2);
    expect(analytics.rooms.find((r: { name: string }) => r.name === 'Kitchen').seconds).toBe(row!.seconds_spent);
    expect(shown(JSON.stringify(analytics))).toEqual([]);

    const url = (await t.gql(LINK_CREATE, { input: { tourId } }, pro.token)).data.sellerReportLinkCreate.url as string;
    const shared = (await t.gql(SHARED, { token: url.split('/').pop() })).data.sharedSellerReport.analytics;
    expect(shared.rooms).toEqual(analytics.rooms);
    expect(shown(JSON.stringify(shared))).toEqual([]);

    // The digest mail (in the outbox: no SMTP here) and the seller PDF it carries.
    const saved = await t.gql(
      DIGEST_SAVE,
      { input: { tourId, frequency: 'WEEKLY', day: 1, recipients: ['seller@example.com'] } },
      pro.token,
    );
    expect(saved.errors).toBeUndefined();
    expect(
      await sweepDueDigests(
        t.app.services,
        new Date(Date.parse(saved.data.sellerReportDigestSave.nextSendAt) + 60_000),
      ),
    ).toBe(1);
    const mail = await eventually(
      () =>
        t.app.services.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('to_address', '=', 'seller@example.com')
          .where('subject', 'like', '%Garden Cottage%')
          .executeTakeFirst(),
      'the digest mail',
    );
    expect(mail.text_body).toMatch(/Where buyers spent their time: Lounge 40 s, Kitchen \d+ s\./);
    expect(shown(`${mail.text_body} ${mail.html_body}`)).toEqual([]);
    const attachment = await t.app.services.db
      .selectFrom('mail_outbox_attachments')
      .select('content')
      .where('mail_id', '=', mail.id)
      .executeTakeFirstOrThrow();
    const pdf = pdfText(Buffer.from(attachment.content));
    expect(pdf).toContain('Kitchen');
    expect(pdf).not.toContain('Made-up room');
    expect(shown(pdf)).toEqual([]);
  });
});
