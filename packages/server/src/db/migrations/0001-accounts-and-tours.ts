import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/** Accounts, companies, licences, invites, one-time tokens, tours, clips, markers, uploads, feedback, mail outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE companies (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      address text,
      vat_no text,
      country_code text NOT NULL DEFAULT 'en_ZA',
      referred_by text,
      logo_key text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      username text NOT NULL,
      password_hash text,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      role text NOT NULL DEFAULT 'USER' CHECK (role IN ('ADMIN', 'USER')),
      is_superadmin boolean NOT NULL DEFAULT false,
      activated_at timestamptz,
      oidc_issuer text,
      oidc_subject text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX users_username_key ON users (lower(username));
    CREATE UNIQUE INDEX users_oidc_key ON users (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL;
    CREATE INDEX users_company_idx ON users (company_id);
    CREATE TABLE user_profiles (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      surname text NOT NULL,
      contact_number text,
      profile_image_key text
    );
    CREATE TABLE licenses (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_id uuid NOT NULL UNIQUE REFERENCES companies(id) ON DELETE CASCADE,
      plan_id text NOT NULL,
      plan_name text NOT NULL,
      subscription_id text,
      quantity integer NOT NULL CHECK (quantity >= 0),
      upload_limit integer NOT NULL CHECK (upload_limit >= 0),
      start_date timestamptz NOT NULL,
      end_date timestamptz,
      period_start timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE team_invites (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      email text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      accepted boolean NOT NULL DEFAULT false,
      accepted_user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      invited_by uuid REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    );
    CREATE INDEX team_invites_company_idx ON team_invites (company_id, created_at, id);
    CREATE TABLE one_time_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('activation', 'reset')),
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE tours (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      title text,
      description text,
      listing_link text,
      video_key text,
      thumbnail_key text,
      intro_logo_key text,
      status text NOT NULL,
      progress integer NOT NULL DEFAULT 0,
      progress_text text,
      views integer NOT NULL DEFAULT 0,
      deactivated_views integer NOT NULL DEFAULT 0,
      video_info jsonb,
      fps real,
      deactivated_at timestamptz,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX tours_company_idx ON tours (company_id, created_at DESC, id);
    CREATE INDEX tours_owner_idx ON tours (owner_id, created_at DESC);
    CREATE TABLE tour_logs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      status text NOT NULL,
      error text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX tour_logs_tour_idx ON tour_logs (tour_id, created_at);
    CREATE TABLE clips (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      index integer NOT NULL,
      frame_count integer NOT NULL,
      duration real NOT NULL,
      high_key text NOT NULL,
      low_key text NOT NULL,
      UNIQUE (tour_id, index)
    );
    CREATE TABLE markers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      scroll_position real NOT NULL DEFAULT 0,
      frame_index real NOT NULL,
      is_fast_travel boolean NOT NULL DEFAULT true,
      source text NOT NULL DEFAULT 'USER' CHECK (source IN ('USER', 'AI')),
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX markers_tour_idx ON markers (tour_id, frame_index);
    CREATE TABLE uploads (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      key text NOT NULL UNIQUE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      extension text NOT NULL,
      size bigint,
      tour_id uuid REFERENCES tours(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      submitted_at timestamptz
    );
    CREATE INDEX uploads_company_idx ON uploads (company_id, submitted_at);
    CREATE TABLE feedback (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      name text NOT NULL,
      email text NOT NULL,
      comment text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text NOT NULL,
      links jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now()
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'DROP TABLE IF EXISTS mail_outbox, feedback, uploads, markers, clips, tour_logs, tours, one_time_tokens, team_invites, licenses, user_profiles, users, companies CASCADE',
  );
}
