/** Live viewing: leads and viewing sessions (migration 0040). */
import type { Generated } from 'kysely';
import type { Timestamp } from './columns.js';

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
