import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The gate a lead was left at (docs/access-and-privacy.md, "Lead gate"): `tour_leads.gate_link_id` names the audience
 * link whose own lead gate asked for the form; NULL is the tour's own gate (also through a link that shows the
 * tour's). The pass the lead is given names the same gate, and only that gate takes it. No foreign key on purpose: a
 * link's leads stay when the link goes, and their passes then name a gate that no longer exists (never the tour's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tour_leads ADD COLUMN gate_link_id uuid;`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `ALTER TABLE tour_leads DROP COLUMN IF EXISTS gate_link_id;`);
}
