/**
 * Serves the console's production build at / (client-side routes fall back to index.html) and the player bundle at
 * /player/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { Services } from '../services/services.js';
import { refuse } from './refuse.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoPackages = path.resolve(here, '../../..');

/**
 * Paths that belong to the server (the path itself and everything under it), never to the console's client-side router.
 */
const SERVER_PREFIXES = [
  '/query',
  '/oauth',
  '/auth',
  '/media',
  '/dev',
  '/healthz',
  '/readyz',
  '/player',
  '/ws',
  '/webhooks',
  '/billing',
  '/api',
  '/ai',
];
/**
 * Server paths whose prefix itself is a console route: the local upload is `PUT /upload/<key>`, while `/upload` is the
 * console's upload screen (a reload of it showed the server's JSON 404).
 */
const SERVER_SUBPATHS = ['/upload/'];

/** Whether an HTML page request for this path is the console's (client-side routes fall back to index.html). */
function isConsolePath(url: string): boolean {
  return (
    !SERVER_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`)) &&
    !SERVER_SUBPATHS.some((p) => url.startsWith(p))
  );
}

/** The console's production build folder (its index.html is also the share page's shell, http/share-page.ts). */
export const consoleDistOf = (services: Services): string =>
  path.resolve(services.config.CONSOLE_DIST ?? path.join(repoPackages, 'console/dist'));

export async function registerStatic(app: FastifyInstance, services: Services): Promise<void> {
  const consoleDist = consoleDistOf(services);
  const playerDist = path.resolve(services.config.PLAYER_DIST ?? path.join(repoPackages, 'player-element/dist'));

  if (fs.existsSync(playerDist)) {
    await app.register(fastifyStatic, {
      root: playerDist,
      prefix: '/player/',
      decorateReply: false,
      // Listing sites load the player from anywhere.
      setHeaders: (res) => {
        res.header('Access-Control-Allow-Origin', '*');
        res.header('Cross-Origin-Resource-Policy', 'cross-origin');
        res.header('Cache-Control', 'public, max-age=300');
      },
    });
  }

  const indexHtml = path.join(consoleDist, 'index.html');
  if (!fs.existsSync(indexHtml)) {
    app.get('/', async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Roomwalk</title><p>The console has not been built. Run <code>npm run build</code>.</p>',
        ),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: consoleDist,
    prefix: '/',
    wildcard: false,
    index: false,
    decorateReply: true,
    setHeaders: (res, filePath) => {
      res.header(
        'Cache-Control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').sendFile('index.html');
  // The home page whatever the Accept header says (curl, monitors and link previews send none or */*).
  app.get('/', async (_req, reply) => sendIndex(reply));
  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    const wantsHtml = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    if (wantsHtml && isConsolePath(url)) return sendIndex(reply);
    return refuse(reply, ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  });
}
