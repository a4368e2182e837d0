/** Markers: named positions in a tour, most of them fast-travel targets. */
import { sql } from 'kysely';
import { ERROR_CODES, TOUR_STATUS, markerNameSchema } from '@roomwalk/shared';
import { z } from 'zod';
import type { MarkerRow } from '../db/types.js';
import type { AuthInfo } from '../core/auth.js';
import { decodeId } from '../core/ids.js';
import { AppError, badInput, fromZod, notFound } from '../core/errors.js';
import type { Services } from './services.js';
import { assertCanEdit, loadEditableTour } from './tours.js';

const MARKER_DESCRIPTION_MAX = 300;
const descriptionSchema = z.string().trim().max(MARKER_DESCRIPTION_MAX, 'Maximum characters reached').nullish();

function parseName(name: unknown): string {
  const parsed = markerNameSchema.safeParse(name);
  if (!parsed.success) throw fromZod(parsed.error.issues.map((i) => ({ ...i, path: ['name'] })));
  return parsed.data;
}

function parseDescription(description: unknown): string {
  const parsed = descriptionSchema.safeParse(description);
  if (!parsed.success) throw fromZod(parsed.error.issues.map((i) => ({ ...i, path: ['description'] })));
  return parsed.data ?? '';
}

/** The frames a marker may point at: 0 to the sum of the clips' frame counts minus 1. */
async function frameCount(services: Services, tourId: string): Promise<number> {
  const row = await services.db
    .selectFrom('clips')
    .select(sql<number>`coalesce(sum(frame_count), 0)::int`.as('n'))
    .where('tour_id', '=', tourId)
    .executeTakeFirstOrThrow();
  return row.n;
}

async function loadEditableMarker(services: Services, auth: AuthInfo, markerGlobalId: string): Promise<MarkerRow> {
  const id = decodeId('Marker', markerGlobalId);
  const row = await services.db
    .selectFrom('markers')
    .innerJoin('tours', 'tours.id', 'markers.tour_id')
    .selectAll('markers')
    .select(['tours.company_id', 'tours.owner_id', 'tours.deleted_at'])
    .where('markers.id', '=', id)
    .executeTakeFirst();
  if (!row || row.deleted_at) throw notFound();
  assertCanEdit(auth, row);
  const { company_id: _c, owner_id: _o, deleted_at: _d, ...marker } = row;
  return marker;
}

export interface MarkerSaveInputValue {
  name: string;
  description?: string | null | undefined;
  tourId: string;
  scrollPosition?: number | null | undefined;
  isFastTravel?: boolean | null | undefined;
  frameIndex: number;
}

export async function saveMarker(services: Services, auth: AuthInfo, input: MarkerSaveInputValue): Promise<MarkerRow> {
  const tour = await loadEditableTour(services, auth, input.tourId);
  const name = parseName(input.name);
  const description = parseDescription(input.description);
  if (tour.status !== TOUR_STATUS.PROCESSED)
    throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, 'Markers can be added once the tour is processed.');
  const frames = await frameCount(services, tour.id);
  if (!Number.isFinite(input.frameIndex) || input.frameIndex < 0 || input.frameIndex > frames - 1) {
    throw badInput(`The frame must be between 0 and ${Math.max(0, frames - 1)}.`, 'frameIndex');
  }
  const scrollPosition = input.scrollPosition ?? 0;
  if (!Number.isFinite(scrollPosition)) throw badInput('Not a valid scroll position.', 'scrollPosition');
  return services.db
    .insertInto('markers')
    .values({
      tour_id: tour.id,
      name,
      description,
      scroll_position: scrollPosition,
      frame_index: input.frameIndex,
      is_fast_travel: input.isFastTravel ?? true,
      source: 'USER',
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface MarkerUpdateInputValue {
  id: string;
  name: string;
  description?: string | null | undefined;
  isFastTravel?: boolean | null | undefined;
}

export async function updateMarker(
  services: Services,
  auth: AuthInfo,
  input: MarkerUpdateInputValue,
): Promise<MarkerRow> {
  const marker = await loadEditableMarker(services, auth, input.id);
  const name = parseName(input.name);
  const description = input.description === undefined ? marker.description : parseDescription(input.description);
  return services.db
    .updateTable('markers')
    .set({ name, description, ...(input.isFastTravel != null ? { is_fast_travel: input.isFastTravel } : {}) })
    .where('id', '=', marker.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteMarker(services: Services, auth: AuthInfo, markerGlobalId: string): Promise<void> {
  const marker = await loadEditableMarker(services, auth, markerGlobalId);
  await services.db.deleteFrom('markers').where('id', '=', marker.id).execute();
}
