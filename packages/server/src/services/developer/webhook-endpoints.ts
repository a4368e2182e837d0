/**
 * Webhook endpoints as a company's admins manage them: create (URL checked by outbound.ts, a signing secret made),
 * change, enable, delete, rotate and reveal the secret, read the delivery log, send a test event and replay a
 * delivery. Delivering is webhook-deliveries.ts's (events raised, attempts queued, sent, retried, fair across
 * companies).
 */
import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import { AppError, badInput, notFound } from '../../core/errors.js';
import { consumeRateLimit } from '../../auth/rate-limit.js';
import type { Services } from '../services.js';
import { requireKeyManager } from './api-keys.js';
import { checkWebhookUrl, UnsafeUrlError } from './outbound.js';
import { scheduleAttempt, storeEvent } from './webhook-deliveries.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from '../../db/tables/developer.js';
import { WEBHOOK_API_VERSION, WEBHOOK_TEST_EVENT, isWebhookEventType } from './webhook-events.js';

const MAX_ENDPOINTS = 16;
const DESCRIPTION_MAX = 300;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const encodeEndpointId = (id: string) => `whep_${id}`;

function checkEvents(events: readonly string[] | null | undefined): string[] {
  const list = [...new Set(events ?? [])];
  if (list.length === 0) throw badInput('Choose at least one event to send to this endpoint.', 'events');
  const unknown = list.find((e) => !isWebhookEventType(e));
  if (unknown) throw badInput(`"${unknown}" is not a webhook event.`, 'events');
  return list;
}

async function safeUrl(services: Services, url: string): Promise<string> {
  try {
    return await checkWebhookUrl(services.config, url);
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw badInput(err.message, 'url');
    throw err;
  }
}

const description = (d: string | null | undefined): string => {
  const v = (d ?? '').trim();
  if (v.length > DESCRIPTION_MAX)
    throw badInput(`The description can be at most ${DESCRIPTION_MAX} characters.`, 'description');
  return v;
};

async function ownEndpoint(services: Services, auth: AuthInfo, id: string): Promise<WebhookEndpointRow> {
  const row = await services.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', auth.companyId)
    .executeTakeFirst();
  if (!row) throw notFound('This webhook endpoint was not found.');
  return row;
}

export async function listEndpoints(services: Services, auth: AuthInfo): Promise<WebhookEndpointRow[]> {
  await requireKeyManager(services, auth);
  return services.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('company_id', '=', auth.companyId)
    .orderBy('created_at', 'asc')
    .execute();
}

