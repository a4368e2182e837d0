/**
 * A visitor at the lead gate: the lead the form leaves (gate WAITING or OPEN), the agent's approval (the Leads list,
 * the console's notice, or the one-time link mailed to the agent), and the pass that lets the visitor's page go on —
 * answered at once by tourLeadCreate when no approval is asked, else pushed down the live socket the page waits on
 * (http/lead-gate-socket.ts) when the agent approves.
 */
import { sql } from 'kysely';
import { ERROR_CODES, ERROR_TEXTS, LEAD_GATE_STATES, LEAD_GATE_TEXTS } from '@roomwalk/shared';
import { hashToken, newOneTimeToken } from '../../auth/tokens.js';
import type { AuthInfo } from '../../core/auth.js';
import { AppError, notFound } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { GATE_WAIT_SECONDS, signGateWait, signGrant, TOUR_GATE } from '../tour-access/grants.js';

/** The event every node hears when a waiting lead is approved: its sockets hand the visitor the pass. */
export const LEAD_GATE_OPENED = 'leadGateOpened';
export interface LeadGateOpened {
  leadId: string;
  tourId: string;
}

/** What the form's answer carries for the gate: the pass (went on at once) or the socket credential (waiting). */
export interface GateAnswer {
  state: 'WAITING' | 'OPEN';
  pass: string | null;
  waitToken: string | null;
}

/**
 * The columns a gate lead is inserted with, and the approval link's token in clear (for the agent's mail only).
 * `gateLinkId`: the audience link whose own gate asked for the form (null: the tour's gate).
 */
export function gateLeadColumns(approval: boolean, gateFrame: number, gateLinkId: string | null, now = new Date()) {
  if (!approval)
    return {
      columns: { gate: LEAD_GATE_STATES.open, gate_frame: gateFrame, gate_decided_at: now, gate_link_id: gateLinkId },
      mailToken: null,
    };
  const { token, hash } = newOneTimeToken();
  return {
    columns: {
      gate: LEAD_GATE_STATES.waiting,
      gate_frame: gateFrame,
      gate_link_id: gateLinkId,
      gate_token_hash: hash,
      gate_token_expires_at: new Date(now.getTime() + GATE_WAIT_SECONDS * 1000),
    },
    mailToken: token,
  };
}

/** The gate part of tourLeadCreate's answer for a lead just left at the gate. */
export function gateAnswer(
  services: Services,
  tour: { id: string; access_version: number },
  lead: { id: string; gate: string | null; gate_link_id: string | null },
): GateAnswer | null {
  if (lead.gate === LEAD_GATE_STATES.open)
    return {
      state: 'OPEN',
      pass: signGrant(services, tour.id, tour.access_version, Date.now(), passOf(lead)).token,
      waitToken: null,
    };
  if (lead.gate === LEAD_GATE_STATES.waiting)
    return { state: 'WAITING', pass: null, waitToken: signGateWait(services, tour.id, lead.id) };
  return null;
}

/** What a lead's pass names: the lead and the gate it was left at. */
const passOf = (lead: { id: string; gate_link_id: string | null }) => ({
  leadId: lead.id,
  gate: lead.gate_link_id ?? TOUR_GATE,
});

/**
 * The pass for a lead through the gate (approved or went on), at the tour's current access version, naming the gate
 * the lead was left at; null otherwise.
 */
export async function passForLead(services: Services, leadId: string): Promise<string | null> {
  const row = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select([
      'tour_leads.gate',
      'tour_leads.gate_link_id',
      'tours.id as tour_id',
      'tours.access_version',
      'tours.deleted_at',
    ])
    .where('tour_leads.id', '=', leadId)
    .executeTakeFirst();
  if (!row || row.deleted_at || (row.gate !== LEAD_GATE_STATES.approved && row.gate !== LEAD_GATE_STATES.open))
    return null;
  return signGrant(services, row.tour_id, row.access_version, Date.now(), passOf({ id: leadId, ...row })).token;
}

async function announce(services: Services, e: LeadGateOpened): Promise<void> {
  await services.events
    .publish(LEAD_GATE_OPENED, e)
    .catch((err: unknown) =>
      services.log.error({ err, leadId: e.leadId }, 'lead gate: could not announce an approval'),
    );
}

/**
 * The agent approves a waiting lead (the Leads list, the console's notice): a member of the tour's company. Approving
 * an approved lead again changes nothing and answers it as it is.
 */
export async function approveLead(services: Services, auth: AuthInfo, leadGlobalId: string): Promise<string> {
  const id = decodeId('TourLead', leadGlobalId);
  const lead = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select(['tour_leads.id', 'tour_leads.gate', 'tour_leads.tour_id', 'tours.company_id'])
    .where('tour_leads.id', '=', id)
    .executeTakeFirst();
  if (!lead || (lead.company_id !== auth.companyId && !auth.isSuperAdmin)) throw notFound(ERROR_TEXTS.notFound);
  if (lead.gate === null) throw new AppError(ERROR_CODES.BAD_USER_INPUT, LEAD_GATE_TEXTS.noGate);
  const done = await services.db
    .updateTable('tour_leads')
    .set({
      gate: LEAD_GATE_STATES.approved,
      gate_decided_at: new Date(),
      gate_decided_by: auth.apiKeyId ? null : auth.userId,
      gate_token_hash: null,
    })
    .where('id', '=', id)
    .where('gate', '=', LEAD_GATE_STATES.waiting)
    .returning(['id', 'tour_id'])
    .executeTakeFirst();
  if (done) await announce(services, { leadId: done.id, tourId: done.tour_id });
  return lead.id;
}

