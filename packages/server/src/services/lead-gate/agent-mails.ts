/**
 * How many mails one tour's leads send its agent (docs/access-and-privacy.md, "Mails to the agent"): leads are limited
 * per address (RATE_LIMITS.tourLeadCreate), but many addresses can still bury an agent in lead and approval mails. So
 * the leads of one tour mail the agent for the first LEAD_MAILS_PER_TOUR_HOUR of any hour; a lead beyond them is kept
 * and shown as any other (the Leads list, the console's live notice, the webhook), only its mail is not sent. No
 * summary follows: the Leads list is where the agent sees them, and a waiting visitor is approved from there.
 */
import { sql } from 'kysely';
import type { Services } from '../services.js';

/** Lead and approval mails to the agent per tour in any hour (rolling): a busy open day stays well under it. */
export const LEAD_MAILS_PER_TOUR_HOUR = 20;

/**
 * Whether this lead may mail its agent: fewer than LEAD_MAILS_PER_TOUR_HOUR leads of its tour came in the hour before
 * it (counted by the database, so every node agrees; every lead counts, mailed or not, so a flood from many addresses
 * mails nothing until it has been quiet for a while). Off with the other limits (RATE_LIMIT_DISABLED).
 */
export async function leadMayMailAgent(
  services: Services,
  lead: { id: string; tour_id: string; created_at: Date | string },
): Promise<boolean> {
  if (services.config.RATE_LIMIT_DISABLED) return true;
  const at = new Date(lead.created_at);
  const row = await services.db
    .selectFrom('tour_leads')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tour_id', '=', lead.tour_id)
    .where('created_at', '>', sql<Date>`${at}::timestamptz - interval '1 hour'`)
    .where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', lead.id)])]))
    .executeTakeFirstOrThrow();
  return Number(row.n) < LEAD_MAILS_PER_TOUR_HOUR;
}
