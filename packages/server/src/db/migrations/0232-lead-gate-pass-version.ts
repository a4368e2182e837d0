import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The pass a lead gate gives (docs/access-and-privacy.md, "Lead gate"): `tour_leads.gate_pass_version` is the tour's
 * access version the lead went through at (approved, or went on at once). The pass is signed at that version only and
 * holds while the lead still has it: a changed password or access (a new version), the gate turned off (the column is
 * cleared) or the agent taking the approval back (gate REVOKED, the column cleared) end it. Leads let through before
 * this migration have no version: their passes end now, as a changed password would end them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE tour_leads ADD COLUMN gate_pass_version integer;
     ALTER TABLE tour_leads DROP CONSTRAINT IF EXISTS tour_leads_gate_check;
     ALTER TABLE tour_leads ADD CONSTRAINT tour_leads_gate_check CHECK (gate IN ('WAITING', 'APPROVED', 'OPEN', 'REVOKED'));`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `UPDATE tour_leads SET gate = 'APPROVED' WHERE gate = 'REVOKED';
     ALTER TABLE tour_leads DROP CONSTRAINT IF EXISTS tour_leads_gate_check;
     ALTER TABLE tour_leads ADD CONSTRAINT tour_leads_gate_check CHECK (gate IN ('WAITING', 'APPROVED', 'OPEN'));
     ALTER TABLE tour_leads DROP COLUMN IF EXISTS gate_pass_version;`,
  );
}
