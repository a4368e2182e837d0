/** Errors with a code: the one way resolvers and routes refuse something. Everything else is masked. */
import { GraphQLError } from 'graphql';
import { PothosValidationError } from '@pothos/core';
import { ERROR_CODES, ERROR_TEXTS, type ErrorCode } from '@roomwalk/shared';

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
  /** graphql-js copies this onto the GraphQLError, so paths that skip our formatter (subscriptions over WebSocket) keep the code. */
  get extensions(): Record<string, unknown> {
    return { code: this.code, ...(this.details ?? {}) };
  }
}

export const badInput = (message: string, field?: string) =>
  new AppError(ERROR_CODES.BAD_USER_INPUT, message, field ? { field } : undefined);
export const notFound = (message: string = ERROR_TEXTS.notFound) => new AppError(ERROR_CODES.NOT_FOUND, message);
export const forbidden = (message: string = ERROR_TEXTS.forbidden) => new AppError(ERROR_CODES.FORBIDDEN, message);
export const unauthenticated = () => new AppError(ERROR_CODES.UNAUTHENTICATED, ERROR_TEXTS.notAuthenticated);

/** Turns a zod failure into a BAD_USER_INPUT error carrying the first message and every field's message. */
export function fromZod(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): AppError {
  const fields: Record<string, string> = {};
  for (const i of issues) {
    const key = i.path.map(String).join('.') || '_';
    fields[key] ??= i.message;
  }
  return new AppError(ERROR_CODES.BAD_USER_INPUT, issues[0]?.message ?? 'Invalid input', { fields });
}

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
