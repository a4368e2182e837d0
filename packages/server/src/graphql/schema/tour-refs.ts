/** Type references shared between schema files (declared here, implemented in their domain file). */
import type { ClipRow, MarkerRow, TourRow } from '../../db/types.js';
import { builder } from '../builder.js';
import { tourById } from '../../services/tour-reads.js';

/** node(id) answers a tour only to members of its company; the players use the public `tour` query. */
export const TourRef = builder.nodeRef<TourRow, string>('Tour', {
  id: { resolve: (t) => t.id },
  loadOne: async (id, ctx) => {
    if (!ctx.auth) return null;
    const row = await tourById(ctx.services, id, { live: true });
    return row && row.company_id === ctx.auth.companyId ? row : null;
  },
});
export const MarkerRef = builder.objectRef<MarkerRow>('Marker');
export const ClipRef = builder.objectRef<ClipRow>('Clip');
