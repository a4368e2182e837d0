/**
 * Development-only: `POST /dev/clock { "offsetMs": n }` moves this server's calendar clock (core/clock.ts) ahead, for
 * end-to-end tests of what expires (an audience link "tomorrow"). Registered only where the dev outbox is (a
 * development server keeping mail), never in production.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { serverNow, setClockOffset } from '../core/clock.js';
import type { Services } from '../services/services.js';
import { refuse } from './refuse.js';
import { DAY_MS } from '../core/days.js';

const MAX_OFFSET_MS = 400 * DAY_MS;

export async function registerDevClock(app: FastifyInstance, services: Services): Promise<void> {
  if (!services.config.isDev || services.mailer.kind !== 'outbox') return;
  app.post<{ Body: { offsetMs?: unknown } }>('/dev/clock', async (req, reply) => {
    const ms = req.body?.offsetMs;
    if (typeof ms !== 'number' || !Number.isFinite(ms) || Math.abs(ms) > MAX_OFFSET_MS) {
      return refuse(reply, ERROR_CODES.BAD_USER_INPUT, 'offsetMs must be a number of milliseconds within 400 days.');
    }
    setClockOffset(services, ms);
    return { now: serverNow(services).toISOString() };
  });
}
