import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * A person's data (docs/data-retention.md): the runs of the personal data export (one row per request, its progress
 * and the ZIP's storage key until the link expires) and the accounts waiting to be deleted (the moment the grace
 * period ends; signing in before then removes the row and so cancels the deletion).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE data_exports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'FAILED')),
      attempt integer NOT NULL DEFAULT 0,
      progress integer NOT NULL DEFAULT 0,
      progress_text text NOT NULL DEFAULT 'Queued',
      file_key text,
      size bigint,
      error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      finished_at timestamptz,
      expires_at timestamptz
    );
    CREATE INDEX data_exports_user_idx ON data_exports (user_id, created_at DESC);
    CREATE INDEX data_exports_expiry_idx ON data_exports (expires_at) WHERE file_key IS NOT NULL;

    CREATE TABLE account_deletions (
      user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      requested_at timestamptz NOT NULL DEFAULT now(),
      purge_after timestamptz NOT NULL
    );
    CREATE INDEX account_deletions_due_idx ON account_deletions (purge_after);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS account_deletions, data_exports CASCADE');
}
