import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * The development outbox keeps a mail's attachments too (the seller digest's PDF), so a team running the
 * product without SMTP can open what a recipient would get, from /dev/outbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE mail_outbox_attachments (
      mail_id uuid NOT NULL REFERENCES mail_outbox(id) ON DELETE CASCADE,
      position integer NOT NULL,
      filename text NOT NULL,
      content_type text NOT NULL,
      content bytea NOT NULL,
      PRIMARY KEY (mail_id, position)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS mail_outbox_attachments;');
}
