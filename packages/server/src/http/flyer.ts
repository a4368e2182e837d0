/**
 * GET /tours/<tourId>/flyer.pdf?paper=A4|LETTER&unbranded=true: Sharing Options' "Print flyer" (services/share-preview/
 * flyer.ts), for members of the tour's company with their session (Bearer). Answered as a download, never cached.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, FLYER_SIZES, type FlyerSize } from '@roomwalk/shared';
import { AppError } from '../core/errors.js';
import { resolveAuth } from '../services/resolve-auth.js';
import type { Services } from '../services/services.js';
import { tourFlyerPdf } from '../services/share-preview/flyer.js';
import { refuse } from './refuse.js';

export const FLYER_ROUTE_TEXTS = {
  signIn: 'Please sign in.',
  paper: 'Choose A4 or US Letter.',
} as const;

/** A file name from the tour's title: letters, digits, spaces and dashes. */
const fileName = (title: string) =>
  `${
    title
      .normalize('NFD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'tour'
  }-flyer.pdf`;

export async function registerFlyerRoute(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/tours/:tourId/flyer.pdf', async (req, reply) => {
    const auth = await resolveAuth(services, req.headers.authorization ?? '');
    if (!auth) return refuse(reply, ERROR_CODES.UNAUTHENTICATED, FLYER_ROUTE_TEXTS.signIn);
    const q = req.query as Record<string, unknown>;
    const paper = (q.paper ?? 'A4') as FlyerSize;
    if (!FLYER_SIZES.includes(paper)) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, FLYER_ROUTE_TEXTS.paper);
    const { tourId } = req.params as { tourId: string };
    try {
      const { pdf, title } = await tourFlyerPdf(services, auth, { tourId, paper, unbranded: q.unbranded === 'true' });
      return reply
        .type('application/pdf')
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `attachment; filename="${fileName(title)}"`)
        .send(pdf);
    } catch (e) {
      if (e instanceof AppError) return refuse(reply, e.code, e.message);
      throw e;
    }
  });
}
