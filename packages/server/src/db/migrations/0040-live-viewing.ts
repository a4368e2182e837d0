import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Live viewing: the leads visitors leave and the viewing sessions (rooms) that pair a visitor with the agent. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE tour_leads (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      name text NOT NULL,
      surname text,
      email text NOT NULL,
      contact_number text,
      lead_type text NOT NULL CHECK (lead_type IN ('LIVE_VIEWING', 'CONTACT')),
      ip text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX tour_leads_tour_idx ON tour_leads (tour_id, created_at DESC);
    CREATE TABLE viewing_sessions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      lead_id uuid REFERENCES tour_leads(id) ON DELETE SET NULL,
      created_by uuid REFERENCES users(id) ON DELETE SET NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX viewing_sessions_tour_idx ON viewing_sessions (tour_id, expires_at DESC);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(db, 'DROP TABLE IF EXISTS viewing_sessions, tour_leads CASCADE');
}
