import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Reels, professional photos (shots) and AI marker runs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE reels (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      key text NOT NULL,
      seed integer NOT NULL,
      provider text NOT NULL DEFAULT 'roomwalk-ffmpeg',
      status text NOT NULL DEFAULT 'PROCESSING' CHECK (status IN ('PROCESSING', 'FAILED', 'CREATED')),
      progress integer NOT NULL DEFAULT 0,
      progress_text text,
      error text,
      video_key text,
      thumbnail_key text,
      attempt integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX reels_tour_idx ON reels (tour_id, created_at);
    CREATE TABLE shots (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      shot_type text NOT NULL DEFAULT 'PROFESSIONAL',
      status text NOT NULL DEFAULT 'PROCESSING' CHECK (status IN ('COMPLETED', 'PROCESSING', 'FAILED')),
      room_type text,
      frame_score double precision,
      source_clip_index integer,
      source_frame_position double precision,
      original_key text,
      enhanced_key text,
      staged_key text,
      staging_prompt text,
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX shots_tour_idx ON shots (tour_id, created_at);
    CREATE TABLE ai_marker_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'RUNNING' CHECK (status IN ('RUNNING', 'DONE', 'FAILED')),
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    );
    CREATE UNIQUE INDEX ai_marker_runs_one_per_user ON ai_marker_runs (user_id) WHERE status = 'RUNNING';
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS ai_marker_runs, shots, reels CASCADE');
}
