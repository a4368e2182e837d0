/** How errors reach GraphQL clients: AppErrors (core/errors.ts) keep code and message; anything else is masked. */
import { GraphQLError } from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';

export { AppError, badInput, forbidden, fromZod, notFound, unauthenticated } from '../core/errors.js';

/** Maps any thrown value to a client-safe GraphQLError: AppErrors keep code and message; others are masked. */
export function toClientError(err: unknown, log?: (e: unknown) => void): GraphQLError {
  const original = err instanceof GraphQLError && err.originalError ? err.originalError : err;
  const path = err instanceof GraphQLError ? err.path : undefined;
  if (original instanceof AppError) {
    return new GraphQLError(original.message, {
      path,
      extensions: { code: original.code, ...(original.details ?? {}) },
    });
  }
  // Pothos' checks of paging arguments ("Argument "last" must be a non-negative integer") and cursors.
  if (original instanceof PothosValidationError && /^(Argument "|Invalid offset cursor)/.test(original.message)) {
    return new GraphQLError(original.message, { path, extensions: { code: ERROR_CODES.BAD_USER_INPUT } });
  }
  // Validation and parse errors raised by graphql itself are safe to show, and so are graphql's variable errors
  // ("Variable "$x" got invalid value …"), which wrap graphql's own error (not a thrown Error, whose text could leak).
  if (err instanceof GraphQLError && (!err.originalError || isGraphqlOwn(err.originalError))) {
    const code = (err.extensions?.code as string | undefined) ?? ERROR_CODES.BAD_USER_INPUT;
    return new GraphQLError(err.message, { path, extensions: { code } });
  }
  log?.(original);
  return new GraphQLError(ERROR_TEXTS.unexpected, { path, extensions: { code: ERROR_CODES.INTERNAL } });
}

/** A GraphQLError made by graphql itself: no thrown Error anywhere down its chain. */
function isGraphqlOwn(err: unknown): boolean {
  let cur: unknown = err;
  for (let i = 0; i < 5 && cur instanceof GraphQLError; i++) {
    if (!cur.originalError) return true;
    cur = cur.originalError;
  }
  return false;
}
