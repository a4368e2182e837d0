/** Reels, professional photos and AI marker runs (migration 0050). */
import type { Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from './columns.js';

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

export type AiTables = { reels: ReelsTable; shots: ShotsTable; ai_marker_runs: AiMarkerRunsTable };
export type ReelRow = Selectable<ReelsTable>;
export type ShotRow = Selectable<ShotsTable>;
