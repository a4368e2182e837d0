/** Reading GraphQL failures by code (never by text) and choosing what the user sees. */
import type { CombinedError } from 'urql';
import { ERROR_CODES, ERROR_TEXTS, errorCodeOf, type ErrorCode } from '@roomwalk/shared';

export type FailureCode = ErrorCode | 'NETWORK';

/** The first error's code; NETWORK when the request itself failed. */
export function failureCode(error: CombinedError | null | undefined): FailureCode | null {
  if (!error) return null;
  const first = error.graphQLErrors[0];
  if (first) return errorCodeOf(first);
  return 'NETWORK';
}

export const isNotAvailableYet = (error: CombinedError | null | undefined): boolean =>
  failureCode(error) === ERROR_CODES.NOT_AVAILABLE_YET;

/** The server's first message (it masks anything unexpected, so its texts are safe to show). */
export function serverMessage(error: CombinedError | null | undefined): string | undefined {
  const m = error?.graphQLErrors[0]?.message;
  return m && m.trim() ? m : undefined;
}

/** Per-field messages a BAD_USER_INPUT error carries in extensions.fields. */
export function fieldErrors(error: CombinedError | null | undefined): Record<string, string> {
  const fields = error?.graphQLErrors[0]?.extensions?.fields;
  return fields && typeof fields === 'object' ? (fields as Record<string, string>) : {};
}

const TEXT_BY_CODE: Partial<Record<FailureCode, string>> = {
  NOT_AVAILABLE_YET: ERROR_TEXTS.notAvailableYet,
  UNAUTHENTICATED: ERROR_TEXTS.notAuthenticated,
  FORBIDDEN: ERROR_TEXTS.forbidden,
  RATE_LIMITED: ERROR_TEXTS.rateLimited,
  INVALID_TOKEN: ERROR_TEXTS.invalidToken,
  HUMAN_CHECK_FAILED: ERROR_TEXTS.humanCheckFailed,
  USERNAME_TAKEN: ERROR_TEXTS.usernameTaken,
  QUERY_TOO_COMPLEX: ERROR_TEXTS.queryTooComplex,
};

/** A sentence for a failure: the code's own text, else the server's message, else the fallback. */
export function describeFailure(
  error: CombinedError | null | undefined,
  fallback: string = ERROR_TEXTS.unexpected,
): string {
  const code = failureCode(error);
  if (!code) return fallback;
  return (
    TEXT_BY_CODE[code] ?? (code === 'NETWORK' || code === 'INTERNAL' ? fallback : (serverMessage(error) ?? fallback))
  );
}
