import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A digest sending that is retried (an SMTP server that refused one recipient for a while) mails only the recipients
 * it has not reached yet: each run keeps the addresses its mail has been accepted for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE seller_report_runs ADD COLUMN sent_to text[] NOT NULL DEFAULT '{}';`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE seller_report_runs DROP COLUMN IF EXISTS sent_to;');
}
