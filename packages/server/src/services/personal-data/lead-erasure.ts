/**
 * A visitor's own lead: the receipt mailed to them when they leave their details carries a signed link; its page asks
 * them to confirm, then the lead is deleted (the agent's list no longer has it) along with what tied it to them: the
 * lead.created webhook event holding their details, and their visitor id in the visits, replaced by a new random one
 * everywhere it appears, so visit counts stay as they were and no visit leads back to the person.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { encodeId } from '../../core/ids.js';
import { mailQueue } from '../../jobs/mail-job.js';
import type { Services } from '../services.js';
import { leadReceiptMail } from './personal-data-mail.js';
import { checkLink, leadErasureUrl } from './signing.js';

/** Mails the visitor a receipt of the lead they left, with the link that deletes it. */
export async function mailLeadReceipt(
  services: Services,
  lead: { id: string; name: string; email: string },
  tourTitle: string,
  agentName: string,
): Promise<void> {
  await mailQueue.enqueue(
    services,
    leadReceiptMail({
      to: lead.email,
      name: lead.name,
      agentName,
      tourTitle,
      erasureUrl: leadErasureUrl(services, lead.id),
    }),
  );
}

export type LeadErasureState = { state: 'invalid' } | { state: 'gone' } | { state: 'found'; tourTitle: string };

/** What the link's page shows: the tour the lead was left on, or that it is gone already. */
export async function leadForErasure(
  services: Services,
  leadId: string,
  signature: unknown,
): Promise<LeadErasureState> {
  if (checkLink(services, 'lead-erasure', leadId, signature) !== 'valid') return { state: 'invalid' };
  const lead = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select('tours.title')
    .where('tour_leads.id', '=', leadId)
    .executeTakeFirst();
  return lead ? { state: 'found', tourTitle: lead.title ?? 'a tour' } : { state: 'gone' };
}

/** Deletes the lead the signed link names; answers whether there was one. */
export async function eraseLead(
  services: Services,
  leadId: string,
  signature: unknown,
): Promise<'invalid' | 'gone' | 'deleted'> {
  if (checkLink(services, 'lead-erasure', leadId, signature) !== 'valid') return 'invalid';
  return services.db.transaction().execute(async (trx) => {
    const lead = await trx
      .deleteFrom('tour_leads')
      .where('id', '=', leadId)
      .returning(['visitor_id'])
      .executeTakeFirst();
    if (!lead) return 'gone';
    await trx
      .deleteFrom('webhook_events')
      .where('type', '=', 'lead.created')
      .where(sql<string>`payload->'data'->'lead'->>'id'`, '=', encodeId('TourLead', leadId))
      .execute();
    if (lead.visitor_id) {
      const fresh = randomBytes(16).toString('base64url');
      await trx
        .updateTable('view_events')
        .set({ visitor_id: fresh })
        .where('visitor_id', '=', lead.visitor_id)
        .execute();
      await trx
        .updateTable('tour_visitors')
        .set({ visitor_id: fresh })
        .where('visitor_id', '=', lead.visitor_id)
        .execute();
      // Other leads the same browser left keep pointing at its visits under the new id.
      await trx
        .updateTable('tour_leads')
        .set({ visitor_id: fresh })
        .where('visitor_id', '=', lead.visitor_id)
        .execute();
    }
    return 'deleted';
  });
}
