import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Privacy: how many frames of each clip got a face blurred, so the owner sees which clips were blurred. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE clips ADD COLUMN blurred_frames integer NOT NULL DEFAULT 0;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE clips DROP COLUMN blurred_frames;`);
}
