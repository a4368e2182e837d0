/**
 * The public tour answer, cacheable: the player asks `GET /query?query=…&variables=…` (GraphQL over HTTP
 * GET) for its tour without a session. Since a view is a visit (a beacon, not the query), that answer is the same for
 * every visitor until the tour changes, so:
 *
 * - it carries an `ETag` and `Cache-Control: public, no-cache` (a browser or CDN keeps it and revalidates each time)
 * and
 *   a matching `If-None-Match` is answered `304` with no body;
 * - each node keeps the answer in memory (up to PUBLIC_TOUR_CACHE_ENTRIES; 0 turns it off) and serves it without
 *   running GraphQL or touching the database;
 * - any change to what it shows (the tour row, its clips and markers, the owner's profile, user or company) sends a
 *   NOTIFY from the database itself (migration 0085), which reaches every node through the event bus and drops the
 *   copies at once. An answer computed while a change landed is not kept (a per-tour generation counter). While the
 *   node cannot hear those notices (its LISTEN connection lost, events/event-bus.ts `notices`) nothing is kept and
 *   every request is answered from the database; everything kept is dropped when they stop and again when they flow.
 *
 * Only anonymous requests (no Authorization header) whose document asks for `tour(tourID)` and nothing else are cached,
 * and only answers without errors: a password or company-only tour answers an error (services/tour-access/), and a
 * document carrying an access grant (`tour(tourID, access)`) is not of that shape, so no protected answer is kept.
 * Everything else goes to GraphQL as usual.
 *
 * A protected tour (password or company only, by the node's access index) asked that way gets the gate: GraphQL's
 * refusal, which carries the company's branding and nothing of the tour and is the same for every anonymous caller.
 * The first one is made by GraphQL and kept in a second, small memory (by document, tour and access version, dropped
 * with the tour's answers), so a stream of visitors without the password costs no database work and no GraphQL
 * execution: less than an uncached public answer (`bench:api`). No password is checked on that path.
 *
 * A password tour asked with its grant (PLAYER_TOUR_ACCESS_QUERY) is answered from a third memory once the grant
 * verifies (grantedAnswer below), so grant holders cost about what a cached public answer costs.
 *
 * A miss for the player's own document (exactly PLAYER_TOUR_QUERY) is answered without GraphQL execution by
 * services/public-tour-answer.ts (2 round trips, the same loaders; a test holds its bytes equal to GraphQL's), and
 * simultaneous misses of the same answer share one computation (single flight). Anything it cannot answer exactly
 * (errors above all) goes to GraphQL.
 */
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/services.js';
import {
  CAPABILITY_HEADERS,
  PLAYER_TOUR_ACCESS_QUERY,
  PLAYER_TOUR_LINK_QUERY,
  PLAYER_TOUR_QUERY,
} from '@roomwalk/shared/player-documents';
import { playerTourAnswer } from '../services/public-tour-answer.js';
import { accessIndexOf, onAccessChanged } from '../services/tour-access/access-index.js';
import { ERROR_CODES, TOUR_ACCESS } from '@roomwalk/shared';
import { grantedAnswer } from './public-tour-granted.js';
import {
  PublicTourCache,
  cacheHeaders,
  entryOf,
  matches,
  sendEntry,
  tourUuid,
  type Entry,
} from './public-tour-memory.js';

export const PUBLIC_TOUR_CHANGED_TOPIC = 'publicTourChanged';
/** Documents of at most this size are considered (the player's is about 600 characters). */
const MAX_QUERY_CHARS = 4000;
/** Distinct documents remembered as cacheable or not. */
const MAX_SHAPES = 64;
/** Gate refusals of protected tours kept per node (one per tour and document in practice). */
const MAX_REFUSALS = 2000;
/** Password tours' answers kept per node for their grant holders (one per tour and hour in practice). */
const MAX_GRANTED = 2000;

interface Shape {
  /** A short name of the document in cache keys (the document is ~600 characters; keys are kept and hashed often). */
  id: number;
  /** The variable holding the tour id, or the literal id. */
  variable?: string;
  literal?: string;
}
interface Pending {
  key: string;
  tourId: string;
  generation: number;
}

const pendingKey = Symbol('publicTourPending');
const refusalKey = Symbol('publicTourRefusal');
type WithPending = FastifyRequest & { [pendingKey]?: Pending; [refusalKey]?: Pending };

/** Whether a GraphQL answer is exactly the gate of a protected tour (one refusal, no data of the tour). */
function isGateRefusal(payload: string): boolean {
  try {
    const j = JSON.parse(payload) as {
      data?: { tour?: unknown } | null;
      errors?: Array<{ extensions?: { code?: unknown } }>;
    };
    const code = j.errors?.length === 1 ? j.errors[0]?.extensions?.code : undefined;
    return (
      (code === ERROR_CODES.TOUR_PASSWORD_REQUIRED || code === ERROR_CODES.TOUR_MEMBERS_ONLY) &&
      (j.data === null || j.data === undefined || j.data.tour === null || j.data.tour === undefined)
    );
  } catch {
    return false;
  }
}

