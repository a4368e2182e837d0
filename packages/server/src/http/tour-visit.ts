/**
 * POST /tour-visit: the player's visit beacon (issue 15 item 8). A plain route, not GraphQL, so the player can send it
 * with `navigator.sendBeacon` from any page: the body is JSON sent as `text/plain` (a CORS-safelisted type, so a
 * cross-origin beacon needs no preflight) or as `application/json`. Body: `{ tourId, visitorId, secondsSpent?,
 * roomsReached?, segments?: [{ room, seconds }], fastTravels?, reachedEnd?, device? }` (issue 21), at most 16 KiB; no
 * IP is stored. Beacons arriving together are written together (services/reports/visit-writer.ts: one transaction
 * for all the beacons of the moment), and each is answered once its visit is written. One visit per visitor per tour per 30 minutes (services/reports/analytics.ts); later
 * beacons of the same visit only extend its time and rooms. Answers 204, or 400 / 404 / 429 with `{ error, code }` in
 * the user's words; nothing is written on a refusal. Rate limited per IP, like tourViewRecord.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { decodeId } from '../core/ids.js';
import { AppError } from '../core/errors.js';
import { consumeViewLimit, recordTourView, type TourViewRecordInput } from '../services/reports/analytics.js';
import type { Services } from '../services/services.js';

export const TOUR_VISIT_PATH = '/tour-visit';
/** Room segments (issue 21: up to 200 of them, names up to 100 characters) need more than the 1 KiB of the first beacon. */
const MAX_BODY_BYTES = 16 * 1024;

const STATUS: Partial<Record<string, number>> = {
  [ERROR_CODES.BAD_USER_INPUT]: 400,
  [ERROR_CODES.INVALID_TOUR_ID]: 400,
  [ERROR_CODES.NOT_FOUND]: 404,
  [ERROR_CODES.RATE_LIMITED]: 429,
};

function refuse(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).header('Cache-Control', 'no-store').send({ error: message, code, message });
}

export async function registerTourVisitRoute(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    // sendBeacon sends a string body as text/plain;charset=UTF-8: read it as JSON here (this scope only).
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_req, body, done) => done(null, body));
    scope.post(TOUR_VISIT_PATH, { bodyLimit: MAX_BODY_BYTES }, async (req, reply) => {
      let body: unknown = req.body;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body);
        } catch {
          return refuse(reply, 400, ERROR_CODES.BAD_USER_INPUT, 'The visit could not be read.');
        }
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse(reply, 400, ERROR_CODES.BAD_USER_INPUT, 'The visit could not be read.');
      const b = body as Record<string, unknown>;
      if (typeof b.tourId !== 'string') return refuse(reply, 400, ERROR_CODES.INVALID_TOUR_ID, 'This is not a valid tour link.');
      try {
        await consumeViewLimit(services, req.ip);
        const tourUuid = decodeId('Tour', b.tourId);
        await recordTourView(services, tourUuid, {
          tourId: b.tourId,
          visitorId: b.visitorId as string,
          secondsSpent: (b.secondsSpent ?? 0) as number,
          roomsReached: (b.roomsReached ?? 0) as number,
          segments: b.segments as TourViewRecordInput['segments'],
          fastTravels: b.fastTravels as number | undefined,
          reachedEnd: b.reachedEnd as boolean | undefined,
          device: b.device as TourViewRecordInput['device'],
        });
        return reply.code(204).header('Cache-Control', 'no-store').send();
      } catch (err) {
        if (err instanceof AppError && STATUS[err.code]) {
          if (err.code === ERROR_CODES.RATE_LIMITED) reply.header('Retry-After', String(err.details?.retryAfterSeconds ?? 60));
          return refuse(reply, STATUS[err.code]!, err.code, err.message);
        }
        throw err;
      }
    });
  });
}
