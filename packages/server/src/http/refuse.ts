/**
 * How the server says no over HTTP, in one place: a plain route answers `{ error, code, message }` in the user's
 * words, with the HTTP status its code maps to in one table (dub's `errorCodeToHttpStatus`); a refusal before GraphQL
 * runs (no key, a key over its limit) answers the GraphQL error shape with the same table's status; Fastify's own
 * refusals (a body too large, bad JSON) pass through `refuseFrameworkError`. GraphQL answers carry the same codes in
 * their extensions (graphql/errors.ts); the client reads the code, never the text. test/architecture.test.ts fails on
 * an error status or error body written anywhere else.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS, type ErrorCode } from '@roomwalk/shared';
import { type RateLimitedAction, rateLimitWait } from '../auth/rate-limit.js';
import type { Services } from '../services/services.js';

/** The HTTP status of each error code. */
export const errorCodeToHttpStatus = {
  [ERROR_CODES.BAD_USER_INPUT]: 400,
  [ERROR_CODES.INVALID_TOUR_ID]: 400,
  [ERROR_CODES.INVALID_TOKEN]: 400,
  [ERROR_CODES.HUMAN_CHECK_FAILED]: 400,
  [ERROR_CODES.QUERY_TOO_COMPLEX]: 400,
  [ERROR_CODES.UPLOAD_INVALID]: 400,
  [ERROR_CODES.UNAUTHENTICATED]: 401,
  [ERROR_CODES.INVALID_CREDENTIALS]: 401,
  [ERROR_CODES.FORBIDDEN]: 403,
  [ERROR_CODES.TOUR_PASSWORD_REQUIRED]: 403,
  [ERROR_CODES.TOUR_PASSWORD_WRONG]: 403,
  [ERROR_CODES.TOUR_MEMBERS_ONLY]: 403,
  [ERROR_CODES.ACCOUNT_NOT_ACTIVATED]: 403,
  [ERROR_CODES.NO_ACTIVE_LICENSE]: 403,
  [ERROR_CODES.NO_ACTIVE_TOURS_LEFT]: 403,
  [ERROR_CODES.NO_MONTHLY_UPLOADS_LEFT]: 403,
  [ERROR_CODES.PLAN_REQUIRED]: 403,
  [ERROR_CODES.NOT_FOUND]: 404,
  [ERROR_CODES.CONFLICT]: 409,
  [ERROR_CODES.USERNAME_TAKEN]: 409,
  [ERROR_CODES.ACCOUNT_ALREADY_ACTIVE]: 409,
  [ERROR_CODES.REELS_LIMIT]: 409,
  [ERROR_CODES.TOUR_NOT_PROCESSED]: 409,
  [ERROR_CODES.AI_ALREADY_GENERATING]: 409,
  [ERROR_CODES.AI_ALREADY_CREATED]: 409,
  [ERROR_CODES.TOUR_REMOVED]: 410,
  [ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE]: 410,
  [ERROR_CODES.VIDEO_TOO_SHORT]: 422,
  [ERROR_CODES.VIDEO_TOO_LONG]: 422,
  [ERROR_CODES.VIDEO_RESOLUTION_LOW]: 422,
  [ERROR_CODES.VIDEO_INVALID]: 422,
  [ERROR_CODES.RATE_LIMITED]: 429,
  [ERROR_CODES.INTERNAL]: 500,
  [ERROR_CODES.SERVICE_NOT_CONFIGURED]: 503,
  [ERROR_CODES.NOT_AVAILABLE_YET]: 503,
} as const satisfies Record<ErrorCode, number>;

/**
 * Statuses that describe the request's transport rather than its error, given beside the code: a signed link that
 * does not hold (403), a body too large (413) or of a type the route does not take (415), a byte range outside the
 * file (416), a format the route does not speak (501: oEmbed's XML), a service behind the route that failed (502).
 */
type TransportStatus = 403 | 413 | 415 | 416 | 501 | 502;

interface RefuseOptions {
  status?: TransportStatus;
  /** The body's `error` when a protocol names its own (OAuth's `invalid_grant`); else the message. */
  error?: string;
  /** The request's body was not read: the client is asked to drop the connection rather than send the rest. */
  unreadBody?: boolean;
}

function answer(reply: FastifyReply, status: number, body: object, unreadBody = false) {
  if (unreadBody || status === 413) reply.header('Connection', 'close');
  // The type is set here: a route may have named its content's type (a video) before it found it must refuse.
  return reply.code(status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(body);
}

export function refuse(reply: FastifyReply, code: ErrorCode, message: string, o: RefuseOptions = {}) {
  return answer(
    reply,
    o.status ?? errorCodeToHttpStatus[code],
    { error: o.error ?? message, code, message },
    o.unreadBody,
  );
}

/**
 * A refusal on /query before GraphQL runs, in GraphQL's error shape; `extensions` adds to the code (retryAfterSeconds).
 */
export function refuseGraphQL(
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
) {
  return answer(reply, errorCodeToHttpStatus[code], {
    data: null,
    errors: [{ message, extensions: { code, ...extensions } }],
  });
}

/**
 * The code a status Fastify raised itself stands for; any other 4xx is the request's fault (bad JSON, a body too
 * large).
 */
const FRAMEWORK_CODES: Partial<Record<number, ErrorCode>> = {
  401: ERROR_CODES.UNAUTHENTICATED,
  403: ERROR_CODES.FORBIDDEN,
  404: ERROR_CODES.NOT_FOUND,
  409: ERROR_CODES.CONFLICT,
  429: ERROR_CODES.RATE_LIMITED,
};

/**
 * An error a route threw or Fastify raised (the app's error handler): its status kept, its code from the status;
 * a 5xx says only that something went wrong (the error is logged, never shown).
 */
export function refuseFrameworkError(reply: FastifyReply, status: number, message: string) {
  if (status >= 500)
    return answer(reply, status, {
      error: 'Internal Server Error',
      code: ERROR_CODES.INTERNAL,
      message: ERROR_TEXTS.unexpected,
    });
  const code = FRAMEWORK_CODES[status] ?? ERROR_CODES.BAD_USER_INPUT;
  const text = code === ERROR_CODES.RATE_LIMITED ? ERROR_TEXTS.rateLimited : message;
  return answer(reply, status, { error: text, code, message: text });
}

/**
 * A route's preHandler spending one attempt of `action` per client IP; when none are left it refuses (429, Retry-After)
 * before the handler runs.
 */
export function routeRateLimit(
  services: Services,
  action: RateLimitedAction,
): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (req, reply) => {
    const wait = await rateLimitWait(services, action, req.ip);
    if (wait !== null)
      await refuse(reply.header('Retry-After', String(wait)), ERROR_CODES.RATE_LIMITED, ERROR_TEXTS.rateLimited);
  };
}
