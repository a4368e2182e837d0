import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Audience links (docs/access-and-privacy.md): labelled links to one tour, each with an optional expiry, the rooms
 * (markers) it hides and an unbranded flag; revoking keeps the row (its visits stay counted under its label). The
 * token is kept as is, not hashed: the agent copies the link again from Sharing Options, and it opens no more than the
 * tour's own share link would. Visits made through a link name it (`view_events.audience_link_id`), so analytics and
 * the seller report can be filtered by link. Per-link settings of other features (a lead gate) are their own columns,
 * added by their own migrations.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE audience_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      token text NOT NULL UNIQUE,
      label text NOT NULL,
      expires_at timestamptz,
      hidden_marker_ids uuid[] NOT NULL DEFAULT '{}',
      unbranded boolean NOT NULL DEFAULT false,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX audience_links_tour_idx ON audience_links (tour_id, created_at);
    ALTER TABLE view_events ADD COLUMN audience_link_id uuid REFERENCES audience_links(id) ON DELETE SET NULL;
    CREATE INDEX view_events_audience_link_idx ON view_events (audience_link_id, started_at) WHERE audience_link_id IS NOT NULL;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'ALTER TABLE view_events DROP COLUMN IF EXISTS audience_link_id; DROP TABLE IF EXISTS audience_links;',
  );
}
