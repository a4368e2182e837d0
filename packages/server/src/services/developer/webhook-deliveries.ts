/**
 * The webhook delivery engine. An event raised for a company (emitWebhookEvent) is stored once and delivered to each of
 * the company's enabled endpoints subscribed to its type, through the job queue: at least once, signed per the
 * Standard Webhooks specification (`standardwebhooks`), the event id in `webhook-id` so receivers drop duplicates; no
 * ordering across events. A failed attempt (no 2xx within the timeout, a redirect, a refused address) is retried on
 * WEBHOOK_RETRY_SCHEDULE_SECONDS; an endpoint failing for WEBHOOK_DISABLE_AFTER_HOURS is disabled and the company
 * admins are mailed. Every attempt is a row of the delivery log (webhook-endpoints.ts reads it and replays).
 */
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { countOf } from '@roomwalk/shared';
import { webhookDeliveries } from '../../core/metrics.js';
import { escapeHtml } from '../../core/html.js';
import { mailQueue } from '../../jobs/mail-job.js';
import { releaseLease, takeLease } from '../../jobs/job-lease.js';
import { WEBHOOK_NODE_SLOTS, webhookDeliveryQueue, type WebhookDeliveryJob } from '../../jobs/webhook-delivery-job.js';
import type { Services } from '../services.js';
import { postWebhook } from './outbound.js';
import { hasApiPlan } from './plan.js';
import {
  WEBHOOK_API_VERSION,
  WEBHOOK_TEST_EVENT,
  type WebhookEnvelope,
  type WebhookEventType,
} from './webhook-events.js';
import { DeliverySlots } from './webhook-slots.js';
import { serverNow } from '../../core/clock.js';

/** The id receivers see in `webhook-id` (and in the payload's GraphQL-style ids elsewhere). */
const eventMessageId = (eventId: string) => `evt_${eventId}`;

