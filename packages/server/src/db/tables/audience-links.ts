/** Audience links of a tour (migration 0200, services/audience-links/). */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

interface AudienceLinksTable {
  id: Generated<string>;
  tour_id: string;
  company_id: string;
  created_by: string | null;
  /** The link's `link=` value (32 base64url characters). */
  token: string;
  label: string;
  expires_at: NullableTimestamp;
  /** Markers whose rooms the link hides. */
  hidden_marker_ids: ColumnType<string[], string[] | undefined, string[]>;
  unbranded: ColumnType<boolean, boolean | undefined, boolean>;
  revoked_at: NullableTimestamp;
  /** The link's own lead gate (migration 0206): null shows the tour's gate; OFF, ROOM or SECONDS replace it. */
  lead_gate_mode: ColumnType<'OFF' | 'ROOM' | 'SECONDS' | null, 'OFF' | 'ROOM' | 'SECONDS' | null | undefined, never>;
  lead_gate_marker_id: ColumnType<string | null, string | null | undefined, string | null>;
  lead_gate_seconds: ColumnType<number | null, number | null | undefined, never>;
  lead_gate_approval: ColumnType<boolean, boolean | undefined, never>;
  created_at: Timestamp;
}

export type AudienceLinkRow = Selectable<AudienceLinksTable>;

export type AudienceLinkTables = {
  audience_links: AudienceLinksTable;
};
