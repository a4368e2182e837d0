/**
 * Visits through an audience link: the beacon names the link (`link`), the visit is counted under it (analytics and
 * the seller report can be filtered by link), and the rooms the link hides are never recorded for it, whatever the
 * beacon claims. A link that no longer opens takes no visits.
 */
import { ERROR_CODES, PLAYER_GATE_TEXTS } from '@roomwalk/shared';
import { AppError } from '../../core/errors.js';
import type { Services } from '../services.js';
import { liveLink } from './link-view.js';

export interface LinkVisit {
  id: string;
  /** Names of the rooms the link hides (a name a visible room shares stays recordable). */
  hiddenRooms: ReadonlySet<string>;
}

export async function assertLinkVisit(services: Services, tourId: string, token: string): Promise<LinkVisit> {
  const { link, live } = await liveLink(services, tourId, token);
  if (!link || !live) throw new AppError(ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE, PLAYER_GATE_TEXTS.linkUnavailable);
  if (!link.hidden_marker_ids.length) return { id: link.id, hiddenRooms: new Set() };
  const markers = await services.db
    .selectFrom('markers')
    .select(['id', 'name'])
    .where('tour_id', '=', tourId)
    .execute();
  const hidden = new Set(link.hidden_marker_ids);
  const shown = new Set(markers.filter((m) => !hidden.has(m.id)).map((m) => m.name));
  return {
    id: link.id,
    hiddenRooms: new Set(markers.filter((m) => hidden.has(m.id) && !shown.has(m.name)).map((m) => m.name)),
  };
}
