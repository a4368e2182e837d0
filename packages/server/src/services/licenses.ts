/** Licence reads and the counters: computed from tours and uploads, never drifting. */
import { sql, type Kysely } from 'kysely';
import { ROLES, planById, type LicenseCounts } from '@roomwalk/shared';
import type { Database, LicenseRow, UserRow } from '../db/types.js';

export async function getLicense(db: Kysely<Database>, companyId: string): Promise<LicenseRow | undefined> {
  return db.selectFrom('licenses').selectAll().where('company_id', '=', companyId).executeTakeFirst();
}

/** Tours that hold an active slot: not deleted, not deactivated, not failed. */
export async function countActiveTours(
  db: Kysely<Database>,
  where: { companyId?: string; ownerId?: string },
): Promise<number> {
  let q = db
    .selectFrom('tours')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('deleted_at', 'is', null)
    .where('deactivated_at', 'is', null)
    .where('status', '!=', 'FAILED');
  if (where.companyId) q = q.where('company_id', '=', where.companyId);
  if (where.ownerId) q = q.where('owner_id', '=', where.ownerId);
  return (await q.executeTakeFirstOrThrow()).n;
}

/** Uploads submitted since the period start; deleting a tour never gives one back. */
export async function countUploadsSince(
  db: Kysely<Database>,
  since: Date,
  where: { companyId?: string; userId?: string },
): Promise<number> {
  let q = db.selectFrom('uploads').select(sql<number>`count(*)::int`.as('n')).where('submitted_at', '>=', since);
  if (where.companyId) q = q.where('company_id', '=', where.companyId);
  if (where.userId) q = q.where('user_id', '=', where.userId);
  return (await q.executeTakeFirstOrThrow()).n;
}

/** Uploads each user submitted since `since`, for many users in one statement (users without any are absent). */
export async function uploadsSinceByUser(
  db: Kysely<Database>,
  since: Date,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (!userIds.length) return new Map();
  const rows = await db
    .selectFrom('uploads')
    .select(['user_id', sql<number>`count(*)::int`.as('n')])
    .where('submitted_at', '>=', since)
    .where('user_id', 'in', [...userIds])
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [String(r.user_id), Number(r.n)]));
}

/** The current monthly period start: the licence's period start moved forward by whole months to `now` (the server's clock). */
export function currentPeriodStart(license: Pick<LicenseRow, 'period_start'>, now: Date): Date {
  const start = new Date(license.period_start);
  const d = new Date(start);
  let months = (now.getUTCFullYear() - start.getUTCFullYear()) * 12 + (now.getUTCMonth() - start.getUTCMonth());
  d.setUTCMonth(start.getUTCMonth() + months);
  if (d > now) {
    months -= 1;
    d.setTime(start.getTime());
    d.setUTCMonth(start.getUTCMonth() + months);
  }
  return d < start ? start : d;
}

export async function licenseCounts(db: Kysely<Database>, license: LicenseRow, now: Date): Promise<LicenseCounts> {
  const since = currentPeriodStart(license, now);
  return {
    quantity: license.quantity,
    uploadLimit: license.upload_limit,
    monthlyActiveTours: await countActiveTours(db, { companyId: license.company_id }),
    monthlyUploadedTours: await countUploadsSince(db, since, { companyId: license.company_id }),
  };
}

/**
 * Token roles: the plan's role (free without a licence, or once it ended by `now`: the server's clock, core/clock.ts
 * serverNow), plus admin and superadmin where they apply.
 */
export function rolesFor(
  user: Pick<UserRow, 'role' | 'is_superadmin'>,
  license: Pick<LicenseRow, 'plan_id' | 'end_date'> | undefined,
  now: Date,
): string[] {
  const expired = license?.end_date ? new Date(license.end_date).getTime() < now.getTime() : false;
  const plan = license && !expired ? planById(license.plan_id) : undefined;
  const roles: string[] = [plan?.role ?? ROLES.free];
  if (user.role === 'ADMIN') roles.push(ROLES.admin);
  if (user.is_superadmin) roles.push(ROLES.superadmin);
  return roles;
}
