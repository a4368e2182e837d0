/** Errors with a code: the one way services, jobs and routes refuse something. Everything else is masked. */
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
  /**
   * graphql-js copies this onto the GraphQLError, so paths that skip our formatter (subscriptions over WebSocket) keep
   * the code.
   */
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
