import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Unique visitors per day ("visits and unique visitors over time"): each rolled-up day keeps its distinct
 * visitors beside its visits. Days rolled up before are counted again from their visits.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE tour_visit_daily ADD COLUMN visitors integer NOT NULL DEFAULT 0;
    UPDATE tour_visit_daily d SET visitors = (SELECT count(DISTINCT v.visitor_id) FROM view_events v
      WHERE v.tour_id = d.tour_id AND v.started_at >= d.day::timestamp AT TIME ZONE 'UTC' AND v.started_at < (d.day + 1)::timestamp AT TIME ZONE 'UTC');
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE tour_visit_daily DROP COLUMN IF EXISTS visitors;');
}
