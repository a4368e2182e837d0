/**
 * GET/HEAD /media/<key>: files of the store, for <tour-player> on any listing site. Byte ranges (decode workers fetch
 * clips by range), ETags, year-long immutable caching for versioned keys, open CORS. A file of a password or
 * company-only tour (`tours/<id>/…`) is served only with a live signature of its key at the tour's access version
 * (`?e=&v=&s=`, made by services/tour-access/ tourMediaUrl), privately cached; without one it is Not found like a
 * key that names nothing. So is a clip past a public tour's lead gate (services/lead-gate/): its URL is
 * signed only for callers through the gate.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import { LocalStorage } from '../storage/local-storage.js';
import { isSafeKey } from '../storage/storage.js';
import type { Services } from '../services/services.js';
import { accessIndexOf } from '../services/tour-access/access-index.js';
import { verifyMediaSignature } from '../services/tour-access/grants.js';

/** A tour's files: `tours/<tour id>/…`. */
const TOUR_KEY = /^tours\/([0-9a-f-]{36})\//;
/** A protected tour's file with its signature: each browser keeps it, no shared cache does. */
const SIGNED_CACHE = 'private, max-age=3600';

/** Keys whose bytes never change: each processing attempt and each chosen thumbnail gets a new key. */
const IMMUTABLE_KEY = /^tours\/[0-9a-f-]{36}\/(v\d+|thumbs)\//;

const MEDIA_CACHE = {
  immutable: 'public, max-age=31536000, immutable',
  /** Other keys (source videos, images other parts store) may be replaced in place: revalidate with the ETag. */
  revalidate: 'public, max-age=60, must-revalidate',
} as const;

/** Parses a single `bytes=` range; null when absent, 'invalid' when unsatisfiable. Multiple ranges are served whole. */
function parseRange(header: string | undefined, size: number): { start: number; end: number } | null | 'invalid' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a, b] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}

function notFound(reply: FastifyReply) {
  return refuse(reply, ERROR_CODES.NOT_FOUND, 'Not found.');
}

async function serve(services: Services, req: FastifyRequest, reply: FastifyReply, head: boolean) {
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges, ETag');
  reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  reply.header('Timing-Allow-Origin', '*');
  const key = (req.params as { '*': string })['*'];
  // Keys are ours: a key with dot-dot, a leading slash, a doubled slash or odd characters names nothing.
  if (!key || !isSafeKey(key) || key.endsWith('.meta') || key.endsWith('.part')) return notFound(reply);
  let signed = false;
  const tourId = TOUR_KEY.exec(key)?.[1];
  if (tourId) {
    const state = await accessIndexOf(services).get(tourId);
    if (state && (state.access !== 'PUBLIC' || state.gated?.has(key))) {
      if (!verifyMediaSignature(services, key, state.version, req.query as Record<string, unknown>))
        return notFound(reply);
      signed = true;
    }
  }
  const storage = services.storage;
  const meta = await storage.head(key);
  if (!meta) return notFound(reply);

  let version = `${meta.size}`;
  if (storage instanceof LocalStorage) {
    const st = await fs.stat(storage.pathOf(key)).catch(() => null);
    if (!st?.isFile()) return notFound(reply);
    version += `-${Math.floor(st.mtimeMs)}`;
  }
  const etag = `"${createHash('sha1').update(`${key}\n${version}`).digest('base64url').slice(0, 22)}"`;
  reply.header('ETag', etag);
  reply.header('Accept-Ranges', 'bytes');
  reply.header(
    'Cache-Control',
    signed ? SIGNED_CACHE : IMMUTABLE_KEY.test(key) ? MEDIA_CACHE.immutable : MEDIA_CACHE.revalidate,
  );
  reply.header('Content-Type', meta.contentType);
  reply.header('X-Content-Type-Options', 'nosniff');

  const inm = req.headers['if-none-match'];
  if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
    return reply.code(304).send();
  }

  const ifRange = req.headers['if-range'];
  const range = ifRange && ifRange !== etag ? null : parseRange(req.headers.range, meta.size);
  if (range === 'invalid') {
    return refuse(
      reply.header('Content-Range', `bytes */${meta.size}`),
      ERROR_CODES.BAD_USER_INPUT,
      'This byte range is outside the file.',
      { status: 416 },
    );
  }
  if (range) {
    reply.code(206);
    reply.header('Content-Range', `bytes ${range.start}-${range.end}/${meta.size}`);
    reply.header('Content-Length', String(range.end - range.start + 1));
  } else {
    reply.code(200);
    reply.header('Content-Length', String(meta.size));
  }
  if (head) return reply.send();
  const obj = await storage.get(key, range ? { start: range.start, end: range.end } : undefined);
  if (!obj) return notFound(reply);
  return reply.send(obj.stream);
}

export async function registerMediaRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    exposeHeadRoute: false,
    handler: (req, reply) => serve(services, req, reply, req.method === 'HEAD'),
  });
  app.options('/media/*', async (req, reply) => {
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
    reply.header('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'range');
    reply.header('Access-Control-Max-Age', '86400');
    return reply.code(204).send();
  });
}
