/**
 * Error codes carried in GraphQL `extensions.code` and HTTP error bodies; the console reads the code, never the text.
 */
import { z } from './zod.js';

export const ERROR_CODES = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  TOUR_REMOVED: 'TOUR_REMOVED',
  INVALID_TOUR_ID: 'INVALID_TOUR_ID',
  /** The tour asks for its password (docs/access-and-privacy.md); extensions carry the company's branding only. */
  TOUR_PASSWORD_REQUIRED: 'TOUR_PASSWORD_REQUIRED',
  /** A wrong tour password. */
  TOUR_PASSWORD_WRONG: 'TOUR_PASSWORD_WRONG',
  /** The tour is for signed-in members of its company. */
  TOUR_MEMBERS_ONLY: 'TOUR_MEMBERS_ONLY',
  /**
   * An audience link that expired or was revoked: extensions carry the company's branding and contact, nothing of the
   * tour.
   */
  AUDIENCE_LINK_UNAVAILABLE: 'AUDIENCE_LINK_UNAVAILABLE',
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_NOT_ACTIVATED: 'ACCOUNT_NOT_ACTIVATED',
  ACCOUNT_ALREADY_ACTIVE: 'ACCOUNT_ALREADY_ACTIVE',
  INVALID_TOKEN: 'INVALID_TOKEN',
  HUMAN_CHECK_FAILED: 'HUMAN_CHECK_FAILED',
  RATE_LIMITED: 'RATE_LIMITED',
  QUERY_TOO_COMPLEX: 'QUERY_TOO_COMPLEX',
  NO_ACTIVE_LICENSE: 'NO_ACTIVE_LICENSE',
  NO_ACTIVE_TOURS_LEFT: 'NO_ACTIVE_TOURS_LEFT',
  NO_MONTHLY_UPLOADS_LEFT: 'NO_MONTHLY_UPLOADS_LEFT',
  PLAN_REQUIRED: 'PLAN_REQUIRED',
  VIDEO_TOO_SHORT: 'VIDEO_TOO_SHORT',
  VIDEO_TOO_LONG: 'VIDEO_TOO_LONG',
  VIDEO_RESOLUTION_LOW: 'VIDEO_RESOLUTION_LOW',
  VIDEO_INVALID: 'VIDEO_INVALID',
  UPLOAD_INVALID: 'UPLOAD_INVALID',
  REELS_LIMIT: 'REELS_LIMIT',
  TOUR_NOT_PROCESSED: 'TOUR_NOT_PROCESSED',
  AI_ALREADY_GENERATING: 'AI_ALREADY_GENERATING',
  AI_ALREADY_CREATED: 'AI_ALREADY_CREATED',
  SERVICE_NOT_CONFIGURED: 'SERVICE_NOT_CONFIGURED',
  NOT_AVAILABLE_YET: 'NOT_AVAILABLE_YET',
  CONFLICT: 'CONFLICT',
  INTERNAL: 'INTERNAL',
} as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** Reads the code from a GraphQL error-like object; unknown shapes give INTERNAL. */
export function errorCodeOf(error: unknown): ErrorCode {
  const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  const parsed = ErrorCodeSchema.safeParse(code);
  return parsed.success ? parsed.data : ERROR_CODES.INTERNAL;
}
