/**
 * Helpers of the billing, reports and analytics tests: tours straight into the database, licence reads, waiting on
 * jobs.
 */
import { vi } from 'vitest';
import type { App } from '../src/app.js';
import { getLicense } from '../src/services/licenses.js';
import type { LicenseRow } from '../src/db/types.js';

let seq = 0;

/** Inserts tours for an owner, oldest first, one minute apart (created_at decides which are "newest"). */
export async function insertTours(
  app: App,
  owner: { companyId: string; userId: string },
  n: number,
  /** rooms: marker names each tour gets (a visit's rooms must be its markers). */
  opts: {
    status?: string;
    start?: Date;
    views?: (i: number) => number;
    title?: (i: number) => string;
    rooms?: readonly string[];
  } = {},
): Promise<string[]> {
  const start = opts.start ?? new Date(Date.now() - 24 * 60 * 60 * 1000);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = await app.services.db
      .insertInto('tours')
      .values({
        company_id: owner.companyId,
        owner_id: owner.userId,
        title: opts.title?.(i) ?? `Tour ${++seq}`,
        status: opts.status ?? 'PROCESSED',
        views: opts.views?.(i) ?? 0,
        description: null,
        listing_link: null,
        video_key: null,
        thumbnail_key: null,
        intro_logo_key: null,
        progress_text: null,
        video_info: null,
        fps: null,
        created_at: new Date(start.getTime() + i * 60_000),
        updated_at: new Date(start.getTime() + i * 60_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
    if (opts.rooms?.length)
      await app.services.db
        .insertInto('markers')
        .values(
          opts.rooms.map((name, j) => ({ tour_id: row.id, name, frame_index: 10 + j * 10, created_at: new Date() })),
        )
        .execute();
  }
  return ids;
}

export async function license(app: App, companyId: string): Promise<LicenseRow> {
  const l = await getLicense(app.services.db, companyId);
  if (!l) throw new Error('no licence');
  return l;
}

/** Tour ids of the company that are switched off (deactivated_at set), oldest first. */
export async function deactivatedTours(app: App, companyId: string): Promise<string[]> {
  const rows = await app.services.db
    .selectFrom('tours')
    .select('id')
    .where('company_id', '=', companyId)
    .where('deactivated_at', 'is not', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.id);
}

/** Waits until every recorded billing event has been processed by the worker (polls the table; no fixed sleeps). */
export async function billingSettled(app: App, timeout = 20_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const r = await app.services.db
        .selectFrom('billing_events')
        .select('id')
        .where('processed_at', 'is', null)
        .execute();
      if (r.length > 0) throw new Error(`${r.length} billing events waiting`);
    },
    { timeout, interval: 50 },
  );
}

/** A form POST as a browser sends it; redirects are not followed so tests can read them. */
export function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
