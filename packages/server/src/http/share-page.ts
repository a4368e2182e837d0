/**
 * The share page (/playerext, /agentplayer) as a link preview sees it (docs/embedding.md "Link previews"): the
 * console's own page, the same script that boots the player, with the link's card in its head before any script runs:
 * `<title>`, Open Graph, Twitter card, the oEmbed discovery link, robots (`noindex` unless the tour is listed) and, for a
 * listed tour, schema.org JSON-LD. What the card shows is decided by services/share-preview/share-card.ts (access
 * first). Also: `X-Robots-Tag: noindex` on every /media answer (tours are unlisted by default; their pictures and clips
 * are never for search engines).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml as esc } from '../core/html.js';
import type { Services } from '../services/services.js';
import { SHARE_PATHS, type ShareCard, shareCard, shareRequestOf } from '../services/share-preview/share-card.js';
import { consoleDistOf } from './static.js';

/** The page when the console is not built (tests, a server-only deployment): the head is what previews read. */
const BARE_SHELL =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Roomwalk</title>\n</head>\n<body>\n<div id="root"></div>\n<noscript>Roomwalk needs JavaScript to run.</noscript>\n</body>\n</html>\n';

/** The console's index.html, read again when it changes (a new build). */
function shellReader(services: Services): () => string {
  const file = path.join(consoleDistOf(services), 'index.html');
  let kept: { mtimeMs: number; html: string } | null = null;
  return () => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return BARE_SHELL;
    }
    if (kept?.mtimeMs !== stat.mtimeMs) kept = { mtimeMs: stat.mtimeMs, html: fs.readFileSync(file, 'utf8') };
    return kept.html;
  };
}

const meta = (attr: 'name' | 'property', key: string, content: string | number) =>
  `<meta ${attr}="${key}" content="${esc(String(content))}">`;

/** JSON inside a script element: `<` escaped so no text in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The oEmbed endpoint's address for a share link (the discovery link's href). */
export const oembedUrlOf = (services: Services, url: string, format = 'json') =>
  `${services.config.publicUrl}/oembed?${new URLSearchParams({ url, format })}`;

/** schema.org's description of a listed tour's page (a real estate listing with its picture and rooms). */
function jsonLd(card: ShareCard): Record<string, unknown> | null {
  if (!card.indexable || !card.tour) return null;
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateListing',
    name: card.tour.title,
    description: card.description,
    url: card.url,
    dateModified: card.tour.updatedAt.toISOString(),
    ...(card.image ? { image: card.image.url } : {}),
    ...(card.company ? { provider: { '@type': 'Organization', name: card.company } } : {}),
    ...(card.tour.rooms.length ? { containsPlace: card.tour.rooms.map((name) => ({ '@type': 'Room', name })) } : {}),
  };
}

/** The head tags of a card (every text escaped). */
export function shareHead(services: Services, card: ShareCard | null): string {
  if (!card) return [`<title>Roomwalk</title>`, meta('name', 'robots', 'noindex')].join('\n');
  const tags = [
    `<title>${esc(card.title)}</title>`,
    meta('name', 'description', card.description),
    meta('name', 'robots', card.indexable ? 'index, follow' : 'noindex'),
    `<link rel="canonical" href="${esc(card.url)}">`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', card.siteName),
    meta('property', 'og:title', card.title),
    meta('property', 'og:description', card.description),
    meta('property', 'og:url', card.url),
    meta('name', 'twitter:card', card.image && card.kind === 'tour' ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', card.title),
    meta('name', 'twitter:description', card.description),
  ];
  if (card.image) {
    tags.push(meta('property', 'og:image', card.image.url));
    if (card.image.width && card.image.height)
      tags.push(
        meta('property', 'og:image:type', 'image/jpeg'),
        meta('property', 'og:image:width', card.image.width),
        meta('property', 'og:image:height', card.image.height),
      );
    tags.push(
      meta('property', 'og:image:alt', card.image.alt),
      meta('name', 'twitter:image', card.image.url),
      meta('name', 'twitter:image:alt', card.image.alt),
    );
  }
  tags.push(
    `<link rel="alternate" type="application/json+oembed" href="${esc(oembedUrlOf(services, card.url))}" title="${esc(card.title)}">`,
  );
  const ld = jsonLd(card);
  if (ld) tags.push(`<script type="application/ld+json">${scriptJson(ld)}</script>`);
  return tags.join('\n');
}

/** The shell with its generic title and description replaced by the card's head. */
export function withHead(shell: string, head: string): string {
  const bare = shell.replace(/\s*<meta name="description"[^>]*>/i, '');
  return /<title>[^<]*<\/title>/i.test(bare)
    ? bare.replace(/<title>[^<]*<\/title>/i, () => head)
    : bare.replace(/<\/head>/i, () => `${head}\n</head>`);
}

export async function registerSharePage(app: FastifyInstance, services: Services): Promise<void> {
  const shell = shellReader(services);
  const sharePage = async (req: FastifyRequest, reply: FastifyReply) => {
    const [pathname, search = ''] = req.url.split('?');
    const r = shareRequestOf(new URLSearchParams(search));
    const card = r ? await shareCard(services, r, pathname) : null;
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('X-Robots-Tag', card?.indexable ? 'all' : 'noindex')
      .send(withHead(shell(), shareHead(services, card)));
  };
  for (const p of SHARE_PATHS) app.get(p, sharePage);

  // Tours are unlisted by default and their files are never for search engines' image or video results.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.startsWith('/media/')) reply.header('X-Robots-Tag', 'noindex');
    return payload;
  });
}
