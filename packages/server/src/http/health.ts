import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { ffmpegVersion } from '../media/ffmpeg-binaries.js';
import { refuse } from './refuse.js';

/**
 * Liveness and readiness: ready when the database answers and this node hears its notices (a node that cannot keeps
 * no cache and answers from the database, but a tour changed elsewhere reaches its live sockets late: take it out
 * until its LISTEN connection is back, docs/operations.md, Database notices). Readiness names the ffmpeg build that
 * decodes uploads (null when none is found).
 */
export async function registerHealthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(services.db);
    } catch {
      return refuse(reply, ERROR_CODES.NOT_AVAILABLE_YET, 'The database cannot be reached.');
    }
    const notices = services.events.notices;
    if (!notices.up)
      return refuse(
        reply,
        ERROR_CODES.NOT_AVAILABLE_YET,
        `Database notices cannot be received; reconnecting. ${notices.reason ?? ''}`.trim(),
      );
    return { ok: true, database: services.database.kind, role: services.config.ROLE, ffmpeg: ffmpegVersion() };
  });
}
