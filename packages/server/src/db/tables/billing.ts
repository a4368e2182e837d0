/** Billing: customers, events and the local provider's checkout, subscriptions and portal (migration 0030). */
import type { Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from './columns.js';

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

export type BillingTables = {
  billing_customers: BillingCustomersTable;
  billing_events: BillingEventsTable;
  local_checkout_sessions: LocalCheckoutSessionsTable;
  local_subscriptions: LocalSubscriptionsTable;
  local_portal_sessions: LocalPortalSessionsTable;
};

export type LocalSubscriptionRow = Selectable<LocalSubscriptionsTable>;
export type LocalCheckoutSessionRow = Selectable<LocalCheckoutSessionsTable>;
