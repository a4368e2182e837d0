/** What the tour types read (Tour, Clip, Marker, the agent card, the owner's list) for the GraphQL adapter. */
import { sql } from 'kysely';
import type { ClipRow, MarkerRow, TourRow } from '../db/types.js';
import { cursorRow, type PageRequest } from './account-reads.js';
import type { Services } from './services.js';

/** A tour by id; `live` leaves deleted tours out. */
export function tourById(services: Services, id: string, opts: { live?: boolean } = {}): Promise<TourRow | undefined> {
  let q = services.db.selectFrom('tours').selectAll().where('id', '=', id);
  if (opts.live) q = q.where('deleted_at', 'is', null);
  return q.executeTakeFirst();
}

/** The company owning a tour (undefined when there is none; `live` leaves deleted tours out). */
export async function tourCompanyId(
  services: Services,
  id: string,
  opts: { live?: boolean } = {},
): Promise<string | undefined> {
  let q = services.db.selectFrom('tours').select(['company_id']).where('id', '=', id);
  if (opts.live) q = q.where('deleted_at', 'is', null);
  return (await q.executeTakeFirst())?.company_id;
}

/** The clips of several tours with one statement (a document asking for a tour's clips under several aliases). */
export async function clipsOfTours(services: Services, tourIds: readonly string[]): Promise<Map<string, ClipRow[]>> {
  const ids = [...new Set(tourIds)];
  const rows = await services.db
    .selectFrom('clips')
    .selectAll()
    .where('tour_id', 'in', ids)
    .orderBy('tour_id')
    .orderBy('index')
    .execute();
  const byTour = new Map<string, ClipRow[]>(ids.map((id) => [id, []]));
  for (const r of rows) byTour.get(r.tour_id)?.push(r);
  return byTour;
}

/** Indices of the clips in which faces were blurred, in order. */
export async function blurredClipIndexes(services: Services, tourId: string): Promise<number[]> {
  const rows = await services.db
    .selectFrom('clips')
    .select('index')
    .where('tour_id', '=', tourId)
    .where('blurred_frames', '>', 0)
    .orderBy('index')
    .execute();
  return rows.map((c) => c.index);
}

export function tourMarkers(services: Services, tourId: string): Promise<MarkerRow[]> {
  return services.db
    .selectFrom('markers')
    .selectAll()
    .where('tour_id', '=', tourId)
    .orderBy('frame_index')
    .orderBy('created_at')
    .execute();
}

export function tourLogs(services: Services, tourId: string): Promise<Array<{ status: string; error: string | null }>> {
  return services.db
    .selectFrom('tour_logs')
    .select(['status', 'error'])
    .where('tour_id', '=', tourId)
    .orderBy('created_at')
    .execute();
}

export function markerById(services: Services, id: string): Promise<MarkerRow | undefined> {
  return services.db.selectFrom('markers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function clipById(services: Services, id: string): Promise<ClipRow | undefined> {
  return services.db.selectFrom('clips').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The agent card of a tour's owner: name (else the email), contact number, email and photo. */
/** The agents (tour owners) as the player shows them, by owner id, for many owners in one statement. */
export async function agentProfiles(services: Services, ownerIds: readonly string[]) {
  if (!ownerIds.length) return new Map<string, never>();
  const rows = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select([
      'users.id',
      'users.username',
      'user_profiles.name',
      'user_profiles.surname',
      'user_profiles.contact_number',
      'user_profiles.profile_image_key',
    ])
    .where('users.id', 'in', [...ownerIds])
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        fullname: [row.name, row.surname].filter(Boolean).join(' ') || row.username,
        contactNumber: row.contact_number,
        email: row.username,
        profileImageURL: row.profile_image_key ? services.storage.publicUrl(row.profile_image_key) : null,
      },
    ]),
  );
}

/** One page of tours, newest first: a user's own, or (an API key acting as its company) all of a company's. */
export function toursPage(
  services: Services,
  whose: { ownerId: string } | { companyId: string },
  page: PageRequest,
): Promise<TourRow[]> {
  let q = services.db
    .selectFrom('tours')
    .selectAll()
    .where((eb) => ('companyId' in whose ? eb('company_id', '=', whose.companyId) : eb('owner_id', '=', whose.ownerId)))
    .where('deleted_at', 'is', null);
  if (page.after) q = q.where(sql<boolean>`(created_at, id) < ${cursorRow('tours', page.after)}`);
  if (page.before) q = q.where(sql<boolean>`(created_at, id) > ${cursorRow('tours', page.before)}`);
  return q
    .orderBy('created_at', page.inverted ? 'asc' : 'desc')
    .orderBy('id', page.inverted ? 'asc' : 'desc')
    .limit(page.limit)
    .execute();
}
