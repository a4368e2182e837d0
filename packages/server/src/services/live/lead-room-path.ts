/**
 * The rooms a lead's visitor saw before leaving their details: the lead keeps the anonymous visitor id the
 * player sent with the form, and its visit is that visitor's latest visit of the tour started before the lead. For the
 * lead mail, the console's notice and TourLead.roomPath (signed-in members of the tour's company only).
 */
import type { AuthInfo } from '../../core/auth.js';
import { roomLabel, type VisitRoom } from '../reports/visit-rooms.js';
import type { Services } from '../services.js';

/** The visitor ids the player sends: letters, digits, _ and -, 8 to 64 (as the visit beacon). */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/** The rooms (labelled, in the order first entered) of the visitor's latest visit of the tour started by `at`. */
export async function visitRoomPath(
  services: Services,
  tourId: string,
  visitorId: string | null,
  at: Date,
): Promise<VisitRoom[]> {
  if (!visitorId) return [];
  const visit = await services.db
    .selectFrom('view_events')
    .select('rooms')
    .where('tour_id', '=', tourId)
    .where('visitor_id', '=', visitorId)
    .where('started_at', '<=', at)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const rooms = (typeof visit?.rooms === 'string' ? JSON.parse(visit.rooms) : visit?.rooms) as VisitRoom[] | undefined;
  return (rooms ?? []).map((r) => ({ name: roomLabel(r.name), seconds: r.seconds }));
}

/** TourLead.roomPath: null for anyone but a signed-in member of the lead's tour's company. */
export async function leadRoomPath(
  services: Services,
  auth: AuthInfo | null,
  leadId: string,
): Promise<VisitRoom[] | null> {
  if (!auth) return null;
  const lead = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select(['tour_leads.tour_id', 'tour_leads.visitor_id', 'tour_leads.created_at', 'tours.company_id'])
    .where('tour_leads.id', '=', leadId)
    .executeTakeFirst();
  if (!lead || (lead.company_id !== auth.companyId && !auth.isSuperAdmin)) return null;
  return visitRoomPath(services, lead.tour_id, lead.visitor_id, new Date(lead.created_at));
}
