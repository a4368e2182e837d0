/** tourLeadCreate: a visitor leaves details; a live viewing lead also opens a viewing session and calls the agent. */
import { consumeRateLimit } from '../../auth/rate-limit.js';
import {
  ERROR_CODES,
  ERROR_TEXTS,
  LEAD_TYPES,
  PLAYER_GATE_TEXTS,
  TOUR_STATUS,
  formatContactNumber,
  leadFormSchema,
  type LeadType,
} from '@roomwalk/shared';
import type { Services } from '../services.js';
import { AppError, badInput, fromZod } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import { topics } from '../../events/event-bus.js';
import { mailQueue } from '../../jobs/mail-job.js';
import { leadMail } from './lead-mail.js';
import { VISITOR_ID_PATTERN, visitRoomPath } from './lead-room-path.js';
import {
  hostLink,
  issueRequest,
  participantId,
  sessionExpiry,
  LIVE_ROLES,
  type ViewingSessionRequest,
} from './sessions.js';
import { leadCreatedWebhook } from '../developer/webhook-payloads.js';
import { mailLeadReceipt } from '../personal-data/lead-erasure.js';
import type { AuthInfo } from '../../core/auth.js';
import { assertCanView } from '../tour-access/tour-access.js';
import { assertGated } from '../lead-gate/lead-gate.js';
import { approvalLink, gateAnswer, gateLeadColumns, stoppedRoom, type GateAnswer } from '../lead-gate/approval.js';
import { gateMail } from '../lead-gate/gate-mail.js';
import { leadMayMailAgent } from '../lead-gate/agent-mails.js';
import { gateThroughLink, tourFrameOfLink } from '../lead-gate/link-gate.js';
import { liveLink } from '../audience-links/link-view.js';

export interface LeadInput {
  name: string;
  surname?: string | null;
  email: string;
  contactNumber?: string | null;
  turnstileToken: string;
  leadType: LeadType;
  tourId: string;
  /** The player's anonymous visitor id: links the lead to its visit; an id of another shape is ignored. */
  visitorId?: string | null;
  /** The player's access grant of a password tour (tourUnlock), as the tour query takes it. */
  access?: string | null;
  /** Set when the form was asked by the tour's lead gate: the frame the visitor stopped at. */
  gateFrame?: number | null;
  /** The audience link the visitor watches through: its own lead gate applies, and gateFrame counts its frames. */
  link?: string | null;
}

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

