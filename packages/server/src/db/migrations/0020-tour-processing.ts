import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Tour processing bookkeeping: each attempt gets its own number (and storage folder tours/<id>/v<n>/), and the tour
 * remembers which attempt's clips are live, so a retry replaces an older set and removes its files.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE tours ADD COLUMN processing_attempt integer NOT NULL DEFAULT 0;
    ALTER TABLE tours ADD COLUMN clips_version integer;
    CREATE INDEX uploads_user_idx ON uploads (user_id, submitted_at)
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP INDEX IF EXISTS uploads_user_idx;
    ALTER TABLE tours DROP COLUMN IF EXISTS clips_version;
    ALTER TABLE tours DROP COLUMN IF EXISTS processing_attempt
  `,
  );
}
