/**
 * tourAnalytics: a tour's visits over a period, time per room, where visits end, visits per day and the
 * device split. Plans with Tour Analytics only (Basic, Pro, Offline License: PLAN_REQUIRED otherwise); the tour's owner
 * or an admin of its company (as for editing the tour). Days rolled up (services/reports/room-rollup.ts) are read from
 * the daily aggregates, the days after them from the visits themselves, so the answer is the same before and after a
 * rollup and its cost does not grow with the number of visits.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DEVICE_CLASSES, ERROR_CODES } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import type { AuthInfo } from '../../core/auth.js';
import type { Database } from '../../db/types.js';
import type { Services } from '../services.js';
import { loadEditableTour } from '../tours.js';
import { audienceLinkOfTour } from '../audience-links/audience-links.js';
import { canSeeAnalytics } from './analytics.js';
import { addDays, DAY_MS, dayStart, utcDay } from '../../core/days.js';
import { rollupState } from './room-rollup.js';
import { roomLabel } from './visit-rooms.js';
import { visitSeconds } from './visit-writer.js';
import { serverNow } from '../../core/clock.js';

const ANALYTICS_PLAN_REQUIRED_TEXT = 'Tour Analytics need the Basic or Pro plan. Upgrade to see them.';
/** The period when none is given, and the longest one asked for. */
const DEFAULT_PERIOD_DAYS = 30;
const MAX_PERIOD_DAYS = 366;

interface RoomAnalytics {
  /** Seconds in this room over all visits of the period (average per visit: seconds / visits). */
  name: string;
  seconds: number;
  visits: number;
}

export interface TourRoomAnalytics {
  from: string;
  to: string;
  visits: number;
  uniqueVisitors: number;
  averageSeconds: number;
  completionRate: number;
  fastTravels: number;
  rooms: RoomAnalytics[];
  exits: Array<{ name: string; visits: number }>;
  daily: Array<{ date: string; visits: number; uniqueVisitors: number }>;
  devices: Array<{ name: string; visits: number }>;
}

/** The whole UTC days a request covers: `to` defaults to today, `from` to 29 days before `to`. */
export function periodDays(
  from: Date | null | undefined,
  to: Date | null | undefined,
  now: Date,
): { from: string; to: string } {
  const toDay = utcDay(to ?? now);
  const fromDay = from ? utcDay(from) : addDays(toDay, -(DEFAULT_PERIOD_DAYS - 1));
  if (fromDay > toDay)
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'The period must start before it ends.', { field: 'from' });
  if (Date.parse(toDay) - Date.parse(fromDay) >= MAX_PERIOD_DAYS * DAY_MS)
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, 'Choose a period of at most a year.', { field: 'from' });
  return { from: fromDay, to: toDay };
}

/** The GraphQL entry: access and plan checks, then the figures. */
export async function tourAnalyticsFor(
  services: Services,
  auth: AuthInfo,
  args: { tourId: string; from?: Date | null; to?: Date | null; audienceLinkId?: string | null },
  now = serverNow(services),
): Promise<TourRoomAnalytics> {
  const tour = await loadEditableTour(services, auth, args.tourId);
  if (!canSeeAnalytics(auth.roles)) throw new AppError(ERROR_CODES.PLAN_REQUIRED, ANALYTICS_PLAN_REQUIRED_TEXT);
  const linkId = args.audienceLinkId ? await audienceLinkOfTour(services, tour.id, args.audienceLinkId) : null;
  return roomAnalytics(services.db, tour.id, periodDays(args.from, args.to, now), linkId);
}

/**
 * The figures of one tour over whole UTC days [from, to]; with `linkId`, of the visits made through that audience link
 * only (read from the visits themselves: the daily rollups do not keep the link).
 */
