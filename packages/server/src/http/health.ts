import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { ffmpegVersion } from '../media/ffmpeg-binaries.js';
import { refuse } from './refuse.js';

/**
 * Liveness and readiness (database reachable); readiness names the ffmpeg build that decodes uploads (null when none is
 * found).
 */
export async function registerHealthRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await sql`select 1`.execute(services.db);
      return { ok: true, database: services.database.kind, role: services.config.ROLE, ffmpeg: ffmpegVersion() };
    } catch {
      return refuse(reply, ERROR_CODES.NOT_AVAILABLE_YET, 'The database cannot be reached.');
    }
  });
}
