import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Lead-gated rooms (docs/access-and-privacy.md, services/lead-gate/): a tour may ask for the lead form before a chosen
 * room (`lead_gate_marker_id`) or after a number of seconds (`lead_gate_seconds`), never both; with
 * `lead_gate_approval` the visitor waits until the agent approves. The lead keeps where it stands at the gate (`gate`:
 * WAITING, APPROVED, or OPEN when the visitor went on at once), the frame the visitor stopped at, who decided, and the
 * hash of the one-time approval link mailed to the agent. Deleting the chosen room's marker turns the room gate off
 * (SET NULL updates the tour row, whose trigger from 0085 drops every node's cached answer).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE tours ADD COLUMN lead_gate_marker_id uuid REFERENCES markers(id) ON DELETE SET NULL;
     ALTER TABLE tours ADD COLUMN lead_gate_seconds integer CHECK (lead_gate_seconds BETWEEN 5 AND 3600);
     ALTER TABLE tours ADD COLUMN lead_gate_approval boolean NOT NULL DEFAULT false;
     ALTER TABLE tours ADD CONSTRAINT tours_lead_gate_one CHECK (lead_gate_marker_id IS NULL OR lead_gate_seconds IS NULL);
     ALTER TABLE tour_leads ADD COLUMN gate text CHECK (gate IN ('WAITING', 'APPROVED', 'OPEN'));
     ALTER TABLE tour_leads ADD COLUMN gate_frame integer;
     ALTER TABLE tour_leads ADD COLUMN gate_decided_at timestamptz;
     ALTER TABLE tour_leads ADD COLUMN gate_decided_by uuid REFERENCES users(id) ON DELETE SET NULL;
     ALTER TABLE tour_leads ADD COLUMN gate_token_hash text UNIQUE;
     ALTER TABLE tour_leads ADD COLUMN gate_token_expires_at timestamptz;
     CREATE INDEX tour_leads_gate_waiting_idx ON tour_leads (tour_id, created_at) WHERE gate = 'WAITING';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `DROP INDEX IF EXISTS tour_leads_gate_waiting_idx;
     ALTER TABLE tour_leads DROP COLUMN IF EXISTS gate, DROP COLUMN IF EXISTS gate_frame, DROP COLUMN IF EXISTS gate_decided_at,
       DROP COLUMN IF EXISTS gate_decided_by, DROP COLUMN IF EXISTS gate_token_hash, DROP COLUMN IF EXISTS gate_token_expires_at;
     ALTER TABLE tours DROP CONSTRAINT IF EXISTS tours_lead_gate_one;
     ALTER TABLE tours DROP COLUMN IF EXISTS lead_gate_marker_id, DROP COLUMN IF EXISTS lead_gate_seconds, DROP COLUMN IF EXISTS lead_gate_approval;`,
  );
}
