/**
 * Changing a company's licence: applying a plan, enforcing the active-tour allowance after a downgrade or an expiry,
 * the Offline License grant, and the expiry sweep. Reads and counters stay in ../licenses.ts.
 */
import type { Kysely } from 'kysely';
import { PLAN_IDS, planById, uploadLimitFor, type Plan, type PlanId } from '@roomwalk/shared';
import type { Database, LicenseRow } from '../../db/types.js';
import { currentPeriodStart, getLicense } from '../licenses.js';

export interface ApplyPlanOptions {
  /** The card provider's subscription id; null for Free Trial and Offline License. */
  subscriptionId: string | null;
  /** When the licence ends (a cancelled subscription's period end); null when it renews or never ends. */
  endDate: Date | null;
  /** Start of the provider's current billing period; the monthly counters restart from here. */
  periodStart?: Date | null;
  /** When this plan started (the subscription's start); defaults to now on a plan change. */
  startDate?: Date | null;
  /** The server's clock (core/clock.ts serverNow): a new period or plan starts at it. */
  now: Date;
}

export interface ApplyPlanResult {
  license: LicenseRow;
  /** Tours switched off because they no longer fit the allowance, newest kept. */
  deactivatedTourIds: string[];
}

/**
 * Sets the company's licence to `plan` and deactivates the tours beyond its allowance. Counters: the period start
 * comes from the provider when given; otherwise a plan change keeps the running monthly period (so cancelling or
 * switching plans never hands out a fresh month of uploads), and a first licence starts its period now.
 */
export async function applyPlan(
  db: Kysely<Database>,
  companyId: string,
  plan: Plan,
  opts: ApplyPlanOptions,
): Promise<ApplyPlanResult> {
  const { now } = opts;
  return inTransaction(db, async (trx) => {
    // One writer per company at a time: concurrent syncs and grants serialise on the licence row.
    const existing = await trx
      .selectFrom('licenses')
      .selectAll()
      .where('company_id', '=', companyId)
      .forUpdate()
      .executeTakeFirst();
    const periodStart = opts.periodStart ?? (existing ? currentPeriodStart(existing, now) : now);
    const samePlan = existing?.plan_id === plan.id;
    const startDate = opts.startDate ?? (samePlan && existing ? existing.start_date : now);
    const values = {
      plan_id: plan.id,
      plan_name: plan.planName,
      subscription_id: opts.subscriptionId,
      quantity: plan.upTo,
      upload_limit: uploadLimitFor(plan.upTo),
      start_date: startDate,
      end_date: opts.endDate,
      period_start: periodStart,
    };
    const license = existing
      ? await trx
          .updateTable('licenses')
          .set(values)
          .where('company_id', '=', companyId)
          .returningAll()
          .executeTakeFirstOrThrow()
      : await trx
          .insertInto('licenses')
          .values({ company_id: companyId, ...values })
          .returningAll()
          .executeTakeFirstOrThrow();
    const deactivatedTourIds = await enforceAllowance(trx, companyId, plan.upTo, now);
    return { license, deactivatedTourIds };
  });
}

/** Runs `fn` in a transaction, joining the caller's when there is one. */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * Deactivates the company's active tours beyond `allowance`, keeping the newest. The tour keeps its status; the
 * tours domain reads `deactivated_at IS NOT NULL` as "deactivated" and tourReactivate clears it when a slot is free.
 */
async function enforceAllowance(
  db: Kysely<Database>,
  companyId: string,
  allowance: number,
  now: Date,
): Promise<string[]> {
  const active = await db
    .selectFrom('tours')
    .select('id')
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('deactivated_at', 'is', null)
    .where('status', '!=', 'FAILED')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const beyond = active.slice(Math.max(0, allowance)).map((t) => t.id);
  if (beyond.length === 0) return [];
  await db.updateTable('tours').set({ deactivated_at: now, updated_at: now }).where('id', 'in', beyond).execute();
  return beyond;
}

/** Back to the Free Trial plan (subscription ended or licence expired). */
export function downgradeToFree(db: Kysely<Database>, companyId: string, now: Date): Promise<ApplyPlanResult> {
  return applyPlan(db, companyId, planById(PLAN_IDS.free)!, { subscriptionId: null, endDate: null, now });
}

/** The Offline License: granted by a super admin for an agreement made outside the card provider; never expires. */
export function grantOfflineLicense(db: Kysely<Database>, companyId: string, now: Date): Promise<ApplyPlanResult> {
  return applyPlan(db, companyId, planById(PLAN_IDS.offline)!, { subscriptionId: null, endDate: null, now });
}

export function isPlanId(id: string | null | undefined): id is PlanId {
  return !!id && !!planById(id);
}

/**
 * Licences whose end date has passed by `now` (the server's clock) and that still carry more than the Free Trial: the
 * expiry sweep's work list.
 */
export async function expiredLicenses(db: Kysely<Database>, now: Date): Promise<LicenseRow[]> {
  return db
    .selectFrom('licenses')
    .selectAll()
    .where('end_date', 'is not', null)
    .where('end_date', '<=', now)
    .where((eb) => eb.or([eb('plan_id', '!=', PLAN_IDS.free), eb('subscription_id', 'is not', null)]))
    .orderBy('end_date')
    .limit(500)
    .execute();
}

/** Current licence, or undefined. Re-exported so billing code has one import for licence reads and writes. */
export { getLicense };
