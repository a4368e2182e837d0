/**
 * Who may manage a tour's seller reports: whoever may edit the tour (its owner or a company admin), on a plan with
 * Tour Analytics (Basic, Pro, Offline License), read fresh from the licence so an upgrade works at once.
 */
import { ERROR_CODES, FEATURES, planById } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import { AppError } from '../../core/errors.js';
import { serverNow } from '../../core/clock.js';
import type { Kysely } from 'kysely';
import type { Database, TourRow } from '../../db/types.js';
import { getLicense } from '../licenses.js';
import type { Services } from '../services.js';
import { loadEditableTour } from '../tours.js';
import { isLicenseActive } from '../uploads.js';

const ANALYTICS_PLAN_TEXT = 'Tour Analytics and seller reports need the Basic or Pro plan. Upgrade to use them.';

/** On `db`, which may be a transaction (the digest sweep reads it inside its own); `now`: the server's clock. */
export async function hasAnalyticsPlan(db: Kysely<Database>, companyId: string, now: Date): Promise<boolean> {
  const license = await getLicense(db, companyId);
  return isLicenseActive(license, now) && !!planById(license.plan_id)?.features.includes(FEATURES.tourAnalytics);
}

/** The tour, when the caller may manage its seller reports; PLAN_REQUIRED below Basic. */
export async function sellerReportTour(services: Services, auth: AuthInfo, tourGlobalId: string): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, tourGlobalId);
  if (!(await hasAnalyticsPlan(services.db, tour.company_id, serverNow(services))))
    throw new AppError(ERROR_CODES.PLAN_REQUIRED, ANALYTICS_PLAN_TEXT);
  return tour;
}
