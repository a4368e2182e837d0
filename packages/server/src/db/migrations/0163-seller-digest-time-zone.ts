import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A seller digest goes out at 07:00 in the time zone of the agent who set it up, not 07:00 UTC: an IANA zone
 * name per digest ('UTC' for digests saved before).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE seller_report_digests ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE seller_report_digests DROP COLUMN IF EXISTS time_zone;');
}
