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
import { serverNow } from '../../core/clock.js';
import { decodeId } from '../../core/ids.js';
import type { Services } from '../services.js';
import { GATE_WAIT_SECONDS, signGateWait, signPass } from '../tour-access/grants.js';
import { accessIndexOf } from '../tour-access/access-index.js';
import { passOf } from './passes.js';
import { leadScope, mayManageLeadsOf } from './lead-rights.js';

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
 * `gateLinkId`: the audience link whose own gate asked for the form (null: the tour's gate); `accessVersion`: the
 * tour's, which a lead going on at once holds its pass at (services/lead-gate/passes.ts); `now`: the server's clock,
 * which the approval link's expiry is checked by.
 */
export function gateLeadColumns(
  approval: boolean,
  gateFrame: number,
  gateLinkId: string | null,
  accessVersion: number,
  now: Date,
) {
  if (!approval)
    return {
      columns: {
        gate: LEAD_GATE_STATES.open,
        gate_frame: gateFrame,
        gate_decided_at: now,
        gate_link_id: gateLinkId,
        gate_pass_version: accessVersion,
      },
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
  lead: { id: string; gate: string | null; gate_link_id: string | null; gate_pass_version: number | null },
): GateAnswer | null {
  if (lead.gate === LEAD_GATE_STATES.open && lead.gate_pass_version !== null)
    return {
      state: 'OPEN',
      pass: signPass(services, tour.id, lead.gate_pass_version, passOf(lead)),
      waitToken: null,
    };
  if (lead.gate === LEAD_GATE_STATES.waiting)
    return { state: 'WAITING', pass: null, waitToken: signGateWait(services, tour.id, lead.id) };
  return null;
}

async function announce(services: Services, e: LeadGateOpened): Promise<void> {
  await services.events
    .publish(LEAD_GATE_OPENED, e)
    .catch((err: unknown) =>
      services.log.error({ err, leadId: e.leadId }, 'lead gate: could not announce an approval'),
    );
}

/** A gate lead the caller may decide on (docs/access-and-privacy.md, "Who decides on leads"), or NOT_FOUND. */
async function decidableLead(services: Services, auth: AuthInfo, leadGlobalId: string) {
  const id = decodeId('TourLead', leadGlobalId);
  const lead = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .select(['tour_leads.id', 'tour_leads.gate', 'tour_leads.tour_id', 'tours.company_id', 'tours.owner_id'])
    .where('tour_leads.id', '=', id)
    .executeTakeFirst();
  if (!lead || !mayManageLeadsOf(auth, lead)) throw notFound(ERROR_TEXTS.notFound);
  if (lead.gate === null) throw new AppError(ERROR_CODES.BAD_USER_INPUT, LEAD_GATE_TEXTS.noGate);
  return lead;
}

/** The tour's access version now, for the UPDATE that lets a lead through (the pass is signed at it). */
const currentVersion = (tourId: string) => sql<number>`(SELECT access_version FROM tours WHERE id = ${tourId})`;

/**
 * The agent approves a waiting lead (the Leads list, the console's notice): the tour's owner or a company admin. The
 * lead holds its pass at the tour's access version of this moment. Approving an approved lead again changes nothing.
 */
export async function approveLead(services: Services, auth: AuthInfo, leadGlobalId: string): Promise<string> {
  const lead = await decidableLead(services, auth, leadGlobalId);
  const done = await services.db
    .updateTable('tour_leads')
    .set({
      gate: LEAD_GATE_STATES.approved,
      gate_decided_at: new Date(),
      gate_decided_by: auth.apiKeyId ? null : auth.userId,
      gate_token_hash: null,
      gate_pass_version: currentVersion(lead.tour_id),
    })
    .where('id', '=', lead.id)
    .where('gate', '=', LEAD_GATE_STATES.waiting)
    .returning(['id', 'tour_id'])
    .executeTakeFirst();
  if (done) await announce(services, { leadId: done.id, tourId: done.tour_id });
  return lead.id;
}

/**
 * The agent takes a lead's pass back (the Leads list's "Revoke pass"): the lead is REVOKED and its pass opens nothing
 * from the next request on, on every node (each pass is checked against its lead's row). A waiting lead is refused
 * too. Revoking a revoked lead changes nothing.
 */
export async function revokeLeadPass(services: Services, auth: AuthInfo, leadGlobalId: string): Promise<string> {
  const lead = await decidableLead(services, auth, leadGlobalId);
  const done = await services.db
    .updateTable('tour_leads')
    .set({
      gate: LEAD_GATE_STATES.revoked,
      gate_decided_at: new Date(),
      gate_decided_by: auth.apiKeyId ? null : auth.userId,
      gate_token_hash: null,
      gate_pass_version: null,
    })
    .where('id', '=', lead.id)
    .where('gate', '!=', LEAD_GATE_STATES.revoked)
    .returning(['tour_id'])
    .executeTakeFirst();
  // Answers kept for pass holders are not kept by any node (a gated tour is answered by GraphQL), so nothing to drop
  // but this node's media index, which other nodes learn from the tour row's notice.
  if (done) accessIndexOf(services).changed(done.tour_id);
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
    .where('tour_leads.gate_token_expires_at', '>', serverNow(services))
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
    .set((eb) => ({
      gate: LEAD_GATE_STATES.approved,
      gate_decided_at: new Date(),
      gate_token_hash: null,
      gate_pass_version: eb
        .selectFrom('tours')
        .select('access_version')
        .whereRef('tours.id', '=', 'tour_leads.tour_id'),
    }))
    .where('gate_token_hash', '=', hashToken(token))
    .where('gate', '=', LEAD_GATE_STATES.waiting)
    .where('gate_token_expires_at', '>', serverNow(services))
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
 * The latest leads the caller may see (the console's Leads list), newest first: a company admin's (or an API key's)
 * are the company's, a member's those of the tours they own (lead-rights.ts); only those waiting with `waiting`.
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
    .where((eb) => leadScope(eb, auth))
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

/** Each lead's gate, time and tour title, by id (callers who may see the lead's leads only; others get nothing). */
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
      'tours.owner_id',
    ])
    .where('tour_leads.id', 'in', [...ids])
    .execute();
  return new Map(rows.filter((r) => mayManageLeadsOf(auth, r)).map((r) => [r.id, r]));
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