export async function createEndpoint(
  services: Services,
  auth: AuthInfo,
  input: { url: string; events: readonly string[]; description?: string | null },
): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  await requireKeyManager(services, auth);
  const events = checkEvents(input.events);
  const desc = description(input.description);
  const url = await safeUrl(services, input.url);
  const db = services.db;
  const count = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', auth.companyId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_ENDPOINTS)
    throw badInput(`A company can have at most ${MAX_ENDPOINTS} webhook endpoints.`);
  const secret = newSecret();
  const endpoint = await db
    .insertInto('webhook_endpoints')
    .values({ company_id: auth.companyId, url, events, description: desc, secret, updated_at: new Date() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { endpoint, secret };
}

export async function updateEndpoint(
  services: Services,
  auth: AuthInfo,
  input: {
    id: string;
    url?: string | null;
    events?: readonly string[] | null;
    description?: string | null;
    enabled?: boolean | null;
  },
): Promise<WebhookEndpointRow> {
  await requireKeyManager(services, auth);
  await ownEndpoint(services, auth, input.id);
  const set: Record<string, unknown> = { updated_at: new Date() };
  if (input.url != null) set.url = await safeUrl(services, input.url);
  if (input.events != null) set.events = checkEvents(input.events);
  if (input.description != null) set.description = description(input.description);
  if (input.enabled != null) {
    set.enabled = input.enabled;
    // Enabling again starts a fresh failure window.
    if (input.enabled) Object.assign(set, { disabled_reason: null, failing_since: null });
  }
  return services.db
    .updateTable('webhook_endpoints')
    .set(set)
    .where('id', '=', input.id)
    .where('company_id', '=', auth.companyId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteEndpoint(services: Services, auth: AuthInfo, id: string): Promise<void> {
  await requireKeyManager(services, auth);
  await ownEndpoint(services, auth, id);
  await services.db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('company_id', '=', auth.companyId)
    .execute();
}

export async function rotateEndpointSecret(
  services: Services,
  auth: AuthInfo,
  id: string,
): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  await requireKeyManager(services, auth);
  await ownEndpoint(services, auth, id);
  const secret = newSecret();
  const endpoint = await services.db
    .updateTable('webhook_endpoints')
    .set({ secret, updated_at: new Date() })
    .where('id', '=', id)
    .where('company_id', '=', auth.companyId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { endpoint, secret };
}

/** The endpoint's signing secret, for an admin who asks to see it. */
export async function revealEndpointSecret(services: Services, auth: AuthInfo, id: string): Promise<string> {
  await requireKeyManager(services, auth);
  return (await ownEndpoint(services, auth, id)).secret;
}

export async function listDeliveries(
  services: Services,
  auth: AuthInfo,
  endpointId: string,
  page: { first: number; after?: { createdAt: Date; id: string } | undefined },
): Promise<Array<WebhookDeliveryRow & { event_type: string }>> {
  await requireKeyManager(services, auth);
  await ownEndpoint(services, auth, endpointId);
  let q = services.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .where('d.endpoint_id', '=', endpointId);
  if (page.after) {
    const { createdAt, id } = page.after;
    q = q.where((eb) =>
      eb.or([eb('d.created_at', '<', createdAt), eb.and([eb('d.created_at', '=', createdAt), eb('d.id', '<', id)])]),
    );
  }
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(page.first).execute();
}

/** "Send test event": a `webhook.test` event to this endpoint only; answers the delivery id. */
export async function sendTestEvent(services: Services, auth: AuthInfo, endpointId: string): Promise<string> {
  await requireKeyManager(services, auth);
  const endpoint = await ownEndpoint(services, auth, endpointId);
  await consumeRateLimit(services, 'webhookManualSend', auth.companyId);
  const eventId = await storeEvent(services, auth.companyId, {
    type: WEBHOOK_TEST_EVENT,
    timestamp: new Date().toISOString(),
    api_version: WEBHOOK_API_VERSION,
    data: {
      message: 'This is a test event from Roomwalk.',
      endpoint: { id: encodeEndpointId(endpoint.id), url: endpoint.url },
    },
  });
  return scheduleAttempt(services, endpoint.id, eventId, 1, null);
}

/** Sends a logged delivery's event again (same `webhook-id`, so a receiver that has it drops it); a new attempt row. */
export async function replayDelivery(services: Services, auth: AuthInfo, deliveryId: string): Promise<string> {
  await requireKeyManager(services, auth);
  const db = services.db;
  const d = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select(['d.endpoint_id', 'd.event_id', 'w.enabled'])
    .where('d.id', '=', deliveryId)
    .where('w.company_id', '=', auth.companyId)
    .executeTakeFirst();
  if (!d) throw notFound('This delivery was not found.');
  if (!d.enabled)
    throw new AppError(ERROR_CODES.CONFLICT, 'This endpoint is disabled. Enable it before replaying deliveries.');
  await consumeRateLimit(services, 'webhookManualSend', auth.companyId);
  const last = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.max('attempt').as('n'))
    .where('endpoint_id', '=', d.endpoint_id)
    .where('event_id', '=', d.event_id)
    .executeTakeFirstOrThrow();
  return scheduleAttempt(services, d.endpoint_id, d.event_id, Number(last.n ?? 0) + 1, null);
}