export async function roomAnalytics(
  db: Kysely<Database>,
  tourId: string,
  period: { from: string; to: string },
  linkId: string | null = null,
): Promise<TourRoomAnalytics> {
  const state = await rollupState(db);
  const rolled = linkId ? null : state.rolledThrough;
  const byLink = linkId ? sql`AND v.audience_link_id = ${linkId}` : sql``;
  // Aggregates for [from, min(to, rolled)], visits for [max(from, rolled + 1), to].
  const aggTo = rolled && rolled < period.to ? rolled : period.to;
  const useAgg = !!rolled && period.from <= aggTo;
  const rawFrom = rolled && addDays(rolled, 1) > period.from ? addDays(rolled, 1) : period.from;
  const useRaw = rawFrom <= period.to;
  const rawStart = new Date(`${rawFrom}T00:00:00Z`);
  const rawEnd = dayStart(addDays(period.to, 1));
  const day = sql`(v.started_at AT TIME ZONE 'UTC')::date`;
  // Only the tour's rooms as they are now (its markers, and '' before the first): a deleted room, or any name a beacon
  // brought before rooms were checked where visits are written, is not shown (nor in the seller report, PDF and
  // digest).
  const tourRoom = (name: RawBuilder<unknown>) =>
    sql`(${name} = '' OR ${name} IN (SELECT m.name FROM markers m WHERE m.tour_id = ${tourId}))`;

  const [aggDays, rawDays, aggRooms, rawRooms, unique] = await Promise.all([
    useAgg
      ? sql<DayRow>`SELECT day::text AS day, visits, visitors, seconds::float8 AS seconds, completed, fast_travels, phone, tablet, desktop
          FROM tour_visit_daily WHERE tour_id = ${tourId} AND day >= ${period.from}::date AND day <= ${aggTo}::date`.execute(
          db,
        )
      : null,
    useRaw
      ? sql<DayRow>`SELECT ${day}::text AS day, count(*)::int AS visits, count(DISTINCT v.visitor_id)::int AS visitors, coalesce(sum(${visitSeconds('v')}), 0)::float8 AS seconds,
            count(*) FILTER (WHERE v.reached_end)::int AS completed, coalesce(sum(v.fast_travels), 0)::int AS fast_travels,
            count(*) FILTER (WHERE v.device = 'phone')::int AS phone, count(*) FILTER (WHERE v.device = 'tablet')::int AS tablet,
            count(*) FILTER (WHERE v.device = 'desktop')::int AS desktop
          FROM view_events v WHERE v.tour_id = ${tourId} AND v.started_at >= ${rawStart} AND v.started_at < ${rawEnd} ${byLink} GROUP BY 1`.execute(
          db,
        )
      : null,
    useAgg
      ? sql<RoomRow>`SELECT room, sum(seconds)::float8 AS seconds, sum(visits)::int AS visits, sum(exits)::int AS exits
          FROM tour_room_daily WHERE tour_id = ${tourId} AND day >= ${period.from}::date AND day <= ${aggTo}::date AND ${tourRoom(sql.ref('room'))} GROUP BY room`.execute(
          db,
        )
      : null,
    useRaw
      ? sql<RoomRow>`SELECT e->>'name' AS room, sum((e->>'seconds')::int)::float8 AS seconds, count(*)::int AS visits,
            count(*) FILTER (WHERE v.exit_room = e->>'name')::int AS exits
          FROM view_events v CROSS JOIN LATERAL jsonb_array_elements(v.rooms) e
          WHERE v.tour_id = ${tourId} AND v.started_at >= ${rawStart} AND v.started_at < ${rawEnd} ${byLink} AND ${tourRoom(sql`e->>'name'`)} GROUP BY 1`.execute(
          db,
        )
      : null,
    linkId ? linkVisitors(db, tourId, period, linkId) : uniqueVisitors(db, tourId, period, state.visitorsThrough),
  ]);

  const days = new Map<string, DayRow>();
  for (const r of [...(aggDays?.rows ?? []), ...(rawDays?.rows ?? [])]) {
    const d = days.get(r.day);
    if (!d) days.set(r.day, { ...r });
    else for (const k of DAY_SUMS) d[k] = Number(d[k]) + Number(r[k]);
  }
  const total = (k: (typeof DAY_SUMS)[number]) => [...days.values()].reduce((n, d) => n + Number(d[k]), 0);
  const visits = total('visits');

  const rooms = new Map<string, { seconds: number; visits: number; exits: number }>();
  for (const r of [...(aggRooms?.rows ?? []), ...(rawRooms?.rows ?? [])]) {
    const name = roomLabel(r.room);
    const x = rooms.get(name) ?? { seconds: 0, visits: 0, exits: 0 };
    x.seconds += Number(r.seconds);
    x.visits += Number(r.visits);
    x.exits += Number(r.exits);
    rooms.set(name, x);
  }
  const roomList = [...rooms.entries()].map(([name, x]) => ({ name, ...x }));

  // A day is read either from its aggregate or from its visits, never both, so a day's visitors add up as they are.
  const daily: TourRoomAnalytics['daily'] = [];
  for (let d = period.from; d <= period.to; d = addDays(d, 1))
    daily.push({
      date: d,
      visits: Number(days.get(d)?.visits ?? 0),
      uniqueVisitors: Number(days.get(d)?.visitors ?? 0),
    });

  return {
    from: period.from,
    to: period.to,
    visits,
    uniqueVisitors: unique,
    averageSeconds: visits ? Math.round((total('seconds') / visits) * 10) / 10 : 0,
    completionRate: visits ? Math.round((total('completed') / visits) * 1000) / 1000 : 0,
    fastTravels: total('fast_travels'),
    rooms: roomList
      .filter((r) => r.visits > 0)
      .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
      .map(({ name, seconds, visits }) => ({ name, seconds, visits })),
    exits: roomList
      .filter((r) => r.exits > 0)
      .sort((a, b) => b.exits - a.exits || a.name.localeCompare(b.name))
      .map(({ name, exits }) => ({ name, visits: exits })),
    daily,
    devices: DEVICE_CLASSES.map((name) => ({ name, visits: total(name) })),
  };
}