/** Stores an event once (its deliveries name it). */
export async function storeEvent(services: Services, companyId: string, envelope: WebhookEnvelope): Promise<string> {
  const row = await services.db
    .insertInto('webhook_events')
    .values({ company_id: companyId, type: envelope.type, payload: JSON.stringify(envelope) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Logs a pending attempt of the event to the endpoint and queues it (at `at`, or now); answers its delivery id. */
export async function scheduleAttempt(
  services: Services,
  endpointId: string,
  eventId: string,
  attempt: number,
  at: Date | null,
): Promise<string> {
  const row = await services.db
    .insertInto('webhook_deliveries')
    .values({ endpoint_id: endpointId, event_id: eventId, attempt, status: 'PENDING', next_retry_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sendDeliveryJob(services, row.id, at ?? undefined);
  return row.id;
}

/**
 * Fairness across companies (one company's hanging endpoint must not hold every delivery slot while another
 * company's delivery waits; docs/results.md, Webhook delivery across companies). Each company has
 * WEBHOOK_COMPANY_SLOTS deliveries in flight at most, across all workers (leases in job_leases), and each worker node
 * shares its slots by company (webhook-slots.ts: a reserve for companies with nothing in flight, a cap for failing
 * endpoints);
 * a delivery that finds no slot it may take goes back to the queue for a moment. And pg-boss fetches the highest
 * priority first: a delivery's priority is minus its company's deliveries waiting, so one company's backlog queues
 * behind everyone else's first delivery.
 */
export const WEBHOOK_COMPANY_SLOTS = 3;
const DEFER_SECONDS = 1;

async function sendDeliveryJob(
  services: Services,
  deliveryId: string,
  startAfter: Date | number | undefined,
): Promise<void> {
  const waiting = await services.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .innerJoin('webhook_endpoints as mine', 'mine.company_id', 'w.company_id')
    .innerJoin('webhook_deliveries as this', 'this.endpoint_id', 'mine.id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('this.id', '=', deliveryId)
    .where('d.status', '=', 'PENDING')
    .where('d.id', '!=', deliveryId)
    .executeTakeFirst();
  await webhookDeliveryQueue.enqueue(services, { deliveryId }, undefined, {
    priority: -Number(waiting?.n ?? 0),
    ...(startAfter === undefined ? {} : { startAfter }),
  });
}

/** Takes one of the company's delivery slots for this delivery; answers its release, or null when all are taken. */
async function takeCompanySlot(
  services: Services,
  companyId: string,
  deliveryId: string,
): Promise<(() => Promise<void>) | null> {
  // Held at most for the request's timeout; a worker that dies holding one frees it when the lease runs out.
  const seconds = services.config.WEBHOOK_TIMEOUT_SECONDS + 30;
  for (let slot = 0; slot < WEBHOOK_COMPANY_SLOTS; slot++) {
    const key = `webhook-delivery:${companyId}:${slot}`;
    if (await takeLease(services.database, key, deliveryId, seconds))
      return () => releaseLease(services.database, key, deliveryId);
  }
  return null;
}

/**
 * Raises an event for a company: stored once, delivered to each enabled endpoint subscribed to it. Does nothing for a
 * company whose plan does not include APIs & Webhooks. Never throws: a webhook must not fail the product's own work.
 */
export async function emitWebhookEvent(
  services: Services,
  companyId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  try {
    const endpoints = await services.db
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('company_id', '=', companyId)
      .where('enabled', '=', true)
      .where(sql<boolean>`${type} = ANY(events)`)
      .execute();
    if (endpoints.length === 0 || !(await hasApiPlan(services.db, companyId, serverNow(services)))) return;
    const eventId = await storeEvent(services, companyId, {
      type,
      timestamp: new Date().toISOString(),
      api_version: WEBHOOK_API_VERSION,
      data,
    });
    for (const e of endpoints) await scheduleAttempt(services, e.id, eventId, 1, null);
  } catch (err) {
    services.log.error({ err, type, companyId }, 'webhook event not raised');
  }
}

/**
 * The job's handler for one worker node: one attempt of one delivery. Idempotent: an attempt already settled is not
 * sent again. The node's slots (webhook-slots.ts) live with the handler, one set per registration.
 */
export function webhookDeliverer(services: Services): (job: WebhookDeliveryJob) => Promise<void> {
  const slots = new DeliverySlots(WEBHOOK_NODE_SLOTS);
  return async (job) => {
    const row = await loadDelivery(services, job.deliveryId);
    if (row?.status !== 'PENDING') return;
    if (!row.enabled) {
      await services.db
        .updateTable('webhook_deliveries')
        .set({ status: 'FAILED', error: 'The endpoint is disabled.', next_retry_at: null })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const local = slots.take(row.company_id, row.failing_since !== null);
    if (!local) return sendDeliveryJob(services, row.id, DEFER_SECONDS);
    try {
      const release = await takeCompanySlot(services, row.company_id, row.id);
      if (!release) return await sendDeliveryJob(services, row.id, DEFER_SECONDS);
      try {
        await attemptDelivery(services, row);
      } finally {
        await release().catch((err: unknown) =>
          services.log.warn({ err, deliveryId: row.id }, 'could not release a webhook delivery slot'),
        );
      }
    } finally {
      local();
    }
  };
}

type DeliveryRow = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

function loadDelivery(services: Services, deliveryId: string) {
  return services.db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.attempt',
      'd.status',
      'd.endpoint_id',
      'd.event_id',
      'w.url',
      'w.secret',
      'w.enabled',
      'w.failing_since',
      'w.company_id',
      'e.payload',
      'e.type',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

/** Sends one attempt and records its outcome: a retry scheduled, or the endpoint disabled after failing too long. */
async function attemptDelivery(services: Services, row: DeliveryRow): Promise<void> {
  const db = services.db;
  const body = typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload);
  const msgId = eventMessageId(row.event_id);
  const now = new Date();
  const signature = new Webhook(row.secret).sign(msgId, now, body);
  const headers = {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const result = await postWebhook(services.config, row.url, headers, body);
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  webhookDeliveries.inc({ outcome: ok ? 'succeeded' : 'failed' });
  const error = ok
    ? null
    : (result.error ??
      (result.statusCode && result.statusCode >= 300 && result.statusCode < 400
        ? `Redirect (${result.statusCode}) not followed.`
        : `Answered ${result.statusCode}.`));
  const schedule = services.config.WEBHOOK_RETRY_SCHEDULE_SECONDS;
  const retryAfter = !ok && row.type !== WEBHOOK_TEST_EVENT ? schedule[row.attempt - 1] : undefined;
  const nextAt = retryAfter === undefined ? null : new Date(Date.now() + retryAfter * 1000);
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: ok ? 'SUCCEEDED' : 'FAILED',
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      response_excerpt: result.excerpt,
      error,
      next_retry_at: nextAt,
    })
    .where('id', '=', row.id)
    .execute();
  if (ok) {
    if (row.failing_since)
      await db
        .updateTable('webhook_endpoints')
        .set({ failing_since: null })
        .where('id', '=', row.endpoint_id)
        .execute();
    return;
  }
  const failingSince = row.failing_since ?? now;
  if (!row.failing_since)
    await db
      .updateTable('webhook_endpoints')
      .set({ failing_since: now })
      .where('id', '=', row.endpoint_id)
      .where('failing_since', 'is', null)
      .execute();
  const limitMs = services.config.WEBHOOK_DISABLE_AFTER_HOURS * 3600_000;
  if (now.getTime() - new Date(failingSince).getTime() >= limitMs) {
    await disableEndpoint(services, row.endpoint_id, row.company_id, row.url);
    return;
  }
  if (nextAt) await scheduleAttempt(services, row.endpoint_id, row.event_id, row.attempt + 1, nextAt);
}

async function disableEndpoint(services: Services, endpointId: string, companyId: string, url: string): Promise<void> {
  const hours = services.config.WEBHOOK_DISABLE_AFTER_HOURS;
  const reason = `Every delivery failed for ${countOf(hours, 'hour')}.`;
  const disabled = await services.db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: new Date() })
    .where('id', '=', endpointId)
    .where('enabled', '=', true)
    .returning('id')
    .executeTakeFirst();
  if (!disabled) return;
  const admins = await services.db
    .selectFrom('users')
    .select('username')
    .where('company_id', '=', companyId)
    .where('role', '=', 'ADMIN')
    .execute();
  const link = `${services.config.publicUrl}/account/developers`;
  for (const a of admins) {
    await mailQueue.enqueue(services, {
      to: a.username,
      subject: 'A Roomwalk webhook endpoint was disabled',
      text: `Hi,\n\nRoomwalk disabled the webhook endpoint ${url} because ${reason.toLowerCase()} Fix the endpoint, then enable it again under APIs & Webhooks: ${link}\n\nDeliveries can be replayed from the delivery log.\n`,
      html: `<p>Hi,</p><p>Roomwalk disabled the webhook endpoint <code>${escapeHtml(url)}</code> because ${escapeHtml(reason.toLowerCase())}</p><p>Fix the endpoint, then enable it again under <a href="${escapeHtml(link)}">APIs &amp; Webhooks</a>. Deliveries can be replayed from the delivery log.</p>`,
      links: [link],
    });
  }
}
