/** What the reel and shot types read for the GraphQL adapter. */
import type { ReelRow, ShotRow } from '../db/tables/ai.js';
import type { Services } from './services.js';

export function tourReels(services: Services, tourId: string): Promise<ReelRow[]> {
  return services.db
    .selectFrom('reels')
    .selectAll()
    .where('tour_id', '=', tourId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function tourShots(services: Services, tourId: string): Promise<ShotRow[]> {
  return services.db
    .selectFrom('shots')
    .selectAll()
    .where('tour_id', '=', tourId)
    .orderBy('room_type')
    .orderBy('source_clip_index')
    .orderBy('source_frame_position')
    .execute();
}

export function reelById(services: Services, id: string): Promise<ReelRow | undefined> {
  return services.db.selectFrom('reels').selectAll().where('id', '=', id).executeTakeFirst();
}

export function shotById(services: Services, id: string): Promise<ShotRow | undefined> {
  return services.db.selectFrom('shots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The company and owner of a shot's tour (for who may edit it), or undefined when the shot or its tour is gone. */
export async function shotTour(
  services: Services,
  id: string,
): Promise<{ company_id: string; owner_id: string } | undefined> {
  return services.db
    .selectFrom('shots')
    .innerJoin('tours', 'tours.id', 'shots.tour_id')
    .select(['tours.company_id', 'tours.owner_id'])
    .where('shots.id', '=', id)
    .where('tours.deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function reelCompanyId(services: Services, id: string): Promise<string | undefined> {
  return (
    await services.db
      .selectFrom('reels')
      .innerJoin('tours', 'tours.id', 'reels.tour_id')
      .select(['tours.company_id'])
      .where('reels.id', '=', id)
      .executeTakeFirst()
  )?.company_id;
}