export async function createLead(
  services: Services,
  auth: AuthInfo | null,
  input: LeadInput,
  ip: string,
): Promise<{ tourLead: TourLeadModel; viewingSessionRequest: ViewingSessionRequest | null; gate: GateAnswer | null }> {
  await consumeRateLimit(services, 'tourLeadCreate', ip);
  const parsed = leadFormSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const form = parsed.data;
  if (!(await services.humanCheck.verify(form.turnstileToken, ip)))
    throw new AppError(ERROR_CODES.HUMAN_CHECK_FAILED, ERROR_TEXTS.humanCheckFailed);

  const tourId = decodeId('Tour', input.tourId);
  const tour = await services.db
    .selectFrom('tours')
    .select([
      'id',
      'owner_id',
      'company_id',
      'title',
      'status',
      'deleted_at',
      'deactivated_at',
      'access',
      'access_version',
      'lead_gate_marker_id',
      'lead_gate_seconds',
      'lead_gate_approval',
    ])
    .where('id', '=', tourId)
    .executeTakeFirst();
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.invalidLink);
  if (tour.deleted_at) throw new AppError(ERROR_CODES.TOUR_REMOVED, ERROR_TEXTS.tourRemoved);
  // Only a tour the public can watch takes leads: processed and not deactivated.
  if (tour.deactivated_at || tour.status !== TOUR_STATUS.PROCESSED)
    throw new AppError(ERROR_CODES.TOUR_NOT_PROCESSED, 'This tour is not available for live viewing.');
  // A lead is left from the tour's player: only by someone the tour lets in (its password's grant, or a member).
  await assertCanView(services, auth, tour, input.access);
  const atGate = input.gateFrame !== undefined && input.gateFrame !== null;
  let gate: ReturnType<typeof gateLeadColumns> | null = null;
  if (atGate) {
    // Through an audience link its own gate applies (when it sets one), and the frame is in the link's numbering.
    const link = input.link != null ? await liveLink(services, tour.id, input.link) : null;
    if (link && (!link.link || !link.live))
      throw new AppError(ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE, PLAYER_GATE_TEXTS.linkUnavailable);
    const gated = gateThroughLink(tour, link?.link);
    assertGated(gated);
    if (!Number.isInteger(input.gateFrame) || input.gateFrame! < 0 || input.gateFrame! > 10_000_000)
      throw badInput('Not a valid frame.', 'gateFrame');
    const frame = link?.link ? await tourFrameOfLink(services, tour.id, link.link, input.gateFrame!) : input.gateFrame!;
    gate = gateLeadColumns(
      gated.lead_gate_approval,
      frame,
      link?.link?.lead_gate_mode ? link.link.id : null,
      tour.access_version,
    );
  }

  const live = input.leadType === LEAD_TYPES.LIVE_VIEWING;
  const { lead, session } = await services.db.transaction().execute(async (trx) => {
    const lead = await trx
      .insertInto('tour_leads')
      .values({
        tour_id: tour.id,
        name: form.name,
        surname: form.surname || null,
        email: form.email,
        // The profile's '+{code} {national}' form (national input takes the default country, ZA), as the panel sends.
        contact_number: form.contactNumber ? (formatContactNumber(form.contactNumber) ?? form.contactNumber) : null,
        lead_type: live ? 'LIVE_VIEWING' : 'CONTACT',
        ip: ip || null,
        visitor_id: input.visitorId && VISITOR_ID_PATTERN.test(input.visitorId) ? input.visitorId : null,
        ...gate?.columns,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (!live) return { lead, session: null };
    // An agent already live and waiting on a viewer takes this visitor into their session (first come, first served).
    const waiting = await trx
      .updateTable('viewing_sessions')
      .set({ lead_id: lead.id })
      .where(
        'id',
        '=',
        trx
          .selectFrom('viewing_sessions')
          .select('id')
          .where('tour_id', '=', tour.id)
          .where('lead_id', 'is', null)
          .where('expires_at', '>', new Date())
          .orderBy('created_at', 'desc')
          .limit(1),
      )
      .where('lead_id', 'is', null)
      .returning(['id', 'tour_id', 'lead_id', 'expires_at'])
      .executeTakeFirst();
    const session =
      waiting ??
      (await trx
        .insertInto('viewing_sessions')
        .values({ tour_id: tour.id, lead_id: lead.id, created_by: null, expires_at: sessionExpiry(services) })
        .returning(['id', 'tour_id', 'lead_id', 'expires_at'])
        .executeTakeFirstOrThrow());
    return { lead, session };
  });

  const tourLead: TourLeadModel = {
    id: lead.id,
    name: lead.name,
    surname: lead.surname,
    email: lead.email,
    contactNumber: lead.contact_number,
    leadType: lead.lead_type,
    tourId: lead.tour_id,
    viewingSessionId: session?.id ?? null,
  };
  const viewingSessionRequest = session
    ? await issueRequest(services, session, LIVE_ROLES.viewer, participantId.viewer())
    : null;

  // Tell the agent at once; a failure here must not lose the lead the visitor just left.
  const owner = await services.db
    .selectFrom('users')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'users.id')
    .select(['users.id', 'users.username', 'user_profiles.name'])
    .where('users.id', '=', tour.owner_id)
    .executeTakeFirst();
  if (owner) {
    const notify = async () => {
      const roomPath = await visitRoomPath(services, tour.id, lead.visitor_id, new Date(lead.created_at));
      await services.events.publish(topics.leadCreated(owner.id), tourLead);
      // Past the tour's hourly mails the lead is still shown (the notice above, Leads), only not mailed.
      if (!(await leadMayMailAgent(services, lead))) return;
      const mail = {
        to: owner.username,
        agentName: owner.name ?? owner.username,
        tourTitle: tour.title ?? 'your tour',
        lead: tourLead,
        roomPath,
      };
      if (gate?.mailToken) {
        // The visitor waits at the gate: the agent's mail carries the one-time approval link.
        const stopped = await stoppedRoom(services, tour.id, lead.gate_frame);
        await mailQueue.enqueue(
          services,
          gateMail({
            ...mail,
            approveLink: approvalLink(services.config.publicUrl, gate.mailToken),
            stoppedAt: stopped,
            expiresAt: new Date(lead.gate_token_expires_at!),
          }),
        );
        return;
      }
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
    };
    await notify().catch((err: unknown) =>
      services.log.error({ err, leadId: lead.id }, 'could not notify the agent of a lead'),
    );
    // The visitor's receipt carries the signed link that deletes their lead (docs/data-retention.md).
    await mailLeadReceipt(services, lead, tour.title ?? 'a tour', owner.name ?? owner.username).catch((err: unknown) =>
      services.log.error({ err, leadId: lead.id }, 'could not mail the lead receipt'),
    );
  }
  await leadCreatedWebhook(
    services,
    tour.company_id,
    { ...tourLead, createdAt: lead.created_at },
    session ? hostLink(services.config.publicUrl, tour.id, session.id) : null,
  );
  return { tourLead, viewingSessionRequest, gate: gateAnswer(services, tour, lead) };
}
