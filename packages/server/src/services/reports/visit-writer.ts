/**
 * Writes visit beacons in groups (the beacon endpoint's ≥ 2,000 beacons/s): each beacon waits for the write
 * that carries it, but a node runs one write at a time and each write takes every beacon that came meanwhile
 * (group commit), so under load one transaction of four round trips serves many beacons instead of one. A lone beacon
 * is written at once (no timer). In the write: the visitors' locks (one advisory lock per tour, visitor and audience
 * link, taken in order, so two nodes never open two visits for one visitor), then one statement that checks each tour
 * (known, not deleted, playable), extends each visitor's visit of the last 30 minutes through the same link (or the
 * tour's own) or opens one (when the beacon may), and
 * answers per beacon. Beacons of one visitor in the same group are merged first (they would otherwise both open a
 * visit).
 *
 * The same statement keeps what a beacon claims plausible, since anyone can send one: a visit's seconds are at most the
 * time since its first beacon (plus VISIT_START_GRACE_SECONDS), its rooms are the tour's markers ('' before the first
 * marker) and their seconds add up to at most the visit's, cut in the order the rooms were entered; rooms reached are
 * at most the tour's markers, fast travels at most one a second. Nothing else is stored of a beacon.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { TOUR_STATUS } from '@roomwalk/shared';
import type { Database } from '../../db/types.js';
import type { VisitRoom } from './visit-rooms.js';

/**
 * What the player may have counted before its first beacon of a visit reached us: the visit chunk loads on idle (at
 * most 2 s) and a visit left before that reports its seconds in its only beacon.
 */
const VISIT_START_GRACE_SECONDS = 15;
/**
 * A stored visit's seconds as the writes allow them: at most from its first beacon to its last, plus the grace. Visits
 * are written within this; ones written before it was checked may claim more, and are read as this.
 */
export const visitSeconds = (visit: string): RawBuilder<number> =>
  sql<number>`least(${sql.ref(`${visit}.seconds_spent`)}, ${sql.lit(VISIT_START_GRACE_SECONDS)} + floor(extract(epoch FROM ${sql.ref(`${visit}.last_seen_at`)} - ${sql.ref(`${visit}.started_at`)}))::int)`;
/** The most beacons one write takes. */
const MAX_GROUP = 1000;
/**
 * Writes running at once on a node. One: each write then takes every beacon that came while the last one ran, and
 * fewer transactions contend; more writes at once took more PostgreSQL CPU per beacon and wrote fewer beacons a
 * second (`npm run bench:analytics`, BENCH_ONLY=beacon; the figures are in docs/results.md, Analytics).
 */
const WRITES_AT_ONCE = 1;
/** Beacons waiting beyond this are refused (busy) rather than held in memory without bound. */
export const MAX_WAITING = 50_000;

export interface VisitWrite {
  tourId: string;
  visitorId: string;
  at: Date;
  /**
   * Whether this beacon may open a new visit (the address has new visits left for this tour); it may always extend one.
   */
  mayOpen: boolean;
  secondsSpent: number;
  roomsReached: number;
  /** Rooms summed per room in the order first entered, with their total; null when the beacon had none. */
  rooms: { rooms: VisitRoom[]; exitRoom: string | null; seconds: number } | null;
  reachedEnd: boolean;
  fastTravels: number;
  device: string | null;
  /** The audience link a new visit is counted under (null: the tour's own links). */
  audienceLinkId: string | null;
}

/**
 * found: the tour takes visits; opened: this beacon opened a visit (count a view); refused: it would have opened one
 * but may not (nothing was written); deactivated: where the view goes.
 */
export interface VisitWritten {
  found: boolean;
  opened: boolean;
  refused: boolean;
  deactivated: boolean;
}

interface Pending extends VisitWrite {
  resolve: (r: VisitWritten) => void;
  reject: (e: unknown) => void;
}

export class VisitWriter {
  #pending: Pending[] = [];
  #active = 0;
  #idle: Array<() => void> = [];

  constructor(
    private readonly db: Kysely<Database>,
    /** Writes running at once (each its own transaction; a visitor's lock orders two writes that share them). */
    private readonly concurrency = WRITES_AT_ONCE,
  ) {}

  /** Beacons not written yet. */
  get waiting(): number {
    return this.#pending.length;
  }

