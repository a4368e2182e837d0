import type { Kysely } from 'kysely';
import { runScript } from '../run-script.js';

/**
 * Billing (provider customers, received provider events, the local provider's checkout sessions, subscriptions and
 * portal sessions) and tour analytics (one view_events row per visitor visit).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    `
    CREATE TABLE billing_customers (
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      provider text NOT NULL CHECK (provider IN ('stripe', 'local')),
      customer_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (company_id, provider),
      UNIQUE (provider, customer_id)
    );
    CREATE TABLE billing_events (
      id text PRIMARY KEY,
      provider text NOT NULL CHECK (provider IN ('stripe', 'local')),
      type text NOT NULL,
      customer_id text,
      company_id uuid,
      received_at timestamptz NOT NULL DEFAULT now(),
      processed_at timestamptz
    );
    CREATE INDEX billing_events_unprocessed_idx ON billing_events (received_at) WHERE processed_at IS NULL;
    CREATE TABLE local_checkout_sessions (
      id text PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      user_id uuid REFERENCES users(id) ON DELETE SET NULL,
      plan_id text NOT NULL,
      price_id text NOT NULL,
      idempotency_key text NOT NULL UNIQUE,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'complete')),
      subscription_id text,
      success_url text NOT NULL,
      cancel_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      completed_at timestamptz
    );
    CREATE TABLE local_subscriptions (
      id text PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      customer_id text NOT NULL,
      plan_id text NOT NULL,
      price_id text NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'canceled')),
      card_last4 text NOT NULL,
      current_period_start timestamptz NOT NULL,
      cancel_at timestamptz,
      canceled_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX local_subscriptions_company_idx ON local_subscriptions (company_id, created_at DESC);
    CREATE TABLE local_portal_sessions (
      id text PRIMARY KEY,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      return_url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    );
    CREATE TABLE view_events (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      tour_id uuid NOT NULL REFERENCES tours(id) ON DELETE CASCADE,
      company_id uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
      visitor_id text NOT NULL,
      started_at timestamptz NOT NULL DEFAULT now(),
      last_seen_at timestamptz NOT NULL DEFAULT now(),
      seconds_spent integer NOT NULL DEFAULT 0 CHECK (seconds_spent >= 0),
      rooms_reached integer NOT NULL DEFAULT 0 CHECK (rooms_reached >= 0)
    );
    CREATE INDEX view_events_visit_idx ON view_events (tour_id, visitor_id, last_seen_at DESC);
    CREATE INDEX view_events_company_idx ON view_events (company_id, started_at)
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runScript(
    db,
    'DROP TABLE IF EXISTS view_events, local_portal_sessions, local_subscriptions, local_checkout_sessions, billing_events, billing_customers CASCADE',
  );
}
