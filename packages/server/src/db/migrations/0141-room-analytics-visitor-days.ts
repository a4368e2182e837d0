import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Unique visitors without counting them one by one (tourAnalytics at a million visits): per tour, how many
 * rolled-up visitors had their last visit on each day. A visitor visited in a period that runs to the last rolled-up
 * day exactly when their last day falls in it, so the count is a sum over at most a year of rows. Rebuilt by the
 * rollup for the tours it touched (services/reports/room-rollup.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE tour_visitor_last_days (
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      day date NOT NULL,
      visitors integer NOT NULL,
      PRIMARY KEY (tour_id, day)
    );
    INSERT INTO tour_visitor_last_days (tour_id, day, visitors) SELECT tour_id, last_day, count(*) FROM tour_visitors GROUP BY 1, 2;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS tour_visitor_last_days;');
}