  /** Resolves when every beacon taken so far is written (tests, and the node's shutdown). */
  settled(): Promise<void> {
    if (!this.#active && !this.#pending.length) return Promise.resolve();
    return new Promise((r) => this.#idle.push(r));
  }

  write(v: VisitWrite): Promise<VisitWritten> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ ...v, resolve, reject });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#active < this.concurrency && this.#pending.length) {
      const group = this.#pending.splice(0, MAX_GROUP);
      this.#active++;
      writeGroup(this.db, group)
        .then(
          (results) => {
            for (const [i, p] of group.entries()) p.resolve(results[i]!);
          },
          (err: unknown) => {
            for (const p of group) p.reject(err);
          },
        )
        .finally(() => {
          this.#active--;
          this.#pump();
          if (!this.#active && !this.#pending.length) for (const r of this.#idle.splice(0)) r();
        });
    }
  }
}

/**
 * Merges one visitor's beacons of a group: the most time, the rooms covering the most time, the end if any reached it.
 */
function merge(a: VisitWrite, b: VisitWrite): VisitWrite {
  const rooms = !a.rooms ? b.rooms : !b.rooms ? a.rooms : b.rooms.seconds >= a.rooms.seconds ? b.rooms : a.rooms;
  return {
    tourId: a.tourId,
    visitorId: a.visitorId,
    at: new Date(Math.max(a.at.getTime(), b.at.getTime())),
    mayOpen: a.mayOpen || b.mayOpen,
    secondsSpent: Math.max(a.secondsSpent, b.secondsSpent),
    roomsReached: Math.max(a.roomsReached, b.roomsReached),
    rooms,
    reachedEnd: a.reachedEnd || b.reachedEnd,
    fastTravels: Math.max(a.fastTravels, b.fastTravels),
    device: a.device ?? b.device,
    audienceLinkId: a.audienceLinkId,
  };
}

