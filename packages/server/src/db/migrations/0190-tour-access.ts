import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Who sees a tour (docs/access-and-privacy.md): a public link (the default, today's behaviour), a password
 * (stored as an argon2id hash, like account passwords) or signed-in members of the company. `access_version` counts
 * every change of access or password: access grants and signed media URLs name the version they were made for, so a
 * change revokes them all at once. Changing these columns updates the tour row, whose trigger (0085) drops every
 * node's cached public answer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE tours ADD COLUMN access text NOT NULL DEFAULT 'PUBLIC' CHECK (access IN ('PUBLIC', 'PASSWORD', 'COMPANY'));
     ALTER TABLE tours ADD COLUMN access_password_hash text;
     ALTER TABLE tours ADD COLUMN access_version integer NOT NULL DEFAULT 0;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'ALTER TABLE tours DROP COLUMN IF EXISTS access; ALTER TABLE tours DROP COLUMN IF EXISTS access_password_hash; ALTER TABLE tours DROP COLUMN IF EXISTS access_version;',
  );
}