/** Whether a document is exactly one query operation selecting only `tour(tourID: …)`; memoised per document text. */
let shapeIds = 0;
function shapeOf(query: string, memo: Map<string, Shape | null>): Shape | null {
  const known = memo.get(query);
  if (known !== undefined) return known;
  let shape: Shape | null = null;
  const id = ++shapeIds;
  try {
    const doc = parse(query, { maxTokens: 2000 });
    const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    const op = ops[0];
    const only = op?.selectionSet.selections[0];
    if (
      ops.length === 1 &&
      op &&
      op.operation === 'query' &&
      !op.directives?.length &&
      op.selectionSet.selections.length === 1 &&
      only?.kind === Kind.FIELD &&
      only.name.value === 'tour' &&
      !only.directives?.length
    ) {
      const arg = only.arguments?.length === 1 ? only.arguments[0] : undefined;
      if (arg?.name.value === 'tourID') {
        if (arg.value.kind === Kind.VARIABLE) shape = { id, variable: arg.value.name.value };
        else if (arg.value.kind === Kind.STRING) shape = { id, literal: arg.value.value };
      }
    }
  } catch {
    shape = null; // GraphQL answers the syntax error itself
  }
  if (memo.size >= MAX_SHAPES) memo.delete(memo.keys().next().value!);
  memo.set(query, shape);
  return shape;
}

/** The node's cache of these services (tests). */
export const publicTourCacheOf = (services: Services): PublicTourCache | undefined =>
  services.publicTourCaches?.answers;

/** The node's kept answers of password tours for their grant holders (tests). */
export const publicTourGrantedOf = (services: Services): PublicTourCache | undefined =>
  services.publicTourCaches?.granted;

/** The node's kept gate refusals of these services (tests). */
export const publicTourRefusalsOf = (services: Services): PublicTourCache | undefined =>
  services.publicTourCaches?.refusals;

/** What the hooks share: the three memories (kept answers, gate refusals, grant holders' answers), the shapes. */
interface Memories {
  cache: PublicTourCache;
  refusals: PublicTourCache;
  granted: PublicTourCache;
  shapes: Map<string, Shape | null>;
}

export async function registerPublicTourCache(app: FastifyInstance, services: Services): Promise<PublicTourCache> {
  // Nothing is kept while the node cannot hear the database's notices: it answers from the database until it can.
  const keeping = () => services.events.notices.up;
  const entries = services.config.PUBLIC_TOUR_CACHE_ENTRIES;
  const m: Memories = {
    cache: new PublicTourCache(entries, keeping),
    // The gates of protected tours, dropped with the tour's answers (their branding changes on the same notices).
    refusals: new PublicTourCache(entries > 0 ? MAX_REFUSALS : 0, keeping),
    // Password tours' answers for their grant holders, dropped with the tour's answers too.
    granted: new PublicTourCache(entries > 0 ? MAX_GRANTED : 0, keeping),
    shapes: new Map(),
  };
  services.publicTourCaches = { answers: m.cache, granted: m.granted, refusals: m.refusals };
  followChanges(app, services, (tourId) => {
    m.cache.invalidate(tourId);
    m.refusals.invalidate(tourId);
    m.granted.invalidate(tourId);
  });
  app.addHook('onRequest', (req: WithPending, reply) => answerFromMemory(services, m, req, reply));
  app.addHook('onSend', async (req: WithPending, reply, payload) => keepAnswer(m, req, reply, payload));
  return m.cache;
}

/** Drops a tour's answers (or all: '*') on every change, however it is heard, until the app closes. */
function followChanges(app: FastifyInstance, services: Services, invalidate: (tourId: string) => void): void {
  // Changes, from any node (database triggers → NOTIFY → event bus).
  const stop = new AbortController();
  void (async () => {
    for await (const tourId of services.events.subscribe<string>(PUBLIC_TOUR_CHANGED_TOPIC, stop.signal)) {
      invalidate(typeof tourId === 'string' ? tourId : '*');
    }
  })().catch((err) => services.log.warn({ err }, 'public tour cache: change listener stopped'));
  app.addHook('onClose', async () => stop.abort());
  // Notices lost: every answer goes (a change may be missed from now on); back: again (changes made meanwhile were).
  const unwatch = services.events.notices.onChange(() => invalidate('*'));
  app.addHook('onClose', async () => unwatch());
  // A tour made protected on this node: its answers go before the mutation answers, not when the notice arrives.
  const unlisten = onAccessChanged(services, invalidate);
  app.addHook('onClose', async () => unlisten());
}

/**
 * onRequest: answers an anonymous GET of a tour from memory when it can (a kept answer, a kept gate, the player's
 * document computed once), else marks what GraphQL's answer may be kept as.
 */
