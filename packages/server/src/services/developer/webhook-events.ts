/**
 * The webhook events a company can subscribe to (docs/api.md has an example of each). Payloads are
 * versioned: the envelope carries `api_version`; a field is only ever added within a version.
 */
export const WEBHOOK_API_VERSION = '2026-11-26';

export const WEBHOOK_EVENT_TYPES = [
  'tour.processed',
  'tour.failed',
  'tour.deleted',
  'lead.created',
  'reel.created',
  'reel.failed',
  'shots.completed',
  'markers.ai_completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** Sent only by "Send test event", to that one endpoint. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const isWebhookEventType = (v: string): v is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(v);

/** The JSON body of a delivery (the Standard Webhooks shape: type, timestamp, data). */
export interface WebhookEnvelope {
  type: WebhookEventType | typeof WEBHOOK_TEST_EVENT;
  timestamp: string;
  api_version: string;
  data: Record<string, unknown>;
}