/**
 * The mailed link's page: who is waiting on which tour, while the link still approves (null: used, expired or unknown).
 */
export async function mailLinkLead(
  services: Services,
  token: string,
): Promise<{ who: string; email: string; tourTitle: string } | null> {
  if (!token || token.length > 200) return null;
  const row = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select(['tour_leads.name', 'tour_leads.surname', 'tour_leads.email', 'tours.title'])
    .where('tour_leads.gate_token_hash', '=', hashToken(token))
    .where('tour_leads.gate', '=', LEAD_GATE_STATES.waiting)
    .where('tour_leads.gate_token_expires_at', '>', sql<Date>`now()`)
    .where('tours.deleted_at', 'is', null)
    .executeTakeFirst();
  return row
    ? { who: [row.name, row.surname].filter(Boolean).join(' '), email: row.email, tourTitle: row.title ?? 'your tour' }
    : null;
}

/**
 * The mailed link's Approve: one atomic UPDATE uses the link only while it is unused, unexpired and the lead still
 * waits, so it approves once; the link then names nothing. Answers the lead approved, or null.
 */
export async function approveByMailLink(
  services: Services,
  token: string,
): Promise<{ leadId: string; tourId: string } | null> {
  if (!token || token.length > 200) return null;
  const done = await services.db
    .updateTable('tour_leads')
    .set({ gate: LEAD_GATE_STATES.approved, gate_decided_at: new Date(), gate_token_hash: null })
    .where('gate_token_hash', '=', hashToken(token))
    .where('gate', '=', LEAD_GATE_STATES.waiting)
    .where('gate_token_expires_at', '>', sql<Date>`now()`)
    .where('tour_id', 'in', (eb) => eb.selectFrom('tours').select('id').where('deleted_at', 'is', null))
    .returning(['id', 'tour_id'])
    .executeTakeFirst();
  if (!done) return null;
  await announce(services, { leadId: done.id, tourId: done.tour_id });
  return { leadId: done.id, tourId: done.tour_id };
}

/** The address of the approval page for a mailed token. */
export const approvalLink = (publicUrl: string, token: string) =>
  `${publicUrl}/lead-gate/approve?${new URLSearchParams({ token })}`;

/**
 * The company's latest leads (the console's Leads list), newest first; only those waiting for approval with `waiting`.
 */
export async function companyLeads(services: Services, auth: AuthInfo, waiting: boolean, limit = 100) {
  let q = services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select((eb) => [
      'tour_leads.id',
      'tour_leads.name',
      'tour_leads.surname',
      'tour_leads.email',
      'tour_leads.contact_number',
      'tour_leads.lead_type',
      'tour_leads.tour_id',
      eb
        .selectFrom('viewing_sessions')
        .select('viewing_sessions.id')
        .whereRef('viewing_sessions.lead_id', '=', 'tour_leads.id')
        .orderBy('viewing_sessions.created_at', 'desc')
        .limit(1)
        .as('session_id'),
    ])
    .where('tours.company_id', '=', auth.companyId)
    .where('tours.deleted_at', 'is', null);
  if (waiting) q = q.where('tour_leads.gate', '=', LEAD_GATE_STATES.waiting);
  const rows = await q.orderBy('tour_leads.created_at', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    surname: r.surname,
    email: r.email,
    contactNumber: r.contact_number,
    leadType: r.lead_type,
    tourId: r.tour_id,
    viewingSessionId: r.session_id ?? null,
  }));
}

/** Each lead's gate, time and tour title, by id (members of the lead's tour's company only; others get nothing). */
export async function leadGateRows(services: Services, auth: AuthInfo | null, ids: readonly string[]) {
  if (!auth || ids.length === 0) return new Map<string, never>();
  const rows = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select([
      'tour_leads.id',
      'tour_leads.gate',
      'tour_leads.gate_frame',
      'tour_leads.gate_decided_at',
      'tour_leads.created_at',
      'tour_leads.tour_id',
      'tours.title',
      'tours.company_id',
    ])
    .where('tour_leads.id', 'in', [...ids])
    .execute();
  return new Map(rows.filter((r) => r.company_id === auth.companyId || auth.isSuperAdmin).map((r) => [r.id, r]));
}

/** The room a visitor stopped in at the gate: the last marker at or before the frame they stopped at. */
export async function stoppedRoom(services: Services, tourId: string, frame: number | null): Promise<string | null> {
  if (frame === null) return null;
  const m = await services.db
    .selectFrom('markers')
    .select('name')
    .where('tour_id', '=', tourId)
    .where('frame_index', '<=', frame)
    .orderBy('frame_index', 'desc')
    .limit(1)
    .executeTakeFirst();
  return m?.name ?? null;
}
