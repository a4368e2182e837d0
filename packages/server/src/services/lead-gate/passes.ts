/**
 * A lead gate's pass (docs/access-and-privacy.md, "Lead gate"): what a lead let through a gate holds, and how it ends.
 * A lead goes through at one gate (the tour's own, or an audience link's own) at the tour's access version of that
 * moment (`tour_leads.gate_pass_version`); the pass is signed at that version only, for that gate only, and never
 * opens a password tour (services/tour-access/grants.ts). It ends when the tour's access or password changes (a new
 * version), when the gate is turned off or its link ends, and when the agent takes the approval back (REVOKED).
 */
import { LEAD_GATE_STATES } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { serverNow } from '../../core/clock.js';
import { gatePassLead, signPass, TOUR_GATE } from '../tour-access/grants.js';

/** The states whose lead holds a pass (approved by the agent, or went on at once). */
const PASSING = [LEAD_GATE_STATES.approved, LEAD_GATE_STATES.open] as const;

/** What a lead's pass names: the lead and the gate it was left at. */
export const passOf = (lead: { id: string; gate_link_id: string | null }) => ({
  leadId: lead.id,
  gate: lead.gate_link_id ?? TOUR_GATE,
});

/** The gate's settings a lead's gate still needs to exist: the tour's own, or the audience link's own. */
interface GateStanding {
  lead_gate_marker_id: string | null;
  lead_gate_seconds: number | null;
  link_id: string | null;
  link_mode: string | null;
  link_revoked_at: Date | string | null;
  link_expires_at: Date | string | null;
}

/** Whether the gate a lead was left at still stands (the tour's gate is on; the link's own gate is live). */
function gateStands(row: GateStanding & { gate_link_id: string | null }, nowMs: number): boolean {
  if (row.gate_link_id === null) return row.lead_gate_marker_id !== null || row.lead_gate_seconds !== null;
  if (row.link_id === null || row.link_revoked_at !== null) return false;
  if (row.link_expires_at !== null && new Date(row.link_expires_at).getTime() <= nowMs) return false;
  return row.link_mode === 'ROOM' || row.link_mode === 'SECONDS';
}

/**
 * The pass for a lead through its gate: only while the lead holds one (approved or went on, not revoked), at the
 * access version it went through at, while that is still the tour's version and the gate still stands; null otherwise
 * (the waiter socket asks this before handing anything out).
 */
export async function passForLead(services: Services, leadId: string): Promise<string | null> {
  const row = await services.db
    .selectFrom('tour_leads')
    .innerJoin('tours', 'tours.id', 'tour_leads.tour_id')
    .leftJoin('audience_links', 'audience_links.id', 'tour_leads.gate_link_id')
    .select([
      'tour_leads.gate',
      'tour_leads.gate_link_id',
      'tour_leads.gate_pass_version',
      'tours.id as tour_id',
      'tours.access_version',
      'tours.deleted_at',
      'tours.lead_gate_marker_id',
      'tours.lead_gate_seconds',
      'audience_links.id as link_id',
      'audience_links.lead_gate_mode as link_mode',
      'audience_links.revoked_at as link_revoked_at',
      'audience_links.expires_at as link_expires_at',
    ])
    .where('tour_leads.id', '=', leadId)
    .executeTakeFirst();
  if (!row || row.deleted_at || !PASSING.includes(row.gate as (typeof PASSING)[number])) return null;
  if (
    row.gate_pass_version === null ||
    row.gate_pass_version !== row.access_version ||
    !gateStands(row, serverNow(services).getTime())
  )
    return null;
  return signPass(services, row.tour_id, row.gate_pass_version, passOf({ id: leadId, ...row }));
}

/**
 * Whether a request's capabilities hold a pass through this gate of the tour that its lead still holds: the signature
 * (at the tour's current version, for this gate), then the lead's row (not revoked, let through at this version).
 */
export async function holdsGatePass(
  services: Services,
  tour: { id: string; access_version: number },
  capabilities: unknown,
  gate: string,
): Promise<boolean> {
  const leadId = gatePassLead(services, tour.id, tour.access_version, capabilities, gate);
  if (!leadId) return false;
  const row = await services.db
    .selectFrom('tour_leads')
    .select('id')
    .where('id', '=', leadId)
    .where('tour_id', '=', tour.id)
    .where('gate', 'in', [...PASSING])
    .where('gate_pass_version', '=', tour.access_version)
    .where((eb) => (gate === TOUR_GATE ? eb('gate_link_id', 'is', null) : eb('gate_link_id', '=', gate)))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The tour's own gate turned off: the passes its leads hold end (a gate set again later asks again). Leads at an
 * audience link's own gate keep theirs (that gate is the link's).
 */
export async function endTourGatePasses(services: Services, tourId: string): Promise<void> {
  await services.db
    .updateTable('tour_leads')
    .set({ gate_pass_version: null })
    .where('tour_id', '=', tourId)
    .where('gate_link_id', 'is', null)
    .where('gate_pass_version', 'is not', null)
    .execute();
}
