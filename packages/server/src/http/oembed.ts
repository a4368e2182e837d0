/**
 * oEmbed (oembed.com) for share links: `GET /oembed?url=<share or audience link>&maxwidth=&maxheight=&format=json`
 * answers a `rich` embed, the player's iframe sized within maxwidth × maxheight at the tour's aspect (docs/embedding.md
 * "oEmbed"). What it names follows the link's card (services/share-preview/share-card.ts): a protected tour or a link
 * that no longer opens gets the iframe (which shows its gate) and the company's name at most. `format=xml` answers 501
 * as the specification allows; a URL that is not one of our share links, or names no tour, 404.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, PRODUCT_NAME } from '@roomwalk/shared';
import { escapeHtml as esc } from '../core/html.js';
import type { Services } from '../services/services.js';
import { SHARE_PATHS, shareCard, shareRequestOf } from '../services/share-preview/share-card.js';
import { refuse } from './refuse.js';

/** An embed's width when the consumer sets no maxwidth. */
export const OEMBED_DEFAULT_WIDTH = 800;
/** How long a consumer may keep an answer (seconds): a tour's title, picture or access may change. */
const CACHE_AGE = 3600;

export const OEMBED_TEXTS = {
  notOurs: 'This URL is not a Roomwalk tour link.',
  noTour: 'No tour has this link.',
  xml: 'Only format=json is available.',
  size: (name: string) => `${name} must be a whole number of pixels, at least 100.`,
} as const;

/** The iframe's size: the tour's aspect within the consumer's bounds. */
export function embedSize(aspect: number, maxwidth?: number, maxheight?: number): { width: number; height: number } {
  let width = maxwidth ?? OEMBED_DEFAULT_WIDTH;
  let height = Math.round(width / aspect);
  if (maxheight && height > maxheight) {
    height = maxheight;
    width = Math.min(width, Math.round(height * aspect));
  }
  return { width, height };
}

const pixels = (v: unknown): number | undefined | null => {
  if (v === undefined || v === '') return undefined;
  return typeof v === 'string' && /^\d{1,5}$/.test(v) && Number(v) >= 100 ? Number(v) : null;
};

export async function registerOembed(app: FastifyInstance, services: Services): Promise<void> {
  app.get('/oembed', async (req, reply) => {
    const q = req.query as Record<string, unknown>;
    if (q.format !== undefined && q.format !== 'json')
      return refuse(reply, ERROR_CODES.BAD_USER_INPUT, OEMBED_TEXTS.xml, { status: 501 });
    const maxwidth = pixels(q.maxwidth);
    const maxheight = pixels(q.maxheight);
    if (maxwidth === null) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, OEMBED_TEXTS.size('maxwidth'));
    if (maxheight === null) return refuse(reply, ERROR_CODES.BAD_USER_INPUT, OEMBED_TEXTS.size('maxheight'));
    let asked: URL;
    try {
      asked = new URL(typeof q.url === 'string' ? q.url : '');
    } catch {
      return refuse(reply, ERROR_CODES.NOT_FOUND, OEMBED_TEXTS.notOurs);
    }
    const ours = new URL(services.config.publicUrl);
    if (asked.host !== ours.host || !(SHARE_PATHS as readonly string[]).includes(asked.pathname))
      return refuse(reply, ERROR_CODES.NOT_FOUND, OEMBED_TEXTS.notOurs);
    const r = shareRequestOf(asked.searchParams);
    const card = r ? await shareCard(services, r, asked.pathname) : null;
    if (!card) return refuse(reply, ERROR_CODES.NOT_FOUND, OEMBED_TEXTS.noTour);
    const { width, height } = embedSize(card.aspect, maxwidth, maxheight);
    const thumb =
      card.kind === 'tour' && card.image?.width && card.image.height
        ? { thumbnail_url: card.image.url, thumbnail_width: card.image.width, thumbnail_height: card.image.height }
        : {};
    const html = `<iframe src="${esc(card.embedUrl)}" title="${esc(card.title)}" width="${width}" height="${height}" style="border:0;max-width:100%" allow="fullscreen; camera; microphone; clipboard-write"></iframe>`;
    return reply
      .header('Cache-Control', 'public, max-age=300')
      .header('Access-Control-Allow-Origin', '*')
      .send({
        type: 'rich',
        version: '1.0',
        title: card.title,
        ...(card.company ? { author_name: card.company } : {}),
        provider_name: PRODUCT_NAME,
        provider_url: `${services.config.publicUrl}/`,
        cache_age: CACHE_AGE,
        ...thumb,
        html,
        width,
        height,
      });
  });
}