interface DayRow {
  day: string;
  visits: number;
  visitors: number;
  seconds: number;
  completed: number;
  fast_travels: number;
  phone: number;
  tablet: number;
  desktop: number;
}
const DAY_SUMS = ['visits', 'visitors', 'seconds', 'completed', 'fast_travels', 'phone', 'tablet', 'desktop'] as const;
interface RoomRow {
  room: string;
  seconds: number;
  visits: number;
  exits: number;
}

/** Distinct visitors of the period who came through one audience link. */
async function linkVisitors(
  db: Kysely<Database>,
  tourId: string,
  period: { from: string; to: string },
  linkId: string,
): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(DISTINCT visitor_id)::int AS n FROM view_events
    WHERE tour_id = ${tourId} AND audience_link_id = ${linkId} AND started_at >= ${new Date(`${period.from}T00:00:00Z`)}
      AND started_at < ${dayStart(addDays(period.to, 1))}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * Distinct visitors of the period. The rollup keeps each visitor's last day for the visits that started before
 * `visitorsThrough` (a few minutes before its last run, room-rollup.ts). When the period runs to that day or later,
 * such a visitor visited in it exactly when their last day is in it (a sum over at most a year of rows); the visitors
 * of the visits since then are added unless already counted (an hour's visitors checked one by one). A period that ends
 * before that day is counted from the visits themselves.
 */
async function uniqueVisitors(
  db: Kysely<Database>,
  tourId: string,
  period: { from: string; to: string },
  visitorsThrough: Date | null,
): Promise<number> {
  const start = new Date(`${period.from}T00:00:00Z`);
  const end = dayStart(addDays(period.to, 1));
  if (!visitorsThrough || period.to < utcDay(visitorsThrough)) {
    const r = await sql<{ n: number }>`SELECT count(DISTINCT visitor_id)::int AS n FROM view_events
      WHERE tour_id = ${tourId} AND started_at >= ${start} AND started_at < ${end}`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  }
  const freshFrom = visitorsThrough > start ? visitorsThrough : start;
  const [known, fresh] = await Promise.all([
    sql<{
      n: number;
    }>`SELECT coalesce(sum(visitors), 0)::int AS n FROM tour_visitor_last_days WHERE tour_id = ${tourId} AND day >= ${period.from}::date`.execute(
      db,
    ),
    sql<{ n: number }>`SELECT count(*)::int AS n FROM (
        SELECT v.visitor_id FROM view_events v WHERE v.tour_id = ${tourId} AND v.started_at >= ${freshFrom} AND v.started_at < ${end} GROUP BY 1
      ) d WHERE NOT EXISTS (SELECT 1 FROM tour_visitors tv WHERE tv.tour_id = ${tourId} AND tv.visitor_id = d.visitor_id AND tv.last_day >= ${period.from}::date)`.execute(
      db,
    ),
  ]);
  return Number(known.rows[0]?.n ?? 0) + Number(fresh.rows[0]?.n ?? 0);
}
