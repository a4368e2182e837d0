import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A lead gate per audience link (docs/access-and-privacy.md): `lead_gate_mode` NULL means the link shows the tour's own
 * gate; 'OFF', 'ROOM' or 'SECONDS' replace it for the link's visitors (the same choices as the tour's, migration 0205).
 * The room is a marker of the tour, kept in the tour's frames; deleting it turns the link's room gate off (SET NULL,
 * read as no gate), as for the tour's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE audience_links ADD COLUMN lead_gate_mode text CHECK (lead_gate_mode IN ('OFF', 'ROOM', 'SECONDS'));
     ALTER TABLE audience_links ADD COLUMN lead_gate_marker_id uuid REFERENCES markers(id) ON DELETE SET NULL;
     ALTER TABLE audience_links ADD COLUMN lead_gate_seconds integer CHECK (lead_gate_seconds BETWEEN 5 AND 3600);
     ALTER TABLE audience_links ADD COLUMN lead_gate_approval boolean NOT NULL DEFAULT false;
     ALTER TABLE audience_links ADD CONSTRAINT audience_links_lead_gate_one
       CHECK (lead_gate_marker_id IS NULL OR lead_gate_seconds IS NULL);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE audience_links DROP CONSTRAINT IF EXISTS audience_links_lead_gate_one;
     ALTER TABLE audience_links DROP COLUMN IF EXISTS lead_gate_mode, DROP COLUMN IF EXISTS lead_gate_marker_id,
       DROP COLUMN IF EXISTS lead_gate_seconds, DROP COLUMN IF EXISTS lead_gate_approval;`,
  );
}
