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
import { hash } from 'node:crypto';
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
import { mediaExpiry, verifyGrant } from '../services/tour-access/grants.js';
import { capabilitiesOf } from './capabilities.js';
import { accessIndexOf, onAccessChanged } from '../services/tour-access/access-index.js';
import { ERROR_CODES, TOUR_ACCESS } from '@roomwalk/shared';

export const PUBLIC_TOUR_CHANGED_TOPIC = 'publicTourChanged';
export const PUBLIC_TOUR_CACHE_CONTROL = 'public, no-cache';
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
interface Entry {
  tourId: string;
  /** The answer, encoded once (UTF-8): hashed for the ETag and sent as is, off the JavaScript heap while it waits. */
  body: Buffer;
  etag: string;
  /** A password tour's answer: the access version it was made at, which a grant must name to be served it. */
  accessVersion?: number;
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

/** The node's cache of public tour answers. */
export class PublicTourCache {
  #entries = new Map<string, Entry>();
  #byTour = new Map<string, Set<string>>();
  #generation = new Map<string, number>();
  #all = 0;
  /** Answers being computed without GraphQL, by key and generation: simultaneous misses wait for the same one. */
  readonly inFlight = new Map<string, Promise<Entry | null>>();
  /** How many answers were computed without GraphQL (tests: N simultaneous misses make 1). */
  computations = 0;
  /** Requests waiting for such an answer right now (tests). */
  waiting = 0;

