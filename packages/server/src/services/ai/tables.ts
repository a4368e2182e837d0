/** Row types of the reels, shots and AI marker run tables (migration 0050), added with withTables like the live tables. */
import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/types.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

interface ReelsTable {
  id: Generated<string>;
  tour_id: string;
  created_by: string | null;
  key: string;
  seed: number;
  provider: Generated<string>;
  status: Generated<'PROCESSING' | 'FAILED' | 'CREATED'>;
  progress: Generated<number>;
  progress_text: string | null;
  error: string | null;
  video_key: string | null;
  thumbnail_key: string | null;
  attempt: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface ShotsTable {
  id: Generated<string>;
  tour_id: string;
  shot_type: Generated<string>;
  status: Generated<'COMPLETED' | 'PROCESSING' | 'FAILED'>;
  room_type: string | null;
  frame_score: number | null;
  source_clip_index: number | null;
  source_frame_position: number | null;
  original_key: string | null;
  enhanced_key: string | null;
  staged_key: string | null;
  staging_prompt: string | null;
  error_message: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface AiMarkerRunsTable {
  id: Generated<string>;
  tour_id: string;
  user_id: string;
  status: Generated<'RUNNING' | 'DONE' | 'FAILED'>;
  error: string | null;
  created_at: Timestamp;
  finished_at: NullableTimestamp;
}

type AiTables = { reels: ReelsTable; shots: ShotsTable; ai_marker_runs: AiMarkerRunsTable };
export type AiDatabase = Database & AiTables;
export type ReelRow = Selectable<ReelsTable>;
export type ShotRow = Selectable<ShotsTable>;

/** The shared Kysely instance, typed with the reels, shots and AI run tables too. */
export function aiDb(db: Kysely<Database>): Kysely<AiDatabase> {
  return db.withTables<AiTables>();
}
