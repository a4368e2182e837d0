import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * When signing in last cancelled the account's deletion (docs/data-retention.md): the console's Your data card says
 * "Deletion cancelled on <date> when you signed in". NULL when no deletion was ever cancelled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE users ADD COLUMN deletion_cancelled_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE users DROP COLUMN IF EXISTS deletion_cancelled_at;');
}
