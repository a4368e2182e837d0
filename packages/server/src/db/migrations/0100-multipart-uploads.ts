import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Resumable multipart uploads: an upload row may carry a multipart upload (S3's UploadId, or ours on the
 * local store), its announced size and part size, when its parts were joined, and a fingerprint of the file (user,
 * name, size, last modified) so picking the same file again resumes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    ALTER TABLE uploads ADD COLUMN multipart_id text;
    ALTER TABLE uploads ADD COLUMN expected_size bigint;
    ALTER TABLE uploads ADD COLUMN part_size bigint;
    ALTER TABLE uploads ADD COLUMN fingerprint text;
    ALTER TABLE uploads ADD COLUMN completed_at timestamptz;
    CREATE INDEX uploads_fingerprint_idx ON uploads (user_id, fingerprint) WHERE submitted_at IS NULL AND fingerprint IS NOT NULL;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    DROP INDEX IF EXISTS uploads_fingerprint_idx;
    ALTER TABLE uploads DROP COLUMN completed_at, DROP COLUMN fingerprint, DROP COLUMN part_size, DROP COLUMN expected_size, DROP COLUMN multipart_id;
  `,
  );
}
