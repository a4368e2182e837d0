/**
 * Cross-origin access (@fastify/cors, one per-request policy). A listing site's page on any origin runs the
 * `<tour-player>` element, which calls the public player operations on this server: the public tour query, the view
 * beacon (`tourViewRecord`, and POST /tour-visit), lead creation (`tourLeadCreate`, which also opens the visitor's
 * viewing session). Those answer any origin with `Access-Control-Allow-Origin: *` and never with credentials.
 *
 * Everything else stays same-origin: a GraphQL request whose root fields are not all public player operations gets no
 * CORS headers, so a foreign page cannot read its answer. Tokens travel in the Authorization header only (the server
 * reads no cookie for /query), and the preflight allows `content-type` and `accept` but not `authorization`: a browser
 * refuses to send a token cross-origin at all, and a cross-origin request that carries one anyway (a simple request
 * cannot) gets no CORS headers. The console is served from this origin and needs none of this.
 *
 * The upload URL (/upload/*) and media (/media/*) keep their own CORS answers (upload.ts, media.ts): this policy
 * leaves those paths alone.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Kind, parse, type DocumentNode, type SelectionSetNode } from 'graphql';
import { CAPABILITY_HEADERS } from '@roomwalk/shared/player-documents';

/** Root fields a page on any origin may call (with no token): what the embedded player needs. */
const PUBLIC_PLAYER_FIELDS: ReadonlySet<string> = new Set([
  'tour',
  'tourUnlock',
  'tourViewRecord',
  'tourLeadCreate',
  '__typename',
]);

/** Paths (besides POST /query with a public document) that answer any origin. */
const PUBLIC_PATHS = new Set<string>(['/tour-visit']);

type Policy = Omit<FastifyCorsOptions, 'delegator'>;

/** Any origin, no credentials, no Authorization header. */
const PUBLIC_POLICY: Policy = {
  origin: '*',
  credentials: false,
  methods: ['POST'],
  // The player's capabilities travel in headers (CAPABILITY_HEADERS), never in a URL a log keeps.
  allowedHeaders: ['content-type', 'accept', CAPABILITY_HEADERS.access, CAPABILITY_HEADERS.link],
  maxAge: 600,
  strictPreflight: true,
};

const NO_CORS: Policy = { origin: false };

/** A player document is small; anything we cannot read cheaply is not treated as public. */
const MAX_TOKENS = 2000;

function rootFieldsPublic(set: SelectionSetNode, fragments: Map<string, SelectionSetNode>, seen: Set<string>): boolean {
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      if (!PUBLIC_PLAYER_FIELDS.has(s.name.value)) return false;
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      if (!rootFieldsPublic(s.selectionSet, fragments, seen)) return false;
    } else {
      const name = s.name.value;
      if (seen.has(name)) continue;
      seen.add(name);
      const f = fragments.get(name);
      if (!f || !rootFieldsPublic(f, fragments, seen)) return false;
    }
  }
  return true;
}

/** True when every operation of the GraphQL request body is a query or mutation of public player fields only. */
function isPublicPlayerRequest(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
  const query = (body as { query?: unknown }).query;
  if (typeof query !== 'string' || query.length > 20_000) return false;
  let doc: DocumentNode;
  try {
    doc = parse(query, { maxTokens: MAX_TOKENS, noLocation: true });
  } catch {
    return false;
  }
  const fragments = new Map<string, SelectionSetNode>();
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d.selectionSet);
  let operations = 0;
  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    operations++;
    if (d.operation === 'subscription') return false;
    if (!rootFieldsPublic(d.selectionSet, fragments, new Set())) return false;
  }
  return operations > 0;
}

/** The policy of one request (runs in preHandler, after the body is parsed; a preflight has no body). */
function corsPolicyFor(req: FastifyRequest): Policy {
  const path = req.url.split('?', 1)[0];
  if (path === '/query') {
    if (req.method === 'OPTIONS') return PUBLIC_POLICY;
    if (req.method !== 'POST' || req.headers.authorization || req.headers.cookie) return NO_CORS;
    return isPublicPlayerRequest(req.body) ? PUBLIC_POLICY : NO_CORS;
  }
  if (path && PUBLIC_PATHS.has(path) && (req.method === 'POST' || req.method === 'OPTIONS')) return PUBLIC_POLICY;
  return NO_CORS;
}

export async function registerCors(app: FastifyInstance): Promise<void> {
  // A beacon (navigator.sendBeacon, fetch no-cors) from a listing page reads no answer, but Chromium still refuses
  // one marked same-origin (helmet's default Cross-Origin-Resource-Policy): the public paths are cross-origin
  // resources.
  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?', 1)[0];
    if (path && PUBLIC_PATHS.has(path)) reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  await app.register(cors, {
    // preHandler: the GraphQL body is parsed by then, and a preflight is answered before any handler runs.
    hook: 'preHandler',
    delegator: (req, cb) => cb(null, corsPolicyFor(req)),
  });
}
