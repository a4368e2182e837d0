/** Seller reports: share links, digests and runs (migration 0150). */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from './columns.js';

export type DigestFrequency = 'WEEKLY' | 'MONTHLY';
type RunStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';
type RunKind = 'DOWNLOAD' | 'DIGEST';

interface SellerReportLinksTable {
  id: Generated<string>;
  tour_id: string;
  company_id: string;
  created_by: string | null;
  token_hash: string;
  prefix: string;
  days: number;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  created_at: Timestamp;
}

interface SellerReportDigestsTable {
  id: Generated<string>;
  tour_id: string;
  company_id: string;
  created_by: string | null;
  frequency: DigestFrequency;
  day: number;
  recipients: string[];
  /** IANA time zone the digest's 07:00 is in (migration 0163). */
  time_zone: ColumnType<string, string | undefined, string>;
  next_send_at: Timestamp;
  last_sent_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface SellerReportRunsTable {
  id: Generated<string>;
  tour_id: string;
  digest_id: string | null;
  requested_by: string | null;
  kind: RunKind;
  days: number;
  status: Generated<RunStatus>;
  attempt: Generated<number>;
  progress: Generated<number>;
  progress_text: Generated<string>;
  error: string | null;
  file_name: string | null;
  pdf: Buffer | null;
  /** A digest run: the recipients whose mail has gone (migration 0161), skipped when the run is tried again. */
  sent_to: Generated<string[]>;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

export type SellerReportTables = {
  seller_report_links: SellerReportLinksTable;
  seller_report_digests: SellerReportDigestsTable;
  seller_report_runs: SellerReportRunsTable;
};

export type SellerLinkRow = Selectable<SellerReportLinksTable>;
export type SellerDigestRow = Selectable<SellerReportDigestsTable>;
export type SellerRunRow = Selectable<SellerReportRunsTable>;