async function answerFromMemory(services: Services, m: Memories, req: WithPending, reply: FastifyReply) {
  if (req.method !== 'GET' || !req.url.startsWith('/query?') || req.headers.authorization) return;
  const q = req.query as Record<string, unknown>;
  const query = q.query;
  if (typeof query !== 'string' || query.length > MAX_QUERY_CHARS) return;
  if (query === PLAYER_TOUR_ACCESS_QUERY || query === PLAYER_TOUR_LINK_QUERY)
    return grantedAnswer(services, req, reply, query === PLAYER_TOUR_LINK_QUERY, m.granted);
  // Any other document sent with capabilities in its headers may be answered for them: GraphQL answers, nothing kept.
  if (req.headers[CAPABILITY_HEADERS.access] !== undefined || req.headers[CAPABILITY_HEADERS.link] !== undefined) {
    reply.header('Cache-Control', 'private, no-store');
    return;
  }
  const asked = tourAsked(q, query, m.shapes);
  if (!asked) return;
  // The player's public query from a listing site's page: readable from any origin, errors included (an embed must
  // read TOUR_REMOVED or NOT_FOUND to say so). No credentials are involved (no Authorization header, no cookie read).
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
  const { globalId, variables, shape } = asked;
  const tourId = typeof globalId === 'string' ? tourUuid(globalId) : null;
  if (!tourId) return;
  const key = `${shape.id}\u0000${variables}\u0000${typeof q.operationName === 'string' ? q.operationName : ''}`;
  const hit = m.cache.get(key);
  if (hit) return sendEntry(req, reply, hit);
  // A protected tour: its gate, kept once GraphQL made it (no grant can come in this document).
  const state = await accessIndexOf(services).get(tourId);
  if (state && state.access !== TOUR_ACCESS.public) {
    const refusalAt = `${key}\u0000${state.version}`;
    const known = m.refusals.get(refusalAt);
    if (known) return reply.code(200).type('application/json; charset=utf-8').send(known.body);
    req[refusalKey] = { key: refusalAt, tourId, generation: m.refusals.generation(tourId) };
    return;
  }
  const generation = m.cache.generation(tourId);
  const operationName = q.operationName;
  if (
    query === PLAYER_TOUR_QUERY &&
    (operationName === undefined || operationName === '' || operationName === 'PlayerTour') &&
    typeof globalId === 'string'
  ) {
    const entry = await playerAnswerOnce(services, m.cache, `${generation}\u0000${key}`, tourId, globalId);
    if (entry !== null) {
      m.cache.set(key, entry, generation);
      return sendEntry(req, reply, entry);
    }
  }
  req[pendingKey] = { key, tourId, generation };
}

/** The tour a cacheable document asks for (its literal id or its variable's value) and the variables' text. */
function tourAsked(
  q: Record<string, unknown>,
  query: string,
  shapes: Map<string, Shape | null>,
): { globalId: unknown; variables: string; shape: Shape } | null {
  const shape = shapeOf(query, shapes);
  if (!shape) return null;
  const variables = typeof q.variables === 'string' ? q.variables : '';
  let globalId: unknown = shape.literal;
  if (shape.variable) {
    try {
      globalId = (JSON.parse(variables || '{}') as Record<string, unknown>)?.[shape.variable];
    } catch {
      return null;
    }
  }
  return { globalId, variables, shape };
}

/** The player's document, computed without GraphQL once for everyone asking at the same moment (single flight). */
async function playerAnswerOnce(
  services: Services,
  cache: PublicTourCache,
  flight: string,
  tourId: string,
  globalId: string,
): Promise<Entry | null> {
  let answer = cache.inFlight.get(flight);
  if (!answer) {
    cache.computations++;
    answer = playerTourAnswer(services, globalId)
      .then((made) => (made === null ? null : entryOf(tourId, made.text)))
      .finally(() => cache.inFlight.delete(flight));
    cache.inFlight.set(flight, answer);
  }
  cache.waiting++;
  return answer.finally(() => cache.waiting--);
}

/** onSend: keeps the gate GraphQL answered, or the answer marked on the way in, unless it carries errors. */
function keepAnswer(m: Memories, req: WithPending, reply: FastifyReply, payload: unknown) {
  // GraphQL answers a refusal of execution (the gate) with 200 and the error in the body; only that is kept.
  const refused = req[refusalKey];
  if (refused && reply.statusCode === 200 && typeof payload === 'string' && isGateRefusal(payload))
    m.refusals.set(refused.key, entryOf(refused.tourId, payload), refused.generation);
  const pending = req[pendingKey];
  if (!pending || reply.statusCode !== 200 || typeof payload !== 'string' || payload.includes('"errors"'))
    return payload;
  const entry = entryOf(pending.tourId, payload);
  m.cache.set(pending.key, entry, pending.generation);
  cacheHeaders(reply, entry.etag);
  if (matches(req.headers['if-none-match'], entry.etag)) {
    reply.code(304);
    return '';
  }
  return entry.body;
}
