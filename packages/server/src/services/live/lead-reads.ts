/** A lead as the TourLead type shows it, with its latest viewing session (node(id)). */
import type { Services } from '../services.js';

export async function leadById(services: Services, id: string) {
  const db = services.db;
  const lead = await db.selectFrom('tour_leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!lead) return undefined;
  const session = await db
    .selectFrom('viewing_sessions')
    .select(['id'])
    .where('lead_id', '=', lead.id)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return {
    id: lead.id,
    name: lead.name,
    surname: lead.surname,
    email: lead.email,
    contactNumber: lead.contact_number,
    leadType: lead.lead_type,
    tourId: lead.tour_id,
    viewingSessionId: session?.id ?? null,
  };
}
