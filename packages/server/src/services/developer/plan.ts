/** Whether a company's plan includes APIs & Webhooks (Pro and the Offline License), read fresh from its licence. */
import { ERROR_CODES, FEATURES, planById } from '@roomwalk/shared';
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.js';
import type { Database } from '../../db/types.js';
import { getLicense } from '../licenses.js';
import { isLicenseActive } from '../uploads.js';

export const PLAN_REQUIRED_TEXT = 'APIs & Webhooks need the Pro plan. Upgrade to use them.';

/** Whether the plan includes the API at `now` (the server's clock, core/clock.ts serverNow). */
export async function hasApiPlan(db: Kysely<Database>, companyId: string, now: Date): Promise<boolean> {
  const license = await getLicense(db, companyId);
  return isLicenseActive(license, now) && !!planById(license.plan_id)?.features.includes(FEATURES.apisWebhooks);
}

export async function requireApiPlan(db: Kysely<Database>, companyId: string, now: Date): Promise<void> {
  if (!(await hasApiPlan(db, companyId, now))) throw new AppError(ERROR_CODES.PLAN_REQUIRED, PLAN_REQUIRED_TEXT);
}
