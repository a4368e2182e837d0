import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A long video is processed in segments that any worker may take (jobs/process-tour-segments.ts): one row
 * per segment of a processing attempt, with its tour frames, its progress (the tour's is their sum) and, once done,
 * the clips it stored and which worker made them. The join job turns the rows into the tour's clips.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE tour_segments (
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      attempt integer NOT NULL,
      index integer NOT NULL,
      first_frame integer NOT NULL,
      end_frame integer,
      progress real NOT NULL DEFAULT 0,
      result jsonb,
      done_at timestamptz,
      PRIMARY KEY (tour_id, attempt, index)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `DROP TABLE IF EXISTS tour_segments;`);
}
