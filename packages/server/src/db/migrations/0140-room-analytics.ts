import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Room-level analytics. Each visit (one view_events row, extended while the visit goes on) also keeps the
 * rooms its visitor saw with the seconds in each (in the order first entered; '' is the stretch before the first
 * marker, shown as "Entrance"), the room it ended in, whether it reached the tour's end, fast travels and the device
 * class. No IP is stored. A job (jobs/room-analytics.ts) rolls whole UTC days of visits up into per-tour and per-room
 * daily aggregates and keeps one row per tour visitor (first and last day), so tourAnalytics reads a few hundred
 * aggregate rows plus the days not yet rolled up, whatever the number of visits. Plain tables and indexes only: the
 * same script runs on PGlite and PostgreSQL. Leads keep their visitor id to show the rooms of their visit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE view_events
      ADD COLUMN rooms jsonb NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN exit_room text,
      ADD COLUMN reached_end boolean NOT NULL DEFAULT false,
      ADD COLUMN fast_travels integer NOT NULL DEFAULT 0 CHECK (fast_travels >= 0),
      ADD COLUMN device text CHECK (device IN ('phone', 'tablet', 'desktop'));
    CREATE INDEX view_events_tour_started_idx ON view_events (tour_id, started_at);
    CREATE TABLE tour_visit_daily (
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      day date NOT NULL,
      visits integer NOT NULL,
      seconds bigint NOT NULL,
      completed integer NOT NULL,
      fast_travels integer NOT NULL,
      phone integer NOT NULL,
      tablet integer NOT NULL,
      desktop integer NOT NULL,
      PRIMARY KEY (tour_id, day)
    );
    CREATE TABLE tour_room_daily (
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      day date NOT NULL,
      room text NOT NULL,
      seconds bigint NOT NULL,
      visits integer NOT NULL,
      exits integer NOT NULL,
      PRIMARY KEY (tour_id, day, room)
    );
    CREATE TABLE tour_visitors (
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      visitor_id text NOT NULL,
      first_day date NOT NULL,
      last_day date NOT NULL,
      PRIMARY KEY (tour_id, visitor_id)
    );
    CREATE INDEX tour_visitors_last_day_idx ON tour_visitors (tour_id, last_day);
    CREATE TABLE analytics_rollup_state (
      id integer PRIMARY KEY CHECK (id = 1),
      rolled_through date NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    ALTER TABLE tour_leads ADD COLUMN visitor_id text;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE tour_leads DROP COLUMN IF EXISTS visitor_id;
    DROP TABLE IF EXISTS analytics_rollup_state, tour_visitors, tour_room_daily, tour_visit_daily;
    DROP INDEX IF EXISTS view_events_tour_started_idx;
    ALTER TABLE view_events DROP COLUMN IF EXISTS rooms, DROP COLUMN IF EXISTS exit_room, DROP COLUMN IF EXISTS reached_end,
      DROP COLUMN IF EXISTS fast_travels, DROP COLUMN IF EXISTS device;
  `,
  );
}
