import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The owner's live viewing switch per tour (docs/live-viewing.md, "Where live viewing is switched on"): when on, every
 * branded link the console shares carries liveViewing=true, so buyers see "Talk to Agent". Off by default: an agent
 * offers live calls only where they will answer them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE tours ADD COLUMN live_viewing boolean NOT NULL DEFAULT false;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'ALTER TABLE tours DROP COLUMN IF EXISTS live_viewing;');
}
