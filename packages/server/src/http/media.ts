/**
 * GET/HEAD /media/<key>: files of the store, for <tour-player> on any listing site. Byte ranges (decode workers fetch
 * clips by range), ETags, year-long immutable caching for versioned keys. Who may read a file is one rule on its
 * canonical key (storage/media-key.ts), the same on every store: the path must be the key at its one spelling (no dot
 * segment, escape, backslash, case change...), then what the key is decides. A public tour's files, profile pictures
 * and logos: anyone, open CORS. A file of a password or company-only tour, or past a public tour's lead gate
 * (services/lead-gate/): only with a live signature of its key at the tour's access version (`?e=&v=&s=`, made by
 * services/tour-access/ tourMediaUrl), privately cached. A tour's original and a source upload: a signed-in member of
 * its company (`Authorization: Bearer`), never cached. Multipart and S3 staging, exports and any other key: never. A
 * refusal is Not found, like a key that names nothing.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@roomwalk/shared';
import { refuse } from './refuse.js';
import { LocalStorage } from '../storage/local-storage.js';
import { keyOfPath, mediaRuleOf, type MediaRule } from '../storage/media-key.js';
import type { Services } from '../services/services.js';
import { resolveAuth } from '../services/resolve-auth.js';
import { accessIndexOf } from '../services/tour-access/access-index.js';
import { verifyMediaSignature } from '../services/tour-access/grants.js';

const PREFIX = '/media/';

const MEDIA_CACHE = {
  /** Keys whose bytes never change: each processing attempt and each chosen thumbnail gets a new key. */
  immutable: 'public, max-age=31536000, immutable',
  /** Other public keys (photos, reels, pictures) may be replaced in place: revalidate with the ETag. */
  revalidate: 'public, max-age=60, must-revalidate',
  /** A protected tour's file with its signature: each browser keeps it, no shared cache does. */
  signed: 'private, max-age=3600',
  /** The original, for a member: kept by nobody. */
  members: 'private, no-store',
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

/**
 * How `rule` may be read by this request: the Cache-Control to answer with and whether any origin may read it, or null
 * when it may not be read.
 */
async function readAs(
  services: Services,
  req: FastifyRequest,
  rule: MediaRule,
): Promise<{ cache: string; anyOrigin: boolean } | null> {
  switch (rule.read) {
    case 'never':
      return null;
    case 'public':
      return { cache: MEDIA_CACHE.revalidate, anyOrigin: true };
    case 'tour': {
      const state = await accessIndexOf(services).get(rule.tourId);
      // No such tour (or deleted): its files name nothing.
      if (!state) return null;
      if (state.access === 'PUBLIC' && !state.gated?.has(rule.key))
        return { cache: rule.immutable ? MEDIA_CACHE.immutable : MEDIA_CACHE.revalidate, anyOrigin: true };
      if (!verifyMediaSignature(services, rule.key, state.version, req.query as Record<string, unknown>)) return null;
      // The signature is the capability: the player on a listing site reads it cross-origin, no shared cache keeps it.
      return { cache: MEDIA_CACHE.signed, anyOrigin: true };
    }
    case 'members': {
      const header = req.headers.authorization;
      const auth = header ? await resolveAuth(services, header) : null;
      if (!auth) return null;
      const owner =
        'tourId' in rule.of
          ? // Only the original the tour names now: one it replaced is gone, or going.
            await services.db
              .selectFrom('tours')
              .select('company_id')
              .where('id', '=', rule.of.tourId)
              .where('photo_source_key', '=', rule.key)
              .where('deleted_at', 'is', null)
              .executeTakeFirst()
          : await services.db.selectFrom('uploads').select('company_id').where('key', '=', rule.key).executeTakeFirst();
      return owner?.company_id === auth.companyId ? { cache: MEDIA_CACHE.members, anyOrigin: false } : null;
    }
  }
}

async function serve(services: Services, req: FastifyRequest, reply: FastifyReply, head: boolean) {
  reply.header('Timing-Allow-Origin', '*');
  // The path as sent (Fastify's wildcard parameter is already decoded once): the key must be its one spelling.
  const url = req.url;
  const q = url.indexOf('?');
  const rawPath = (q === -1 ? url : url.slice(0, q)).slice(PREFIX.length);
  const key = url.startsWith(PREFIX) ? keyOfPath(rawPath) : null;
  const as = key ? await readAs(services, req, mediaRuleOf(key)) : null;
  // A refusal says nothing, so any site may read it (a player tells "gone" from "unreachable").
  if (!as || as.anyOrigin) {
    reply.header('Access-Control-Allow-Origin', '*');
    reply.header('Access-Control-Expose-Headers', 'Content-Length, Content-Range, Accept-Ranges, ETag');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  } else {
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
  }
  if (!key || !as) return notFound(reply);
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
  reply.header('Cache-Control', as.cache);
  reply.header('Content-Type', meta.contentType);
  reply.header('X-Content-Type-Options', 'nosniff');

  const inm = req.headers['if-none-match'];
  if (inm?.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}` || t.trim() === '*')) {
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
