/**
 * The memory of public tour answers a node keeps (http/public-tour-cache.ts says what is kept and when it goes): the
 * answers by key, dropped by tour or all at once, with a generation per tour so an answer computed while a change
 * landed is not kept; each answer's ETag, and the headers and 304 that go with it.
 */
import { hash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

const PUBLIC_TOUR_CACHE_CONTROL = 'public, no-cache';

export interface Entry {
  tourId: string;
  /** The answer, encoded once (UTF-8): hashed for the ETag and sent as is, off the JavaScript heap while it waits. */
  body: Buffer;
  etag: string;
  /** A password tour's answer: the access version it was made at, which a grant must name to be served it. */
  accessVersion?: number;
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

export const entryOf = (tourId: string, text: string): Entry => {
  const body = Buffer.from(text);
  // One-shot SHA-1 of the encoded answer (no Hash object, no second encoding of the text).
  return { tourId, body, etag: `"${hash('sha1', body, 'base64url')}"` };
};

export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

export function cacheHeaders(reply: FastifyReply, etag: string): void {
  reply.header('ETag', etag).header('Cache-Control', PUBLIC_TOUR_CACHE_CONTROL);
  // Public data, asked without credentials: any page may read it (the player embedded on a listing site).
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('Access-Control-Allow-Origin', '*');
}

/** The tour id a tour global id names (`tour_<uuid>`, any case), or null. */
export const tourUuid = (globalId: string): string | null => {
  const m = /^tour_([0-9a-f-]{36})$/i.exec(globalId);
  return m ? m[1]!.toLowerCase() : null;
};

/** A kept answer, with its ETag: 304 when the caller holds it already. */
export function sendEntry(req: FastifyRequest, reply: FastifyReply, entry: Entry) {
  cacheHeaders(reply, entry.etag);
  if (matches(req.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return reply.code(200).type('application/json; charset=utf-8').send(entry.body);
}
