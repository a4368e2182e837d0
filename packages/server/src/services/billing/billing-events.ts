/**
 * Recording a billing event (a Stripe webhook or the local provider's own) and queueing its sync job (sync.ts). Kept
 * apart from the sync so the local provider can emit events without importing the provider factory.
 */
import { randomBytes } from 'node:crypto';
import type { Services } from '../services.js';
import type { ProviderKind } from '../../db/tables/billing.js';
import { billingSyncQueue } from '../../jobs/billing-jobs.js';

export interface BillingEventInput {
  id: string;
  provider: ProviderKind;
  type: string;
  customerId: string | null;
  companyId: string | null;
}

/** Records the event and queues its work; false (and nothing queued) when this id was seen before. */
export async function recordBillingEvent(services: Services, ev: BillingEventInput): Promise<boolean> {
  const bdb = services.db;
  const inserted = await bdb
    .insertInto('billing_events')
    .values({ id: ev.id, provider: ev.provider, type: ev.type, customer_id: ev.customerId, company_id: ev.companyId })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  try {
    await billingSyncQueue.enqueue(services, { eventId: ev.id });
  } catch (err) {
    // Not queued: forget the event so the provider's retry (or the local caller) delivers it again.
    await bdb.deleteFrom('billing_events').where('id', '=', ev.id).execute();
    throw err;
  }
  return true;
}

/** An internal event of the local provider (same path as a Stripe webhook). */
export function emitLocalEvent(
  services: Services,
  type: string,
  companyId: string,
  customerId: string | null,
): Promise<boolean> {
  return recordBillingEvent(services, {
    id: `evt_local_${randomBytes(12).toString('hex')}`,
    provider: 'local',
    type,
    customerId,
    companyId,
  });
}
