/** A person's data: export runs and accounts waiting for deletion (migration 0210, services/personal-data/). */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { NullableTimestamp, Timestamp } from './columns.js';

type ExportStatus = 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';

interface DataExportsTable {
  id: Generated<string>;
  user_id: string;
  status: Generated<ExportStatus>;
  attempt: Generated<number>;
  progress: Generated<number>;
  progress_text: Generated<string>;
  /** The ZIP in storage (exports/<user>/<id>.zip) until the link expires; null before and after. */
  file_key: string | null;
  size: ColumnType<string | number | null, number | null | undefined, number | null>;
  error: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
  expires_at: NullableTimestamp;
}

interface AccountDeletionsTable {
  user_id: string;
  company_id: string;
  requested_at: Timestamp;
  /**
   * The end of the grace period: the sweep deletes the account (and the company, when nobody else is left) after it.
   */
  purge_after: Timestamp;
}

export type PersonalDataTables = {
  data_exports: DataExportsTable;
  account_deletions: AccountDeletionsTable;
};
export type DataExportRow = Selectable<DataExportsTable>;
