/**
 * Listed or unlisted (docs/embedding.md "Listed or unlisted"): every tour is unlisted (its pages say `noindex`); the
 * agent may list a public tour in Tour Info ("Search engines may show this tour"), which puts it in /sitemap.xml and
 * its page's JSON-LD. A tour that later turns protected stays off both whatever the flag says (share-card.ts, sitemap).
 */
import { ERROR_TEXTS, SHARE_LISTING_TEXTS, TOUR_ACCESS } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import { badInput, notFound } from '../../core/errors.js';
import type { TourRow } from '../../db/types.js';
import type { Services } from '../services.js';
import { loadEditableTour } from '../tours.js';

/** tourListedSet: the owner (or a company admin) lists or unlists a tour; only a public tour may be listed. */
export async function setTourListed(
  services: Services,
  auth: AuthInfo,
  input: { id: string; listed: boolean },
): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, input.id);
  if (input.listed && tour.access !== TOUR_ACCESS.public) throw badInput(SHARE_LISTING_TEXTS.notPublic, 'listed');
  if (tour.listed === input.listed) return tour;
  const row = await services.db
    .updateTable('tours')
    .set({ listed: input.listed, updated_at: new Date() })
    .where('id', '=', tour.id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(ERROR_TEXTS.tourNotFound);
  return row;
}
