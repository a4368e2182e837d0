import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Seller reports: read-only links an agent shares with a seller (only a SHA-256 of the token is kept, as for
 * API keys; each link expires and can be revoked), one scheduled digest per tour (weekly or monthly, on the day the
 * owner picks, to the recipients the agent entered), and the runs of the PDF job (a download the agent asked for, or a
 * digest being sent) with their progress; a finished download keeps its PDF until it is cleared after a day.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE seller_report_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      token_hash text NOT NULL UNIQUE,
      prefix text NOT NULL,
      days integer NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX seller_report_links_tour_idx ON seller_report_links (tour_id, created_at);

    CREATE TABLE seller_report_digests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL UNIQUE REFERENCES tours(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      frequency text NOT NULL CHECK (frequency IN ('WEEKLY', 'MONTHLY')),
      day integer NOT NULL,
      recipients text[] NOT NULL,
      next_send_at timestamptz NOT NULL,
      last_sent_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX seller_report_digests_due_idx ON seller_report_digests (next_send_at);

    CREATE TABLE seller_report_runs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      digest_id uuid REFERENCES seller_report_digests(id) ON DELETE SET NULL,
      requested_by uuid REFERENCES users(id) ON DELETE SET NULL,
      kind text NOT NULL CHECK (kind IN ('DOWNLOAD', 'DIGEST')),
      days integer NOT NULL,
      status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
      attempt integer NOT NULL DEFAULT 0,
      progress integer NOT NULL DEFAULT 0,
      progress_text text NOT NULL DEFAULT 'Waiting in the queue',
      error text,
      file_name text,
      pdf bytea,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz
    );
    CREATE INDEX seller_report_runs_tour_idx ON seller_report_runs (tour_id, created_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `DROP TABLE IF EXISTS seller_report_runs; DROP TABLE IF EXISTS seller_report_digests; DROP TABLE IF EXISTS seller_report_links;`,
  );
}
