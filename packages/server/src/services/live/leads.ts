/** tourLeadCreate: a visitor leaves details; a live viewing lead also opens a viewing session and calls the agent. */
import type { Transaction } from 'kysely';
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
import { serverNow } from '../../core/clock.js';
import { decodeId } from '../../core/ids.js';
import type { Database } from '../../db/types.js';
import { VISITOR_ID_PATTERN } from './lead-room-path.js';
import { tellOwnerOfLead } from './lead-notify.js';
import { toTourLeadModel, type LeadRow, type TourLeadModel } from './lead-reads.js';
import {
  hostLink,
  issueRequest,
  participantId,
  sessionExpiry,
  LIVE_ROLES,
  type SessionRow,
  type ViewingSessionRequest,
} from './sessions.js';
import { leadCreatedWebhook } from '../developer/webhook-payloads.js';
import type { AuthInfo } from '../../core/auth.js';
import { assertCanView } from '../tour-access/tour-access.js';
import { assertGated } from '../lead-gate/lead-gate.js';
import { gateAnswer, gateLeadColumns, type GateAnswer } from '../lead-gate/approval.js';
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

type LeadForm = ReturnType<typeof leadFormSchema.parse>;

export type { TourLeadModel };

export async function createLead(
  services: Services,
  auth: AuthInfo | null,
  input: LeadInput,
  ip: string,
): Promise<{ tourLead: TourLeadModel; viewingSessionRequest: ViewingSessionRequest | null; gate: GateAnswer | null }> {
  const form = await checkLeadForm(services, input, ip);
  const tour = await tourTakingLeads(services, auth, input);
  const gate = await gateOfLead(services, tour, input);
  const live = input.leadType === LEAD_TYPES.LIVE_VIEWING;
  const { lead, session } = await services.db
    .transaction()
    .execute((trx) => insertLead(services, trx, { tour, form, input, ip, gate, live }));
  const tourLead = toTourLeadModel(lead, session?.id ?? null);
  const viewingSessionRequest = session
    ? await issueRequest(services, session, LIVE_ROLES.viewer, participantId.viewer())
    : null;
  await tellOwnerOfLead(services, { tour, lead, tourLead, session, mailToken: gate?.mailToken ?? null });
  await leadCreatedWebhook(
    services,
    tour.company_id,
    { ...tourLead, createdAt: lead.created_at },
    session ? hostLink(services.config.publicUrl, tour.id, session.id) : null,
  );
  return { tourLead, viewingSessionRequest, gate: gateAnswer(services, tour, lead) };
}

/** The form as the shared schema reads it, once the caller is within its rate limit and passed the human check. */
async function checkLeadForm(services: Services, input: LeadInput, ip: string): Promise<LeadForm> {
  await consumeRateLimit(services, 'tourLeadCreate', ip);
  const parsed = leadFormSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const form = parsed.data;
  if (!(await services.humanCheck.verify(form.turnstileToken, ip)))
    throw new AppError(ERROR_CODES.HUMAN_CHECK_FAILED, ERROR_TEXTS.humanCheckFailed);
  return form;
}

/** The tour the lead is for, refused unless the public can watch it and the caller may view it. */
async function tourTakingLeads(services: Services, auth: AuthInfo | null, input: LeadInput) {
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
  return tour;
}

type LeadTour = Awaited<ReturnType<typeof tourTakingLeads>>;
type LeadGate = ReturnType<typeof gateLeadColumns>;

/** The gate columns of a lead left at the lead gate (null: not asked by a gate), refused where no gate applies. */
async function gateOfLead(services: Services, tour: LeadTour, input: LeadInput): Promise<LeadGate | null> {
  if (input.gateFrame === undefined || input.gateFrame === null) return null;
  // Through an audience link its own gate applies (when it sets one), and the frame is in the link's numbering.
  const link = input.link != null ? await liveLink(services, tour.id, input.link) : null;
  if (link && (!link.link || !link.live))
    throw new AppError(ERROR_CODES.AUDIENCE_LINK_UNAVAILABLE, PLAYER_GATE_TEXTS.linkUnavailable);
  const gated = gateThroughLink(tour, link?.link);
  assertGated(gated);
  const gateFrame = input.gateFrame;
  if (!Number.isInteger(gateFrame) || gateFrame < 0 || gateFrame > 10_000_000)
    throw badInput('Not a valid frame.', 'gateFrame');
  const frame = link?.link ? await tourFrameOfLink(services, tour.id, link.link, gateFrame) : gateFrame;
  return gateLeadColumns(
    gated.lead_gate_approval,
    frame,
    link?.link?.lead_gate_mode ? link.link.id : null,
    tour.access_version,
    serverNow(services),
  );
}

/** The lead's row and, for a live viewing lead, the viewing session it joined or opened (one transaction). */
async function insertLead(
  services: Services,
  trx: Transaction<Database>,
  a: { tour: LeadTour; form: LeadForm; input: LeadInput; ip: string; gate: LeadGate | null; live: boolean },
): Promise<{ lead: LeadRow; session: SessionRow | null }> {
  const { form, input } = a;
  const lead = await trx
    .insertInto('tour_leads')
    .values({
      tour_id: a.tour.id,
      name: form.name,
      surname: form.surname || null,
      email: form.email,
      // The profile's '+{code} {national}' form (national input takes the default country, ZA), as the panel sends.
      contact_number: form.contactNumber ? (formatContactNumber(form.contactNumber) ?? form.contactNumber) : null,
      lead_type: a.live ? 'LIVE_VIEWING' : 'CONTACT',
      ip: a.ip || null,
      visitor_id: input.visitorId && VISITOR_ID_PATTERN.test(input.visitorId) ? input.visitorId : null,
      ...a.gate?.columns,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!a.live) return { lead, session: null };
  return { lead, session: await sessionForLead(services, trx, a.tour.id, lead.id) };
}

/**
 * The viewing session a live viewing lead goes into: an agent already live and waiting on a viewer takes this
 * visitor into their session (first come, first served); else a new one waits for the agent.
 */
async function sessionForLead(
  services: Services,
  trx: Transaction<Database>,
  tourId: string,
  leadId: string,
): Promise<SessionRow> {
  const waiting = await trx
    .updateTable('viewing_sessions')
    .set({ lead_id: leadId })
    .where(
      'id',
      '=',
      trx
        .selectFrom('viewing_sessions')
        .select('id')
        .where('tour_id', '=', tourId)
        .where('lead_id', 'is', null)
        .where('expires_at', '>', serverNow(services))
        .orderBy('created_at', 'desc')
        .limit(1),
    )
    .where('lead_id', 'is', null)
    .returning(['id', 'tour_id', 'lead_id', 'expires_at'])
    .executeTakeFirst();
  return (
    waiting ??
    (await trx
      .insertInto('viewing_sessions')
      .values({ tour_id: tourId, lead_id: leadId, created_by: null, expires_at: sessionExpiry(services) })
      .returning(['id', 'tour_id', 'lead_id', 'expires_at'])
      .executeTakeFirstOrThrow())
  );
}
