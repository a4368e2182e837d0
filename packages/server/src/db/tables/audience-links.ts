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
  created_at: Timestamp;
}

export type AudienceLinkRow = Selectable<AudienceLinksTable>;

export type AudienceLinkTables = {
  audience_links: AudienceLinksTable;
};
