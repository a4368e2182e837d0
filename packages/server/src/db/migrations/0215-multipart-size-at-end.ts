import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A multipart upload whose size is known only when it ends (a video converted on the device, uploaded while it is
 * made): `expected_size` holds the limit the client announced at start until completion states the real size, which
 * then replaces it (and the flag is cleared), so a completed upload looks like any other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE uploads ADD COLUMN size_at_end boolean NOT NULL DEFAULT false;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE uploads DROP COLUMN size_at_end;`);
}
