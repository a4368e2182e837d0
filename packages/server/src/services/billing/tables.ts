/** Row types of the billing and analytics tables (migration 0030), joined onto the shared Database type where used. */
import type { ColumnType, Generated, Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/types.js';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type ProviderKind = 'stripe' | 'local';

interface BillingCustomersTable {
  company_id: string;
  provider: ProviderKind;
  customer_id: string;
  created_at: Timestamp;
}

interface BillingEventsTable {
  id: string;
  provider: ProviderKind;
  type: string;
  customer_id: string | null;
  company_id: string | null;
  received_at: Timestamp;
  processed_at: NullableTimestamp;
}

interface LocalCheckoutSessionsTable {
  id: string;
  company_id: string;
  user_id: string | null;
  plan_id: string;
  price_id: string;
  idempotency_key: string;
  status: Generated<'open' | 'complete'>;
  subscription_id: string | null;
  success_url: string;
  cancel_url: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  completed_at: NullableTimestamp;
}

interface LocalSubscriptionsTable {
  id: string;
  company_id: string;
  customer_id: string;
  plan_id: string;
  price_id: string;
  status: 'active' | 'canceled';
  card_last4: string;
  current_period_start: Timestamp;
  cancel_at: NullableTimestamp;
  canceled_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface LocalPortalSessionsTable {
  id: string;
  company_id: string;
  return_url: string;
  created_at: Timestamp;
  expires_at: Timestamp;
}

interface ViewEventsTable {
  id: Generated<string>;
  tour_id: string;
  company_id: string;
  visitor_id: string;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  seconds_spent: Generated<number>;
  rooms_reached: Generated<number>;
  /** Rooms of the visit in the order first entered, with seconds ('' = before the first marker); migration 0140. */
  rooms: ColumnType<Array<{ name: string; seconds: number }>, string | undefined, string>;
  exit_room: string | null;
  reached_end: Generated<boolean>;
  fast_travels: Generated<number>;
  device: 'phone' | 'tablet' | 'desktop' | null;
}

type BillingTables = {
  billing_customers: BillingCustomersTable;
  billing_events: BillingEventsTable;
  local_checkout_sessions: LocalCheckoutSessionsTable;
  local_subscriptions: LocalSubscriptionsTable;
  local_portal_sessions: LocalPortalSessionsTable;
  view_events: ViewEventsTable;
};

type BillingDatabase = Database & BillingTables;
export type BillingDb = Kysely<BillingDatabase>;
export type LocalSubscriptionRow = Selectable<LocalSubscriptionsTable>;
export type LocalCheckoutSessionRow = Selectable<LocalCheckoutSessionsTable>;

/** The shared Kysely instance seen with the billing and analytics tables too (same connection, no copy). */
export function billingDb(db: Kysely<Database>): BillingDb {
  return db.withTables<BillingTables>();
}
