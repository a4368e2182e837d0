/**
 * The public paths beside the tour query that obey the tour's access: the visit beacon counts visits only from visitors
 * let in, the live viewing socket lets a visitor in with a live grant only, and a company-only tour's seller report
 * opens for members only.
 */
import { ERROR_CODES, ERROR_TEXTS, PLAYER_GATE_TEXTS, TOUR_ACCESS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import type { AuthInfo } from '../../core/auth.js';
import type { Services } from '../services.js';
import { accessIndexOf } from './access-index.js';
import { verifyGrant } from './grants.js';

/**
 * Throws unless a beacon for this tour may be recorded: public tours always; password tours with a live grant;
 * company-only tours never (their viewers are the team, whose looks are not visits).
 */
export async function assertVisitAllowed(services: Services, tourId: string, grant: unknown): Promise<void> {
  const state = await accessIndexOf(services).get(tourId);
  if (!state || state.access === TOUR_ACCESS.public) return; // unknown tours: the writer answers NOT_FOUND
  if (state.access === TOUR_ACCESS.password && verifyGrant(services, tourId, state.version, grant)) return;
  throw state.access === TOUR_ACCESS.company
    ? new AppError(ERROR_CODES.TOUR_MEMBERS_ONLY, PLAYER_GATE_TEXTS.tourMembersOnly)
    : new AppError(ERROR_CODES.TOUR_PASSWORD_REQUIRED, ERROR_TEXTS.tourPasswordRequired);
}

/**
 * The seller report a link opens: a company-only tour shows nothing public, so its report opens for members only. A
 * password tour's report stays open to its link: the agent issues each link to one named seller, it expires and can
 * be revoked, and it carries figures and room names but no file of the tour (docs/access-and-privacy.md).
 */
export async function assertSellerReportAllowed(
  services: Services,
  auth: AuthInfo | null,
  tourId: string,
  companyId: string,
): Promise<void> {
  const state = await accessIndexOf(services).get(tourId);
  if (state?.access === TOUR_ACCESS.company && auth?.companyId !== companyId)
    throw new AppError(ERROR_CODES.TOUR_MEMBERS_ONLY, PLAYER_GATE_TEXTS.tourMembersOnly);
}

/**
 * Why a visitor's live viewing socket may not join (null: it may): a password tour wants a live grant, as the tour
 * query does; a company-only tour has no visitors (its team watches it signed in, as hosts).
 */
export async function liveViewerRefusal(services: Services, tourId: string, grant: unknown): Promise<string | null> {
  const state = await accessIndexOf(services).get(tourId);
  if (!state || state.access === TOUR_ACCESS.public) return null; // unknown tours: admission answers notFound
  if (state.access === TOUR_ACCESS.password)
    return verifyGrant(services, tourId, state.version, grant) ? null : ERROR_TEXTS.tourPasswordRequired;
  return PLAYER_GATE_TEXTS.tourMembersOnly;
}
