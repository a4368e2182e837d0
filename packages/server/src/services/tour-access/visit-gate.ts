/** The visit beacon obeys the tour's access (issue 33): a protected tour counts visits only from visitors let in. */
import { ERROR_CODES, ERROR_TEXTS, PLAYER_ERROR_TEXTS, TOUR_ACCESS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
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
    ? new AppError(ERROR_CODES.TOUR_MEMBERS_ONLY, PLAYER_ERROR_TEXTS.tourMembersOnly)
    : new AppError(ERROR_CODES.TOUR_PASSWORD_REQUIRED, ERROR_TEXTS.tourPasswordRequired);
}
