/** The developer platform: API keys, webhook endpoints, events and deliveries (migration 0120). */
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Timestamp, NullableTimestamp } from './columns.js';

interface ApiKeysTable {
  id: Generated<string>;
  company_id: string;
  created_by: string | null;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

interface WebhookEndpointsTable {
  id: Generated<string>;
  company_id: string;
  url: string;
  description: Generated<string>;
  events: string[];
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  failing_since: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

interface WebhookEventsTable {
  id: Generated<string>;
  company_id: string;
  type: string;
  payload: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

type DeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

interface WebhookDeliveriesTable {
  id: Generated<string>;
  endpoint_id: string;
  event_id: string;
  attempt: number;
  status: DeliveryStatus;
  status_code: number | null;
  duration_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  next_retry_at: NullableTimestamp;
  created_at: Timestamp;
}

export type DeveloperTables = {
  api_keys: ApiKeysTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
};

export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
