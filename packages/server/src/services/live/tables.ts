/** Row types of the live viewing tables (migration 0040), added to the shared Kysely instance with withTables. */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

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

type LiveTables = {
  tour_leads: TourLeadsTable;
  viewing_sessions: ViewingSessionsTable;
};

export type LiveDatabase = Database & LiveTables;

/** The shared Kysely instance, typed with the live viewing tables too. */
export function liveDb(db: Kysely<Database>): Kysely<LiveDatabase> {
  return db.withTables<LiveTables>();
}
