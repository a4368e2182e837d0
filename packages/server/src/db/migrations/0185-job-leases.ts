import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Leases on work that must not run twice at once (jobs/queue.ts): one row per key (a tour's processing, a segment, a
 * company's webhook delivery slot) naming the attempt that holds it until `expires_at`. A holder renews it while it
 * works; a dead one's lease runs out and the next attempt takes it over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE job_leases (
      key text PRIMARY KEY,
      holder text NOT NULL,
      expires_at timestamptz NOT NULL
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS job_leases;');
}
