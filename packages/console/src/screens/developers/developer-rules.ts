/**
 * The pure parts of APIs & Webhooks: the page's texts, readable event names, delivery status chips, who
 * may use the page, the forms' validation and when the delivery log polls.
 */
import { FEATURES, isAdmin, isProPlan, planByName } from '@roomwalk/shared';
import { z } from 'zod';

export const DEVELOPER_TEXTS = {
  title: 'APIs & Webhooks',
  /** The server's PLAN_REQUIRED text, so the gate and a refused request read the same. */
  planRequired: 'APIs & Webhooks need the Pro plan. Upgrade to use them.',
  adminOnly: 'Only company admins can manage APIs & Webhooks. Ask an admin of your company.',
  keysIntro:
    'An integration sends a key as Authorization: Bearer <key> on /query. It acts as your company for tours and uploads.',
  noKeys: 'No API keys yet.',
  neverUsed: 'Never used',
  keyShownOnce: 'Copy this key now and store it safely. It will not be shown again.',
  secretShownOnce:
    'Copy this signing secret now. It will not be shown again here; you can reveal it later from the endpoint.',
  endpointsIntro: 'Roomwalk posts signed events (Standard Webhooks) to these URLs and retries failed deliveries.',
  noEndpoints: 'No webhook endpoints yet.',
  noDeliveries: 'No deliveries yet.',
  testSent: 'Test event sent.',
  replaySent: 'Delivery replayed.',
  keyRevoked: 'API key revoked.',
  endpointDeleted: 'Endpoint deleted.',
  endpointSaved: 'Endpoint saved.',
  endpointEnabled: 'Endpoint enabled.',
  endpointDisabled: 'Endpoint disabled.',
} as const;

/** The GraphQL event names, in the order the form lists them. */
export const WEBHOOK_EVENTS = [
  'TOUR_PROCESSED',
  'TOUR_FAILED',
  'TOUR_DELETED',
  'LEAD_CREATED',
  'REEL_CREATED',
  'REEL_FAILED',
  'SHOTS_COMPLETED',
  'MARKERS_AI_COMPLETED',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const EVENT_LABELS: Record<WebhookEvent, string> = {
  TOUR_PROCESSED: 'Tour processed',
  TOUR_FAILED: 'Tour failed',
  TOUR_DELETED: 'Tour deleted',
  LEAD_CREATED: 'Lead created',
  REEL_CREATED: 'Reel created',
  REEL_FAILED: 'Reel failed',
  SHOTS_COMPLETED: 'Professional photos completed',
  MARKERS_AI_COMPLETED: 'AI markers completed',
};

/**
 * The wire name a receiver sees in `type`: TOUR_PROCESSED -> tour.processed, MARKERS_AI_COMPLETED ->
 * markers.ai_completed.
 */
export const wireEventName = (event: WebhookEvent): string => event.toLowerCase().replace('_', '.');

/**
 * A readable name for an event, by its GraphQL name or by the `type` a delivery carries ('tour.processed',
 * 'webhook.test').
 */
export function eventLabel(event: string): string {
  if (event === 'webhook.test') return 'Test event';
  const byEnum = EVENT_LABELS[event as WebhookEvent];
  if (byEnum) return byEnum;
  const byWire = WEBHOOK_EVENTS.find((e) => wireEventName(e) === event);
  return byWire ? EVENT_LABELS[byWire] : event;
}

export type DeliveryStatus = 'SUCCEEDED' | 'FAILED' | 'PENDING';

/** The chip of a delivery: a word (never colour alone), its Shoelace variant and icon. */
export function deliveryStatusChip(
  status: DeliveryStatus,
  nextRetryAt?: string | null,
): {
  text: string;
  variant: 'success' | 'danger' | 'warning';
  icon: 'check-circle' | 'exclamation-octagon' | 'hourglass-split';
} {
  if (status === 'SUCCEEDED') return { text: 'Succeeded', variant: 'success', icon: 'check-circle' };
  if (status === 'FAILED') return { text: 'Failed', variant: 'danger', icon: 'exclamation-octagon' };
  return { text: nextRetryAt ? 'Retry scheduled' : 'Pending', variant: 'warning', icon: 'hourglass-split' };
}

/**
 * Whether the company's plan includes APIs & Webhooks: the licence the API returns decides (it knows an upgrade before
 * the token does).
 */
function hasApiPlan(roles: readonly string[], planName: string | null | undefined): boolean {
  const plan = planName ? planByName(planName) : undefined;
  if (plan) return plan.features.includes(FEATURES.apisWebhooks);
  return isProPlan(roles);
}

export type Access = 'allowed' | 'plan' | 'admin';
/** What the page shows: the screens, the plan gate (below Pro, for everyone) or the admins-only note. */
export function developerAccess(
  roles: readonly string[],
  user: { isAdmin: boolean; planName: string | null | undefined },
): Access {
  if (!hasApiPlan(roles, user.planName)) return 'plan';
  if (!(isAdmin(roles) || user.isAdmin)) return 'admin';
  return 'allowed';
}

const KEY_NAME_MAX = 100;
const DESCRIPTION_MAX = 300;

export const apiKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the key a name, for example the system that will use it.')
    .max(KEY_NAME_MAX, `The name can be at most ${KEY_NAME_MAX} characters.`),
});

const httpUrl = (v: string) => {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname;
  } catch {
    return false;
  }
};

export const endpointSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the URL Roomwalk should post events to.')
    .refine(httpUrl, 'Enter a full URL starting with https://.'),
  description: z.string().trim().max(DESCRIPTION_MAX, `The description can be at most ${DESCRIPTION_MAX} characters.`),
  // A single checked box comes back from the form as a string, none as false.
  events: z.preprocess(
    (v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []),
    z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'Choose at least one event to send to this endpoint.'),
  ),
});

/** The field a BAD_USER_INPUT error names in extensions.field, when the form has it. */
export function serverField<F extends string>(
  error: { graphQLErrors: ReadonlyArray<{ message: string; extensions?: Record<string, unknown> }> } | null | undefined,
  fields: readonly F[],
): { field: F; message: string } | null {
  const first = error?.graphQLErrors[0];
  const field = first?.extensions?.field;
  if (
    first?.extensions?.code !== 'BAD_USER_INPUT' ||
    typeof field !== 'string' ||
    !(fields as readonly string[]).includes(field)
  )
    return null;
  return { field: field as F, message: first.message };
}

export const POLL_MS = 2000;
/** Polling stops this long after the last send, replay or refresh, whatever the log shows. */
export const POLL_WINDOW_MS = 60_000;
/** A pending row due within this time counts as in flight (a retry hours away does not keep the page polling). */
const DUE_SOON_MS = 10_000;

/** Whether the delivery log should look again in POLL_MS: a delivery is in flight and the last action was recent. */
export function shouldPoll(
  rows: ReadonlyArray<{ status: string; nextRetryAt?: string | null }>,
  now: number,
  lastActionAt: number,
): boolean {
  if (now - lastActionAt > POLL_WINDOW_MS) return false;
  return rows.some(
    (r) => r.status === 'PENDING' && (!r.nextRetryAt || new Date(r.nextRetryAt).getTime() - now <= DUE_SOON_MS),
  );
}

/** Dates and times as the console writes them: '26 Nov 2026, 14:05'. */
export const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-ZA', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
export const dateOnly = (iso: string) =>
  new Date(iso).toLocaleDateString('en-ZA', { year: 'numeric', month: 'short', day: 'numeric' });
