/** A lead as the TourLead type shows it, with its latest viewing session (node(id)). */
import type { Selectable } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Services } from '../services.js';

export type LeadRow = Selectable<Database['tour_leads']>;

export interface TourLeadModel {
  id: string;
  name: string;
  surname: string | null;
  email: string;
  contactNumber: string | null;
  leadType: string;
  tourId: string;
  /**
   * The viewing session a LIVE_VIEWING lead opened or joined (the `session=` of the agent's link); null for CONTACT.
   */
  viewingSessionId: string | null;
}

/** The TourLead of a lead's row; `viewingSessionId`: the session it opened or joined (null: none). */
export function toTourLeadModel(lead: LeadRow, viewingSessionId: string | null): TourLeadModel {
  return {
    id: lead.id,
    name: lead.name,
    surname: lead.surname,
    email: lead.email,
    contactNumber: lead.contact_number,
    leadType: lead.lead_type,
    tourId: lead.tour_id,
    viewingSessionId,
  };
}

export async function leadById(services: Services, id: string): Promise<TourLeadModel | undefined> {
  const db = services.db;
  const lead = await db.selectFrom('tour_leads').selectAll().where('id', '=', id).executeTakeFirst();
  if (!lead) return undefined;
  const session = await db
    .selectFrom('viewing_sessions')
    .select(['id'])
    .where('lead_id', '=', lead.id)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return toTourLeadModel(lead, session?.id ?? null);
}
