/** Rules of the activation and password screens: what a link's answer means for the person who opened it. */
import { ERROR_CODES } from '@roomwalk/shared';
import type { FailureCode } from '../../graphql/errors.js';

/** How opening an activation link ended. */
export type ActivationOutcome = 'activated' | 'already-active' | 'failed';

/**
 * A second click on the activation link answers ACCOUNT_ALREADY_ACTIVE: the account is fine, the user only needs to
 * log in. Anything else without the activated user's id failed.
 */
export function activationOutcome(
  codes: readonly (FailureCode | null)[],
  activatedId: string | null | undefined,
): ActivationOutcome {
  if (codes.includes(ERROR_CODES.ACCOUNT_ALREADY_ACTIVE)) return 'already-active';
  return codes.length === 0 && activatedId ? 'activated' : 'failed';
}

/**
 * A failed password reset says the server's reason when it helps (an expired link, a feature not there yet); else the
 * general notice.
 */
export const resetFailureSaysWhy = (code: FailureCode | null): boolean =>
  code === ERROR_CODES.INVALID_TOKEN || code === ERROR_CODES.NOT_AVAILABLE_YET;

/** Said after a sign-in that cancelled the account's deletion (the server also mails it). */
export const DELETION_CANCELLED_NOTICE = 'Your account deletion was cancelled because you signed in.';
