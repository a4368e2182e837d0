import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Custom Company Branding: the company's accent colour for the player (#rrggbb; null is the product's). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE companies ADD COLUMN accent_color text;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE companies DROP COLUMN accent_color;`);
}
