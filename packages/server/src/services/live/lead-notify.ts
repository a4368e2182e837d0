/**
 * Who hears of a lead just left: the tour's owner (a notice in the console, and a mail: the lead's details, or the
 * gate's approval link while the visitor waits) and the visitor (a receipt). A failure here never loses the lead.
 */
import { topics } from '../../events/event-bus.js';
import { mailQueue } from '../../jobs/mail-job.js';
import type { Services } from '../services.js';
import { approvalLink, stoppedRoom } from '../lead-gate/approval.js';
import { leadMayMailAgent } from '../lead-gate/agent-mails.js';
import { gateMail } from '../lead-gate/gate-mail.js';
import { mailLeadReceipt } from '../personal-data/lead-erasure.js';
import { leadMail } from './lead-mail.js';
import { visitRoomPath } from './lead-room-path.js';
import type { VisitRoom } from '../reports/visit-rooms.js';
import type { LeadRow, TourLeadModel } from './lead-reads.js';
import { hostLink, type SessionRow } from './sessions.js';

export interface NewLead {
  tour: { id: string; owner_id: string; title: string | null };
  lead: LeadRow;
  tourLead: TourLeadModel;
  session: SessionRow | null;
  /** The gate's one-time approval token in clear when the visitor waits for the agent's approval. */
  mailToken: string | null;
}

type LeadOwner = { id: string; username: string; name: string | null };

/** Tells the tour's owner at once and mails the visitor's receipt; failures are logged, never thrown. */
export async function tellOwnerOfLead(services: Services, l: NewLead): Promise<void> {
  const owner = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.id', 'users.username', 'user_profiles.name'])
    .where('users.id', '=', l.tour.owner_id)
    .executeTakeFirst();
  if (!owner) return;
  await notifyOwner(services, l, owner).catch((err: unknown) =>
    services.log.error({ err, leadId: l.lead.id }, 'could not notify the agent of a lead'),
  );
  // The visitor's receipt carries the signed link that deletes their lead (docs/data-retention.md).
  await mailLeadReceipt(services, l.lead, l.tour.title ?? 'a tour', owner.name ?? owner.username).catch(
    (err: unknown) => services.log.error({ err, leadId: l.lead.id }, 'could not mail the lead receipt'),
  );
}

/** The console's notice, then (within the tour's hourly mails) the gate's approval mail or the lead mail. */
async function notifyOwner(services: Services, l: NewLead, owner: LeadOwner): Promise<void> {
  const { tour, lead } = l;
  const roomPath = await visitRoomPath(services, tour.id, lead.visitor_id, new Date(lead.created_at));
  await services.events.publish(topics.leadCreated(owner.id), l.tourLead);
  // Past the tour's hourly mails the lead is still shown (the notice above, Leads), only not mailed.
  if (!(await leadMayMailAgent(services, lead))) return;
  if (l.mailToken) await mailGateApproval(services, l, owner, roomPath, l.mailToken);
  else await mailLead(services, l, owner, roomPath);
}

/** The visitor waits at the gate: the agent's mail carries the one-time approval link. */
async function mailGateApproval(
  services: Services,
  { tour, lead, tourLead }: NewLead,
  owner: LeadOwner,
  roomPath: VisitRoom[],
  mailToken: string,
): Promise<void> {
  const stopped = await stoppedRoom(services, tour.id, lead.gate_frame);
  await mailQueue.enqueue(
    services,
    gateMail({
      to: owner.username,
      agentName: owner.name ?? owner.username,
      tourTitle: tour.title ?? 'your tour',
      lead: tourLead,
      roomPath,
      approveLink: approvalLink(services.config.publicUrl, mailToken),
      stoppedAt: stopped,
      expiresAt: new Date(lead.gate_token_expires_at!),
    }),
  );
}

/** The lead's details, with the host link of the viewing session a live viewing lead opened. */
async function mailLead(
  services: Services,
  { tour, tourLead, session }: NewLead,
  owner: LeadOwner,
  roomPath: VisitRoom[],
): Promise<void> {
  await mailQueue.enqueue(
    services,
    leadMail({
      to: owner.username,
      agentName: owner.name ?? owner.username,
      tourTitle: tour.title ?? 'your tour',
      lead: {
        name: tourLead.name,
        surname: tourLead.surname,
        email: tourLead.email,
        contactNumber: tourLead.contactNumber,
      },
      liveLink: session ? hostLink(services.config.publicUrl, tour.id, session.id) : null,
      expiresAt: session ? new Date(session.expires_at) : null,
      roomPath,
    }),
  );
}
