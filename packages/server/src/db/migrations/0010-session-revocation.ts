import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** When a user's password last changed: sessions issued before it are refused (a reset logs out every device). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE users ADD COLUMN IF NOT EXISTS credentials_changed_at timestamptz');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE users DROP COLUMN IF EXISTS credentials_changed_at');
}