  /** `keeping`: whether answers may be kept now (not while this node cannot hear the database's notices). */
  constructor(
    readonly maxEntries: number,
    private readonly keeping: () => boolean = () => true,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  generation(tourId: string): number {
    return this.#all * 1e9 + (this.#generation.get(tourId) ?? 0);
  }

  get(key: string): Entry | undefined {
    const e = this.#entries.get(key);
    if (e) {
      // Least recently used goes first.
      this.#entries.delete(key);
      this.#entries.set(key, e);
    }
    return e;
  }

  set(key: string, entry: Entry, generation: number): void {
    if (this.maxEntries <= 0 || generation !== this.generation(entry.tourId) || !this.keeping()) return;
    while (this.#entries.size >= this.maxEntries) this.#drop(this.#entries.keys().next().value!);
    this.#entries.set(key, entry);
    let keys = this.#byTour.get(entry.tourId);
    if (!keys) {
      keys = new Set();
      this.#byTour.set(entry.tourId, keys);
    }
    keys.add(key);
  }

  /** Drops one tour's answers ('*': every answer). */
  invalidate(tourId: string): void {
    if (tourId === '*') {
      this.#all++;
      this.#generation.clear();
      this.#entries.clear();
      this.#byTour.clear();
      return;
    }
    this.#generation.set(tourId, (this.#generation.get(tourId) ?? 0) + 1);
    for (const key of this.#byTour.get(tourId) ?? []) this.#entries.delete(key);
    this.#byTour.delete(tourId);
  }

  #drop(key: string): void {
    const e = this.#entries.get(key);
    this.#entries.delete(key);
    if (e) this.#byTour.get(e.tourId)?.delete(key);
  }
}

const entryOf = (tourId: string, text: string): Entry => {
  const body = Buffer.from(text);
  // One-shot SHA-1 of the encoded answer (no Hash object, no second encoding of the text).
  return { tourId, body, etag: `"${hash('sha1', body, 'base64url')}"` };
};

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

function cacheHeaders(reply: FastifyReply, etag: string): void {
  reply.header('ETag', etag).header('Cache-Control', PUBLIC_TOUR_CACHE_CONTROL);
  // Public data, asked without credentials: any page may read it (the player embedded on a listing site).
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
}

/** The tour id a tour global id names (`tour_<uuid>`, any case), or null. */
const tourUuid = (globalId: string): string | null => {
  const m = /^tour_([0-9a-f-]{36})$/i.exec(globalId);
  return m ? m[1]!.toLowerCase() : null;
};

/**
 * A password tour asked with its grant (PLAYER_TOUR_ACCESS_QUERY over GET), or a tour through an audience link
 * (PLAYER_TOUR_LINK_QUERY, with a grant when the tour asks for one), the grant and the link's token in the request's
 * headers (http/capabilities.ts; still taken as variables from other clients): the same one-statement answer as a miss, its
 * files signed while the tour is protected, readable from any origin, and kept by no browser or CDN (`private,
 * no-store`). Anything it cannot answer (no or a stale grant: the gate; a link that no longer opens: its message;
 * errors) goes to GraphQL.
 *
 * The password tour's answer is the same for every holder of a live grant: its files are signed by access version and
 * an expiry that changes once an hour (grants.ts mediaExpiry). So the node keeps it in `granted`, by the tour id as
 * asked and that hour, with the access version it was made at, and serves it to a grant that verifies against that
 * version (an HMAC; no database work). The grant is checked on every request, before the answer is touched; a changed
 * password or access changes the version and drops the tour's answers (the same notices as the public answers), and an
 * answer computed while a change landed is not kept. A link's answer is never kept: whether the link still opens (its
 * expiry, its revocation) is read each time.
 */
async function grantedAnswer(
  services: Services,
  req: FastifyRequest,
  reply: FastifyReply,
  byLink: boolean,
  granted: PublicTourCache,
): Promise<FastifyReply | undefined> {
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
  const q = req.query as Record<string, unknown>;
  if (
    q.operationName !== undefined &&
    q.operationName !== '' &&
    q.operationName !== (byLink ? 'PlayerTourWithLink' : 'PlayerTourWithAccess')
  )
    return;
  let variables: Record<string, unknown>;
  try {
    variables = JSON.parse(typeof q.variables === 'string' ? q.variables : '{}') as Record<string, unknown>;
  } catch {
    return;
  }
  // The player sends its grant and the link's token in headers (CAPABILITY_HEADERS), never in this URL.
  const sent = capabilitiesOf(req.headers);
  const { tourID } = variables ?? {};
  const access = variables?.access ?? sent.access;
  const link = variables?.link ?? sent.link;
  // An answer made for a capability is kept by no browser or proxy, whoever answers it (here or GraphQL).
  if (sent.access || sent.link) reply.header('Cache-Control', 'private, no-store');
  if (typeof tourID !== 'string') return;
  if (
    byLink
      ? typeof link !== 'string' || (access !== undefined && access !== null && typeof access !== 'string')
      : typeof access !== 'string'
  )
    return;
  const grant = typeof access === 'string' ? access : undefined;
  const send = (body: string | Buffer) =>
    reply.code(200).header('Cache-Control', 'private, no-store').type('application/json; charset=utf-8').send(body);
  const tourId = tourUuid(tourID);
  if (byLink || !tourId || grant === undefined) {
    const answer = await playerTourAnswer(services, tourID, new Date(), grant, byLink ? (link as string) : undefined);
    return answer === null ? undefined : send(answer.text);
  }
  const key = `${tourID}\u0000${mediaExpiry()}`;
  const hit = granted.get(key);
  if (hit?.accessVersion !== undefined && verifyGrant(services, tourId, hit.accessVersion, grant))
    return send(hit.body);
  const generation = granted.generation(tourId);
  const answer = await playerTourAnswer(services, tourID, new Date(), grant);
  if (answer === null) return;
  const entry: Entry = { ...entryOf(tourId, answer.text), accessVersion: answer.accessVersion };
  granted.set(key, entry, generation);
  return send(entry.body);
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

export async function registerPublicTourCache(app: FastifyInstance, services: Services): Promise<PublicTourCache> {
  // Nothing is kept while the node cannot hear the database's notices: it answers from the database until it can.
  const notices = services.events.notices;
  const keeping = () => notices.up;
  const cache = new PublicTourCache(services.config.PUBLIC_TOUR_CACHE_ENTRIES, keeping);
  // The gates of protected tours, dropped with the tour's answers (their branding changes on the same notices).
  const refusals = new PublicTourCache(services.config.PUBLIC_TOUR_CACHE_ENTRIES > 0 ? MAX_REFUSALS : 0, keeping);
  // Password tours' answers for their grant holders, dropped with the tour's answers too.
  const granted = new PublicTourCache(services.config.PUBLIC_TOUR_CACHE_ENTRIES > 0 ? MAX_GRANTED : 0, keeping);
  services.publicTourCaches = { answers: cache, granted, refusals };
  const invalidate = (tourId: string) => {
    cache.invalidate(tourId);
    refusals.invalidate(tourId);
    granted.invalidate(tourId);
  };
  const shapes = new Map<string, Shape | null>();

  // Changes, from any node (database triggers → NOTIFY → event bus).
  const stop = new AbortController();
  void (async () => {
    for await (const tourId of services.events.subscribe<string>(PUBLIC_TOUR_CHANGED_TOPIC, stop.signal)) {
      invalidate(typeof tourId === 'string' ? tourId : '*');
    }
  })().catch((err) => services.log.warn({ err }, 'public tour cache: change listener stopped'));
  app.addHook('onClose', async () => stop.abort());
  // Notices lost: every answer goes (a change may be missed from now on); back: again (changes made meanwhile were).
  const unwatch = notices.onChange(() => invalidate('*'));
  app.addHook('onClose', async () => unwatch());
  // A tour made protected on this node: its answers go before the mutation answers, not when the notice arrives.
  const unlisten = onAccessChanged(services, invalidate);
  app.addHook('onClose', async () => unlisten());

  app.addHook('onRequest', async (req: WithPending, reply) => {
    if (req.method !== 'GET' || !req.url.startsWith('/query?') || req.headers.authorization) return;
    const q = req.query as Record<string, unknown>;
    const query = q.query;
    if (typeof query !== 'string' || query.length > MAX_QUERY_CHARS) return;
    if (query === PLAYER_TOUR_ACCESS_QUERY || query === PLAYER_TOUR_LINK_QUERY)
      return grantedAnswer(services, req, reply, query === PLAYER_TOUR_LINK_QUERY, granted);
    // Any other document sent with capabilities in its headers may be answered for them: GraphQL answers, nothing kept.
    if (req.headers[CAPABILITY_HEADERS.access] !== undefined || req.headers[CAPABILITY_HEADERS.link] !== undefined) {
      reply.header('Cache-Control', 'private, no-store');
      return;
    }
    const shape = shapeOf(query, shapes);
    if (!shape) return;
    const variables = typeof q.variables === 'string' ? q.variables : '';
    let globalId: unknown = shape.literal;
    if (shape.variable) {
      try {
        globalId = (JSON.parse(variables || '{}') as Record<string, unknown>)?.[shape.variable];
      } catch {
        return;
      }
    }
    // The player's public query from a listing site's page: readable from any origin, errors included (an embed must
    // read TOUR_REMOVED or NOT_FOUND to say so). No credentials are involved (no Authorization header, no cookie read).
    if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
    const tourId = typeof globalId === 'string' ? tourUuid(globalId) : null;
    if (!tourId) return;
    const key = `${shape.id}\u0000${variables}\u0000${typeof q.operationName === 'string' ? q.operationName : ''}`;
    const hit = cache.get(key);
    if (hit) {
      cacheHeaders(reply, hit.etag);
      if (matches(req.headers['if-none-match'], hit.etag)) return reply.code(304).send();
      return reply.code(200).type('application/json; charset=utf-8').send(hit.body);
    }
    // A protected tour: its gate, kept once GraphQL made it (no grant can come in this document).
    const state = await accessIndexOf(services).get(tourId);
    if (state && state.access !== TOUR_ACCESS.public) {
      const refusalAt = `${key}\u0000${state.version}`;
      const known = refusals.get(refusalAt);
      if (known) return reply.code(200).type('application/json; charset=utf-8').send(known.body);
      req[refusalKey] = { key: refusalAt, tourId, generation: refusals.generation(tourId) };
      return;
    }
    const generation = cache.generation(tourId);
    const operationName = q.operationName;
    if (
      query === PLAYER_TOUR_QUERY &&
      (operationName === undefined || operationName === '' || operationName === 'PlayerTour') &&
      typeof globalId === 'string'
    ) {
      // The player's document: computed once for everyone asking at the same moment, without GraphQL execution.
      const flight = `${generation}\u0000${key}`;
      let answer = cache.inFlight.get(flight);
      if (!answer) {
        cache.computations++;
        answer = playerTourAnswer(services, globalId)
          .then((made) => (made === null ? null : entryOf(tourId, made.text)))
          .finally(() => cache.inFlight.delete(flight));
        cache.inFlight.set(flight, answer);
      }
      cache.waiting++;
      const entry = await answer.finally(() => cache.waiting--);
      if (entry !== null) {
        cache.set(key, entry, generation);
        cacheHeaders(reply, entry.etag);
        if (matches(req.headers['if-none-match'], entry.etag)) return reply.code(304).send();
        return reply.code(200).type('application/json; charset=utf-8').send(entry.body);
      }
    }
    req[pendingKey] = { key, tourId, generation };
  });

  app.addHook('onSend', async (req: WithPending, reply, payload) => {
    // GraphQL answers a refusal of execution (the gate) with 200 and the error in the body; only that is kept.
    const refused = req[refusalKey];
    if (refused && reply.statusCode === 200 && typeof payload === 'string' && isGateRefusal(payload))
      refusals.set(refused.key, entryOf(refused.tourId, payload), refused.generation);
    const pending = req[pendingKey];
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string' || payload.includes('"errors"'))
      return payload;
    const entry = entryOf(pending.tourId, payload);
    cache.set(pending.key, entry, pending.generation);
    cacheHeaders(reply, entry.etag);
    if (matches(req.headers['if-none-match'], entry.etag)) {
      reply.code(304);
      return '';
    }
    return entry.body;
  });
  return cache;
}
