/**
 * Public tour views, counted in memory and written in one UPDATE per tour per interval (1 s) instead of one UPDATE
 * per view: every view of a tour otherwise takes the same row lock and a WAL flush, which caps a popular tour at a few
 * hundred views a second. Reads on this node add the counts not yet written, so a node's answers never go backwards;
 * other nodes see them after the next write. Flushed on shutdown (app.stop()); a node that crashes loses at most the
 * last interval's counts.
 */
import { sql, type Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, TourRow } from '../db/types.js';
import type { Services } from './services.js';

interface Counts {
  views: number;
  deactivated: number;
}

const FLUSH_INTERVAL_MS = 1000;

export class ViewCounter {
  #pending = new Map<string, Counts>();
  #writing = new Map<string, Counts>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Counts one view of a tour (on a deactivated tour, apart). */
  add(tourId: string, deactivated: boolean): void {
    const c = this.#pending.get(tourId) ?? { views: 0, deactivated: 0 };
    if (deactivated) c.deactivated++;
    else c.views++;
    this.#pending.set(tourId, c);
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
  }

  /** The row with this node's counts not yet written added. */
  withPending(tour: TourRow): TourRow {
    const p = this.#pending.get(tour.id);
    const w = this.#writing.get(tour.id);
    if (!p && !w) return tour;
    return {
      ...tour,
      views: tour.views + (p?.views ?? 0) + (w?.views ?? 0),
      deactivated_views: tour.deactivated_views + (p?.deactivated ?? 0) + (w?.deactivated ?? 0),
    };
  }

  /** Writes the counts so far in one statement. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.then(() => this.#write());
    return this.#flushing;
  }

  async #write(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    this.#writing = this.#pending;
    this.#pending = new Map();
    const rows = [...this.#writing].map(([id, c]) => sql`(${id}::uuid, ${c.views}::int, ${c.deactivated}::int)`);
    try {
      await sql`UPDATE tours SET views = tours.views + v.views, deactivated_views = tours.deactivated_views + v.deactivated
        FROM (VALUES ${sql.join(rows)}) AS v(id, views, deactivated) WHERE tours.id = v.id`.execute(this.db);
    } catch (err) {
      // Keep the counts for the next attempt rather than lose them.
      this.log.warn({ err }, 'could not write tour views; retrying');
      for (const [id, c] of this.#writing) {
        const p = this.#pending.get(id) ?? { views: 0, deactivated: 0 };
        this.#pending.set(id, { views: p.views + c.views, deactivated: p.deactivated + c.deactivated });
      }
      this.#timer ??= setTimeout(() => void this.flush(), FLUSH_INTERVAL_MS).unref();
    } finally {
      this.#writing = new Map();
    }
  }
}

/** The node's counter (`services.viewCounter`). */
export const viewCounter = (services: Services): ViewCounter => services.viewCounter;

/** Writes what is pending (on shutdown). */
export async function flushViews(services: Services): Promise<void> {
  await services.viewCounter.flush();
}
