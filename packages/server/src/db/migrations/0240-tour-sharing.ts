import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Share anywhere (issue 41, docs/embedding.md "Link previews"): `listed` is the agent's "Search engines may show this
 * tour" (false: every tour is unlisted, its pages `noindex`; a listed public tour is in /sitemap.xml), and
 * `share_image_key` the 1200x630 JPEG link previews show (jobs/share-preview-job.ts), made from the poster with faces
 * blurred; NULL until the job has run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `ALTER TABLE tours ADD COLUMN listed boolean NOT NULL DEFAULT false;
     ALTER TABLE tours ADD COLUMN share_image_key text;
     CREATE INDEX tours_listed_idx ON tours (updated_at) WHERE listed AND deleted_at IS NULL;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'DROP INDEX IF EXISTS tours_listed_idx; ALTER TABLE tours DROP COLUMN IF EXISTS listed; ALTER TABLE tours DROP COLUMN IF EXISTS share_image_key;',
  );
}