async function writeGroup(db: Kysely<Database>, group: readonly VisitWrite[]): Promise<VisitWritten[]> {
  // A visit is one visitor's on one tour through one way in: the tour's own links, or one audience link. The same visitor
  // coming through another link within the 30 minutes opens that link's visit rather than extending the first.
  const keyOf = (v: VisitWrite) => `visit:${v.tourId}:${v.visitorId}:${v.audienceLinkId ?? ''}`;
  const merged = new Map<string, VisitWrite>();
  for (const v of group) {
    const k = keyOf(v);
    const m = merged.get(k);
    merged.set(k, m ? merge(m, v) : v);
  }
  const keys = [...merged.keys()];
  const rows = keys.map((k, i) => {
    const v = merged.get(k)!;
    return {
      i,
      tour_id: v.tourId,
      visitor_id: v.visitorId,
      at: v.at.toISOString(),
      may_open: v.mayOpen,
      secs: v.secondsSpent,
      rr: v.roomsReached,
      rooms: v.rooms?.rooms ?? null,
      exit_room: v.rooms?.exitRoom ?? null,
      reached_end: v.reachedEnd,
      ft: v.fastTravels,
      device: v.device,
      link: v.audienceLinkId,
    };
  });
  const answers = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext(k) AS h FROM jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) k ORDER BY 1) s`.execute(
      trx,
    );
    const r = await sql<{ i: number; deactivated: boolean; opened: boolean; refused: boolean }>`
      WITH b AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(i int, tour_id uuid, visitor_id text, at timestamptz, may_open boolean,
          secs int, rr int, rooms jsonb, exit_room text, reached_end boolean, ft int, device text, link uuid)
      ),
      tour AS (
        SELECT t.id, t.company_id, (t.deactivated_at IS NOT NULL OR t.status = ${TOUR_STATUS.DEACTIVATED}) AS deactivated,
          coalesce((SELECT array_agg(m.name) FROM markers m WHERE m.tour_id = t.id), '{}') AS rooms
        FROM tours t WHERE t.id IN (SELECT tour_id FROM b) AND t.deleted_at IS NULL AND t.status IN (${TOUR_STATUS.PROCESSED}, ${TOUR_STATUS.DEACTIVATED})
      ),
      ok AS (
        SELECT b.*, t.company_id, t.deactivated, t.rooms AS tour_rooms, x.id AS visit_id,
          least(b.secs, ${VISIT_START_GRACE_SECONDS} + greatest(0, floor(extract(epoch FROM b.at - coalesce(x.started_at, b.at))))::int) AS cap,
          least(b.rr, cardinality(t.rooms)) AS rooms_reached
        FROM b JOIN tour t ON t.id = b.tour_id
        LEFT JOIN LATERAL (SELECT x.id, x.started_at FROM view_events x WHERE x.tour_id = b.tour_id AND x.visitor_id = b.visitor_id
          AND x.audience_link_id IS NOT DISTINCT FROM b.link
          AND x.last_seen_at > b.at - interval '30 minutes' ORDER BY x.last_seen_at DESC LIMIT 1) x ON true
      ),
      rm AS (
        SELECT r.i, jsonb_agg(jsonb_build_object('name', r.name, 'seconds', r.kept) ORDER BY r.ord) AS rooms, sum(r.kept)::int AS secs,
          min(r.name) FILTER (WHERE r.name = r.exit_room) AS exit_room
        FROM (
          SELECT ok.i, ok.exit_room, e.el->>'name' AS name, e.ord, (e.el->>'seconds')::int AS seconds,
            least((e.el->>'seconds')::int, greatest(0, ok.cap - coalesce(sum((e.el->>'seconds')::int) OVER (PARTITION BY ok.i ORDER BY e.ord ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0))) AS kept
          FROM ok CROSS JOIN LATERAL jsonb_array_elements(ok.rooms) WITH ORDINALITY AS e(el, ord)
          WHERE e.el->>'name' = '' OR e.el->>'name' = ANY(ok.tour_rooms)
        ) r
        WHERE r.kept > 0 OR r.seconds = 0
        GROUP BY r.i
      ),
      upd AS (
        UPDATE view_events v SET
          last_seen_at = greatest(v.last_seen_at, ok.at),
          seconds_spent = greatest(v.seconds_spent, ok.cap),
          rooms_reached = greatest(v.rooms_reached, ok.rooms_reached),
          rooms = CASE WHEN rm.rooms IS NOT NULL AND rm.secs >= (SELECT coalesce(sum((e->>'seconds')::int), 0) FROM jsonb_array_elements(v.rooms) e) THEN rm.rooms ELSE v.rooms END,
          exit_room = CASE WHEN rm.rooms IS NOT NULL AND rm.secs >= (SELECT coalesce(sum((e->>'seconds')::int), 0) FROM jsonb_array_elements(v.rooms) e) THEN rm.exit_room ELSE v.exit_room END,
          reached_end = v.reached_end OR ok.reached_end,
          fast_travels = greatest(v.fast_travels, least(ok.ft, ok.cap)),
          device = coalesce(v.device, ok.device)
        FROM ok LEFT JOIN rm ON rm.i = ok.i WHERE v.id = ok.visit_id
        RETURNING ok.i
      ),
      ins AS (
        INSERT INTO view_events (tour_id, company_id, visitor_id, started_at, last_seen_at, seconds_spent, rooms_reached, rooms, exit_room, reached_end, fast_travels, device, audience_link_id)
        SELECT ok.tour_id, ok.company_id, ok.visitor_id, ok.at, ok.at, ok.cap, ok.rooms_reached, coalesce(rm.rooms, '[]'::jsonb), rm.exit_room, ok.reached_end,
          least(ok.ft, ok.cap), ok.device, ok.link
        FROM ok LEFT JOIN rm ON rm.i = ok.i WHERE ok.visit_id IS NULL AND ok.may_open
        RETURNING 1
      )
      SELECT ok.i, ok.deactivated, ok.visit_id IS NULL AND ok.may_open AS opened, ok.visit_id IS NULL AND NOT ok.may_open AS refused FROM ok`.execute(
      trx,
    );
    return r.rows;
  });
  const byIndex = new Map(answers.map((a) => [Number(a.i), a]));
  const indexOf = new Map(keys.map((k, i) => [k, i]));
  // Of one visitor's beacons in the group, the first that may open a visit carries the opening (one view).
  const opener = new Map<string, VisitWrite>();
  for (const v of group) if (v.mayOpen && !opener.has(keyOf(v))) opener.set(keyOf(v), v);
  return group.map((v) => {
    const a = byIndex.get(indexOf.get(keyOf(v))!);
    return {
      found: !!a,
      opened: !!a?.opened && opener.get(keyOf(v)) === v,
      refused: !!a?.refused,
      deactivated: !!a?.deactivated,
    };
  });
}
