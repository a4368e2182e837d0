/** Custom Company Branding on the player: the company's logo and accent colour, while its licence has the feature. */
import type { Kysely } from 'kysely';
import { planHasBranding } from '@roomwalk/shared';
import type { Database } from '../db/types.js';
import { isLicenseActive } from './uploads.js';

export interface CompanyBranding {
  logoKey: string | null;
  accentColor: string | null;
}

/** The branding a company's tours show, or null when its plan lacks Custom Company Branding (or has lapsed). */
async function companyBranding(db: Kysely<Database>, companyId: string, now: Date): Promise<CompanyBranding | null> {
  const row = await db
    .selectFrom('companies')
    .leftJoin('licenses', 'licenses.company_id', 'companies.id')
    .select(['companies.logo_key', 'companies.accent_color', 'licenses.plan_id', 'licenses.end_date'])
    .where('companies.id', '=', companyId)
    .executeTakeFirst();
  if (!row || !planHasBranding(row.plan_id) || !isLicenseActive({ end_date: row.end_date ?? null }, now)) return null;
  return { logoKey: row.logo_key, accentColor: row.accent_color };
}

const perRequest = new WeakMap<object, Map<string, Promise<CompanyBranding | null>>>();

/**
 * companyBranding once per request and company (a tour's logo and colour fields share one query), while the licence is
 * in force at `now` (the server's clock).
 */
export function requestBranding(
  ctx: object,
  db: Kysely<Database>,
  companyId: string,
  now: Date,
): Promise<CompanyBranding | null> {
  let m = perRequest.get(ctx);
  if (!m) {
    m = new Map();
    perRequest.set(ctx, m);
  }
  let p = m.get(companyId);
  if (!p) {
    p = companyBranding(db, companyId, now);
    m.set(companyId, p);
  }
  return p;
}
