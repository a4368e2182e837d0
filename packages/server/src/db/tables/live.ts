/** Live viewing: leads and viewing sessions (migration 0040). */
import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

interface TourLeadsTable {
  id: Generated<string>;
  tour_id: string;
  name: string;
  surname: string | null;
  email: string;
  contact_number: string | null;
  lead_type: 'LIVE_VIEWING' | 'CONTACT';
  ip: string | null;
  /** The visitor id of the visit the lead came from (migration 0140), to show its rooms. */
  visitor_id: string | null;
  /**
   * Where the lead stands at the tour's lead gate (migration 0205): WAITING for the agent, APPROVED, OPEN (went on
   * at once), or REVOKED (the agent took the approval back, migration 0232); null: no gate.
   */
  gate: 'WAITING' | 'APPROVED' | 'OPEN' | 'REVOKED' | null;
  /** The frame the visitor stopped at when the gate asked for the form. */
  gate_frame: number | null;
  gate_decided_at: NullableTimestamp;
  gate_decided_by: string | null;
  /** SHA-256 of the one-time approval link mailed to the agent; cleared when used. */
  gate_token_hash: string | null;
  gate_token_expires_at: NullableTimestamp;
  /** The audience link whose own gate asked for the form (migration 0220); null: the tour's own gate. */
  gate_link_id: Generated<string | null>;
  /** The tour's access version the lead went through the gate at (migration 0232); null: no pass (any more). */
  gate_pass_version: Generated<number | null>;
  created_at: Timestamp;
}

interface ViewingSessionsTable {
  id: Generated<string>;
  tour_id: string;
  lead_id: string | null;
  created_by: string | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export type LiveTables = {
  tour_leads: TourLeadsTable;
  viewing_sessions: ViewingSessionsTable;
};
