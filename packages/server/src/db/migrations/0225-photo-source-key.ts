import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The original that followed a device-converted upload (services/photo-source.ts) is kept under a random key named
 * here, `tours/<id>/originals/<32 hex>.mp4`, never under the guessable `tours/<id>/photo-source` it had before (which
 * `/media` now refuses outright; the photos job still reads an original kept there, straight from the store).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tours ADD COLUMN photo_source_key text;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tours DROP COLUMN photo_source_key;`);
}
