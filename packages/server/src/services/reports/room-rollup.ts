/**
 * The room analytics rollup (run by jobs/room-analytics.ts every hour). Two parts, in one transaction:
 * - Whole UTC days of visits (by the day a visit started) are aggregated into tour_visit_daily and tour_room_daily. A
 *   day is rolled up once no visit started on it can still change: a visit goes on while its beacons come less than
 *   30 minutes apart and counts at most 6 hours, so days before (now - ROLLUP_SETTLE_MS) are final. A run recomputes
 *   every day after the last one rolled up (delete and insert), so running it twice gives the same rows.
 * - Each tour visitor's first and last day (tour_visitors, and visitors per last day in tour_visitor_last_days) is kept
 *   up to a few minutes before the run, not only to the last whole day: a visitor's days depend only on when their
 *   visits started, which never changes, so tourAnalytics checks only the visitors of the last hour one by one.
 * An advisory lock makes a second run (another worker) wait for the first.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { visitSeconds } from './visit-writer.js';
import { addDays, dayStart, utcDay } from '../../core/days.js';

/** How long after a day ends its visits may still change (6 h of visit plus the 30 min gap, rounded up). */
const ROLLUP_SETTLE_MS = 7 * 60 * 60 * 1000;
/** How long after it started a visit is surely written (a beacon waits for its group write: seconds at most). */
const VISITOR_SETTLE_MS = 5 * 60 * 1000;

export interface RollupState {
  /** The last day rolled up, or null before the first run. */
  rolledThrough: string | null;
  /** tour_visitors holds every visit that started before this moment (null before the first run). */
  visitorsThrough: Date | null;
}

export async function rollupState(db: Kysely<Database>): Promise<RollupState> {
  const row = await db
    .selectFrom('analytics_rollup_state')
    .select([sql<string>`rolled_through::text`.as('day'), 'visitors_through'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return {
    rolledThrough: row?.day ?? null,
    visitorsThrough: row?.visitors_through ? new Date(row.visitors_through) : null,
  };
}

export interface RollupDone {
  /** The days aggregated by this run, or null when no day had become final since the last run. */
  days: { from: string; through: string; visits: number } | null;
  /** tour_visitors now holds every visit that started before this moment. */
  visitorsThrough: Date;
}

/**
 * Rolls up every final day not rolled up yet and the visitors up to a few minutes ago; null when there was nothing to
 * do.
 */
export async function rollupRoomAnalytics(db: Kysely<Database>, now: Date): Promise<RollupDone | null> {
  const through = addDays(utcDay(new Date(now.getTime() - ROLLUP_SETTLE_MS)), -1);
  const visitorsUntil = new Date(now.getTime() - VISITOR_SETTLE_MS);
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('room-analytics-rollup'))`.execute(trx);
    const state = await rollupState(trx);
    let from: string;
    if (state.rolledThrough) from = addDays(state.rolledThrough, 1);
    else {
      const first = await trx
        .selectFrom('view_events')
        .select(sql<string | null>`min(started_at)`.as('first'))
        .executeTakeFirst();
      from = first?.first ? utcDay(new Date(first.first)) : through;
    }
    const days = from <= through ? await rollupDays(trx, from, through) : null;
    const visitorsFrom = state.visitorsThrough ?? (state.rolledThrough ? new Date(`${from}T00:00:00Z`) : null);
    const visitors = !visitorsFrom || visitorsFrom < visitorsUntil;
    if (visitors) await rollupVisitors(trx, visitorsFrom, visitorsUntil);
    if (!days && !visitors) return null;
    // Days before the first visit have nothing to aggregate: they count as rolled up.
    const rolledThrough = days ? through : (state.rolledThrough ?? addDays(from, -1));
    const visitorsThrough = visitors ? visitorsUntil : visitorsFrom!;
    await sql`
      INSERT INTO analytics_rollup_state (id, rolled_through, visitors_through, updated_at) VALUES (1, ${rolledThrough}::date, ${visitorsThrough}, now())
      ON CONFLICT (id) DO UPDATE SET rolled_through = excluded.rolled_through, visitors_through = excluded.visitors_through, updated_at = excluded.updated_at`.execute(
      trx,
    );
    return { days, visitorsThrough };
  });
}

const day = sql`(v.started_at AT TIME ZONE 'UTC')::date`;

/** Aggregates the visits that started on the days [from, through] (recomputed: delete, then insert). */
async function rollupDays(
  trx: Kysely<Database>,
  from: string,
  through: string,
): Promise<{ from: string; through: string; visits: number }> {
  const start = new Date(`${from}T00:00:00Z`);
  const end = dayStart(addDays(through, 1));
  await trx.deleteFrom('tour_visit_daily').where('day', '>=', from).where('day', '<=', through).execute();
  await trx.deleteFrom('tour_room_daily').where('day', '>=', from).where('day', '<=', through).execute();
  const inserted = await sql<{ visits: number }>`
    WITH ins AS (
      INSERT INTO tour_visit_daily (tour_id, day, visits, visitors, seconds, completed, fast_travels, phone, tablet, desktop)
      SELECT v.tour_id, ${day}, count(*), count(DISTINCT v.visitor_id), coalesce(sum(${visitSeconds('v')}), 0), count(*) FILTER (WHERE v.reached_end),
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
  return { from, through, visits: Number(inserted.rows[0]?.visits ?? 0) };
}

/**
 * Adds the visits that started in [from, until) (from null: all before until) to their visitors' first and last days.
 */
async function rollupVisitors(trx: Kysely<Database>, from: Date | null, until: Date): Promise<void> {
  const since = from ? sql`v.started_at >= ${from} AND` : sql``;
  await sql`
    INSERT INTO tour_visitors (tour_id, visitor_id, first_day, last_day)
    SELECT v.tour_id, v.visitor_id, min(${day}), max(${day})
    FROM view_events v WHERE ${since} v.started_at < ${until}
    GROUP BY v.tour_id, v.visitor_id
    ON CONFLICT (tour_id, visitor_id) DO UPDATE
      SET first_day = least(tour_visitors.first_day, excluded.first_day), last_day = greatest(tour_visitors.last_day, excluded.last_day)`.execute(
    trx,
  );
  // Visitors per last day, rebuilt for the tours this run touched (unique visitors as a sum: room-analytics.ts).
  const touched = await sql<{
    tour_id: string;
  }>`SELECT DISTINCT v.tour_id FROM view_events v WHERE ${since} v.started_at < ${until}`.execute(trx);
  if (!touched.rows.length) return;
  // One array parameter, however many tours (read once here instead of in both statements).
  const tours = sql`ANY(${touched.rows.map((r) => r.tour_id)}::uuid[])`;
  await sql`DELETE FROM tour_visitor_last_days WHERE tour_id = ${tours}`.execute(trx);
  await sql`
    INSERT INTO tour_visitor_last_days (tour_id, day, visitors)
    SELECT tour_id, last_day, count(*) FROM tour_visitors WHERE tour_id = ${tours} GROUP BY 1, 2`.execute(trx);
}
