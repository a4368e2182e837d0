/**
 * The daily rollup of room analytics (issue 21; run by jobs/room-analytics.ts every hour). Whole UTC days of visits
 * (by the day a visit started) are aggregated into tour_visit_daily and tour_room_daily, and each tour visitor's first
 * and last day into tour_visitors. A day is rolled up once no visit started on it can still change: a visit goes on
 * while its beacons come less than 30 minutes apart and counts at most 6 hours, so days before (now - SETTLE) are final.
 * A run recomputes every day after the last one rolled up (delete and insert in one transaction), so running it twice,
 * or on two workers at once (an advisory lock makes the second wait), gives the same rows.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { billingDb } from '../billing/tables.js';

/** How long after a day ends its visits may still change (6 h of visit plus the 30 min gap, rounded up). */
const ROLLUP_SETTLE_MS = 7 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** 'YYYY-MM-DD' of a moment in UTC. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** The last day rolled up, or null before the first run. */
export async function rolledThrough(db: Kysely<Database>): Promise<string | null> {
  const row = await db.selectFrom('analytics_rollup_state').select(sql<string>`rolled_through::text`.as('day')).where('id', '=', 1).executeTakeFirst();
  return row?.day ?? null;
}

/** Rolls up every final day not rolled up yet; returns the days it covered (null when there was nothing to do). */
export async function rollupRoomAnalytics(db: Kysely<Database>, now = new Date()): Promise<{ from: string; through: string; visits: number } | null> {
  const through = addDays(utcDay(new Date(now.getTime() - ROLLUP_SETTLE_MS)), -1);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('room-analytics-rollup'))`.execute(trx);
    const last = await rolledThrough(trx);
    let from: string;
    if (last) from = addDays(last, 1);
    else {
      const first = await billingDb(trx).selectFrom('view_events').select(sql<string | null>`min(started_at)`.as('first')).executeTakeFirst();
      from = first?.first ? utcDay(new Date(first.first)) : through;
    }
    if (from > through) return null;
    const start = new Date(`${from}T00:00:00Z`);
    const end = new Date(`${addDays(through, 1)}T00:00:00Z`);
    await trx.deleteFrom('tour_visit_daily').where('day', '>=', from).where('day', '<=', through).execute();
    await trx.deleteFrom('tour_room_daily').where('day', '>=', from).where('day', '<=', through).execute();
    const day = sql`(v.started_at AT TIME ZONE 'UTC')::date`;
    const inserted = await sql<{ visits: number }>`
      WITH ins AS (
        INSERT INTO tour_visit_daily (tour_id, day, visits, seconds, completed, fast_travels, phone, tablet, desktop)
        SELECT v.tour_id, ${day}, count(*), coalesce(sum(v.seconds_spent), 0), count(*) FILTER (WHERE v.reached_end),
               coalesce(sum(v.fast_travels), 0), count(*) FILTER (WHERE v.device = 'phone'),
               count(*) FILTER (WHERE v.device = 'tablet'), count(*) FILTER (WHERE v.device = 'desktop')
        FROM view_events v WHERE v.started_at >= ${start} AND v.started_at < ${end}
        GROUP BY v.tour_id, ${day}
        RETURNING visits
      ) SELECT coalesce(sum(visits), 0)::int AS visits FROM ins`.execute(trx);
    await sql`
      INSERT INTO tour_room_daily (tour_id, day, room, seconds, visits, exits)
      SELECT v.tour_id, ${day}, r.name, sum(r.seconds), count(*), count(*) FILTER (WHERE v.exit_room = r.name)
      FROM view_events v
      CROSS JOIN LATERAL (SELECT e->>'name' AS name, (e->>'seconds')::int AS seconds FROM jsonb_array_elements(v.rooms) e) r
      WHERE v.started_at >= ${start} AND v.started_at < ${end}
      GROUP BY v.tour_id, ${day}, r.name`.execute(trx);
    await sql`
      INSERT INTO tour_visitors (tour_id, visitor_id, first_day, last_day)
      SELECT v.tour_id, v.visitor_id, min(${day}), max(${day})
      FROM view_events v WHERE v.started_at >= ${start} AND v.started_at < ${end}
      GROUP BY v.tour_id, v.visitor_id
      ON CONFLICT (tour_id, visitor_id) DO UPDATE
        SET first_day = least(tour_visitors.first_day, excluded.first_day), last_day = greatest(tour_visitors.last_day, excluded.last_day)`.execute(trx);
    // Visitors per last day, rebuilt for the tours this run touched (unique visitors as a sum: room-analytics.ts).
    const touched = sql`SELECT DISTINCT v.tour_id FROM view_events v WHERE v.started_at >= ${start} AND v.started_at < ${end}`;
    await sql`DELETE FROM tour_visitor_last_days WHERE tour_id IN (${touched})`.execute(trx);
    await sql`
      INSERT INTO tour_visitor_last_days (tour_id, day, visitors)
      SELECT tour_id, last_day, count(*) FROM tour_visitors WHERE tour_id IN (${touched}) GROUP BY 1, 2`.execute(trx);
    await sql`
      INSERT INTO analytics_rollup_state (id, rolled_through, updated_at) VALUES (1, ${through}::date, now())
      ON CONFLICT (id) DO UPDATE SET rolled_through = excluded.rolled_through, updated_at = excluded.updated_at`.execute(trx);
    return { from, through, visits: Number(inserted.rows[0]?.visits ?? 0) };
  });
}
