import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Privacy: faces are blurred in clips, reels and photos unless the owner turns it off for a tour. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tours ADD COLUMN blur_faces boolean NOT NULL DEFAULT true;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tours DROP COLUMN blur_faces;`);
}
