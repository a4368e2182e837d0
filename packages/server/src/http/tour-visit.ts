/**
 * POST /tour-visit: the player's visit beacon. A plain route, not GraphQL, so the player can send it with
 * `navigator.sendBeacon` from any page: the body is JSON sent as `text/plain` (a CORS-safelisted type, so a
 * cross-origin beacon needs no preflight) or as `application/json`, read with the shared `visitBeaconSchema`
 * (`@roomwalk/shared/schemas/visit-beacon`), at most VISIT_BEACON_LIMITS.bodyBytesMax; no IP is stored. Beacons
 * arriving together are written together (services/reports/visit-writer.ts), and each is answered once its visit is
 * written. One visit per visitor per tour per 30 minutes, a plausible number of new visits per address
 * (services/reports/analytics.ts). Answers 204, or 400 / 404 / 429 with `{ error, code }` in the user's words;
 * nothing is written on a refusal.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, VISIT_BEACON_LIMITS } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';
import { parseVisitBeacon, recordTourView } from '../services/reports/analytics.js';
import type { Services } from '../services/services.js';
import { refuse } from './refuse.js';

export const TOUR_VISIT_PATH = '/tour-visit';
const MAX_BODY_BYTES = VISIT_BEACON_LIMITS.bodyBytesMax;

/** What a visit may be refused for, in the user's words; anything else is our failure (500). */
const REFUSED = new Set<string>([
  ERROR_CODES.BAD_USER_INPUT,
  ERROR_CODES.INVALID_TOUR_ID,
  ERROR_CODES.NOT_FOUND,
  ERROR_CODES.TOUR_PASSWORD_REQUIRED,
  ERROR_CODES.TOUR_MEMBERS_ONLY,
  ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE,
  ERROR_CODES.RATE_LIMITED,
]);

/** The body as JSON: sendBeacon's text/plain string is read here; undefined when it is not JSON. */
function jsonBody(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

export async function registerTourVisitRoute(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // sendBeacon sends a string body as text/plain;charset=UTF-8: read it as JSON here (this scope only).
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(TOUR_VISIT_PATH, { bodyLimit: MAX_BODY_BYTES }, async (req, reply) => {
      const body = jsonBody(req.body);
      if (!body || typeof body !== 'object' || Array.isArray(body))
        return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'The visit could not be read.');
      try {
        await recordTourView(services, parseVisitBeacon(body), { ip: req.ip });
        return reply.code(204).header('Cache-Control', 'no-store').send();
      } catch (err) {
        if (!(err instanceof AppError) || !REFUSED.has(err.code)) throw err;
        if (err.code === ERROR_CODES.RATE_LIMITED)
          reply.header('Retry-After', String(err.details?.retryAfterSeconds ?? 60));
        return refuse(reply, err.code, err.message);
      }
    });
  });
}
