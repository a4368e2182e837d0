/**
 * Each node's memory of tours' access, for the media route (which must not ask the database for every byte range of
 * every clip): tour id → { access, version, the files past its lead gate }. Entries go when the tour changes — the
 * database's own notice (migration 0085's trigger, topic 'publicTourChanged', the one the public tour cache listens to)
 * from any node, and at once on this node through `accessChanged` — and after a minute whatever happens. While the
 * node cannot hear those notices (events/event-bus.ts `notices`) every entry goes and each read is the database's.
 */
import type { TourAccess } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { gatedKeys } from '../lead-gate/gate-clips.js';

/** The topic migration 0085's trigger raises for a changed tour (payload: its id, or '*'). */
const PUBLIC_TOUR_CHANGED = 'publicTourChanged';
const ENTRY_MS = 60_000;
const MAX_ENTRIES = 10_000;

export interface TourAccessState {
  access: TourAccess;
  version: number;
  /** Files of the clips past the tour's lead gate (services/lead-gate/): served only signed, even on a public tour. */
  gated: ReadonlySet<string> | null;
}

interface Entry {
  state: TourAccessState | null;
  at: number;
}

export class AccessIndex {
  readonly #entries = new Map<string, Entry | Promise<TourAccessState | null>>();
  readonly #listeners = new Set<(tourId: string) => void>();

  constructor(private readonly services: Services) {
    services.events.on<string>(PUBLIC_TOUR_CHANGED, (tourId) => this.drop(typeof tourId === 'string' ? tourId : '*'));
    services.events.notices.onChange(() => this.drop('*'));
  }

  /**
   * The tour's access when this node knows it now (undefined: not known, or being read). Lets the hot paths (a clip's
   * two URLs, for each of a tour's clips) answer without a promise each.
   */
  known(tourId: string): TourAccessState | null | undefined {
    const known = this.#entries.get(tourId);
    return known && !(known instanceof Promise) && Date.now() - known.at < ENTRY_MS ? known.state : undefined;
  }

  /** The tour's access (null: no such tour, or deleted). */
  async get(tourId: string): Promise<TourAccessState | null> {
    const reading = this.#entries.get(tourId);
    if (reading instanceof Promise) return reading;
    const known = this.known(tourId);
    if (known !== undefined) return known;
    const read = this.services.db
      .selectFrom('tours')
      .select(['access', 'access_version', 'deleted_at', 'lead_gate_marker_id'])
      .where('id', '=', tourId)
      .executeTakeFirst()
      .then(async (r) =>
        r && !r.deleted_at
          ? {
              access: r.access,
              version: r.access_version,
              gated: r.lead_gate_marker_id ? await gatedKeys(this.services, tourId) : null,
            }
          : null,
      );
    this.#entries.set(tourId, read);
    try {
      const state = await read;
      // A change that landed while reading dropped the promise: keep nothing then.
      if (this.#entries.get(tourId) === read && !this.services.events.notices.up) this.#entries.delete(tourId);
      else if (this.#entries.get(tourId) === read) {
        if (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
        this.#entries.set(tourId, { state, at: Date.now() });
      }
      return state;
    } catch (e) {
      if (this.#entries.get(tourId) === read) this.#entries.delete(tourId);
      throw e;
    }
  }

  drop(tourId: string): void {
    if (tourId === '*') this.#entries.clear();
    else this.#entries.delete(tourId);
  }

  /** Called on this node right after a change of access commits (before any notice arrives). */
  changed(tourId: string): void {
    this.drop(tourId);
    for (const fn of this.#listeners) fn(tourId);
  }

  listen(fn: (tourId: string) => void): () => void {
    this.#listeners.add(fn);
    return () => this.#listeners.delete(fn);
  }
}

/** This node's access index (`services.accessIndex`, made on first use: it starts listening to access changes). */
export function accessIndexOf(services: Services): AccessIndex {
  services.accessIndex ??= new AccessIndex(services);
  return services.accessIndex;
}

/**
 * Runs `fn` on this node whenever a tour's access changes here, at once after the commit (the public tour cache drops
 * the tour's answers: no cached answer of a tour made protected is served while the database's notice travels).
 */
export function onAccessChanged(services: Services, fn: (tourId: string) => void): () => void {
  return accessIndexOf(services).listen(fn);
}
