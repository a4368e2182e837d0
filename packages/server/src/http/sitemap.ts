/**
 * Search engines' way in (docs/embedding.md "Listed or unlisted"): `/sitemap.xml` lists the share links of listed
 * tours only (public, processed, active; the agent's "Search engines may show this tour"), and `/robots.txt` names it.
 * Every other tour page says `noindex` itself (http/share-page.ts).
 */
import type { FastifyInstance } from 'fastify';
import { TOUR_ACCESS, TOUR_STATUS } from '@roomwalk/shared';
import { encodeId } from '../core/ids.js';
import { escapeHtml as esc } from '../core/html.js';
import type { Services } from '../services/services.js';
import { shareUrl } from '../services/share-preview/share-card.js';

/** The protocol's limit of URLs in one sitemap file. */
const SITEMAP_MAX = 50_000;

/** The share links of listed tours, newest change first. */
export async function listedTours(services: Services): Promise<Array<{ url: string; updatedAt: Date }>> {
  const rows = await services.db
    .selectFrom('tours')
    .select(['id', 'updated_at'])
    .where('listed', '=', true)
    .where('deleted_at', 'is', null)
    .where('deactivated_at', 'is', null)
    .where('access', '=', TOUR_ACCESS.public)
    .where('status', '=', TOUR_STATUS.PROCESSED)
    .orderBy('updated_at', 'desc')
    .limit(SITEMAP_MAX)
    .execute();
  const base = services.config.publicUrl;
  return rows.map((t) => ({
    url: shareUrl(base, { tourId: encodeId('Tour', t.id), link: null, unbranded: false }),
    updatedAt: t.updated_at,
  }));
}

export async function registerSitemap(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/sitemap.xml', async (_req, reply) => {
    const urls = (await listedTours(services))
      .map((t) => `<url><loc>${esc(t.url)}</loc><lastmod>${t.updatedAt.toISOString()}</lastmod></url>`)
      .join('\n');
    return reply
      .type('application/xml; charset=utf-8')
      .header('Cache-Control', 'public, max-age=600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
      );
  });
  app.get('/robots.txt', async (_req, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(`User-agent: *\nAllow: /\nSitemap: ${services.config.publicUrl}/sitemap.xml\n`),
  );
}
