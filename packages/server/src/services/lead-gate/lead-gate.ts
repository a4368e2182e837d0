/**
 * Lead-gated rooms (docs/access-and-privacy.md): the owner's choice in Tour Info, and what a caller is shown of it. A
 * room gate is enforced by the server: callers not through the gate get the tour's clips up to the chosen room only
 * (gate-clips.ts), and the files past it are served signed only. A seconds gate is the player's prompt: what a visitor
 * has watched by then is already theirs (docs/decisions.md, 'Lead gate: the room gate cuts the answer').
 */
import { LEAD_GATE_MODES, LEAD_GATE_TEXTS, leadGateInputSchema } from '@roomwalk/shared';
import type { AuthInfo } from '../../core/auth.js';
import { AppError, badInput, fromZod, notFound } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import type { ClipRow, TourRow } from '../../db/types.js';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { loadEditableTour } from '../tours.js';
import { accessIndexOf } from '../tour-access/access-index.js';
import { TOUR_GATE } from '../tour-access/grants.js';
import { endTourGatePasses, holdsGatePass } from './passes.js';
import { clipsBeforeGate } from './gate-clips.js';
import { linkViewOf, viewMarkers } from '../audience-links/link-view.js';

export interface LeadGateSetInput {
  id: string;
  mode: string;
  markerId?: string | null | undefined;
  seconds?: number | null | undefined;
  approval: boolean;
}

/** Tour Info's lead gate choice (the tour's owner or a company admin). */
export async function setLeadGate(services: Services, auth: AuthInfo, input: LeadGateSetInput): Promise<TourRow> {
  const tour = await loadEditableTour(services, auth, input.id);
  const parsed = leadGateInputSchema.safeParse({
    mode: input.mode,
    markerId: input.markerId,
    seconds: input.seconds,
    approval: input.approval,
  });
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const v = parsed.data;
  let markerId: string | null = null;
  if (v.mode === LEAD_GATE_MODES.room) {
    let id: string;
    try {
      id = decodeId('Marker', v.markerId!);
    } catch {
      throw badInput(LEAD_GATE_TEXTS.roomNotInTour, 'markerId');
    }
    const marker = await services.db
      .selectFrom('markers')
      .select(['id', 'frame_index'])
      .where('id', '=', id)
      .where('tour_id', '=', tour.id)
      .executeTakeFirst();
    if (!marker) throw badInput(LEAD_GATE_TEXTS.roomNotInTour, 'markerId');
    // Something must play before the form: the gate's room cannot start inside the first clip.
    const clips = await services.db
      .selectFrom('clips')
      .select(['index', 'frame_count'])
      .where('tour_id', '=', tour.id)
      .orderBy('index')
      .execute();
    if (clips.length > 0 && clipsBeforeGate(clips, Math.floor(marker.frame_index)) === 0)
      throw badInput(LEAD_GATE_TEXTS.roomTooEarly, 'markerId');
    markerId = marker.id;
  }
  const row = await services.db
    .updateTable('tours')
    .set({
      lead_gate_marker_id: markerId,
      lead_gate_seconds: v.mode === LEAD_GATE_MODES.seconds ? v.seconds! : null,
      lead_gate_approval: v.mode !== LEAD_GATE_MODES.off && v.approval,
      updated_at: new Date(),
    })
    .where('id', '=', tour.id)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound(ERROR_TEXTS.tourNotFound);
  // The gate turned off: the passes its leads hold end (a gate set again asks again).
  if (v.mode === LEAD_GATE_MODES.off) await endTourGatePasses(services, row.id);
  // This node's cached answers and media index drop the tour now; other nodes on the tour row's notice.
  accessIndexOf(services).changed(row.id);
  return row;
}

/** The gate as the owner set it (Tour.leadGateSettings, the console's Tour Info). */
export function leadGateSettings(tour: TourRow): {
  mode: string;
  markerId: string | null;
  seconds: number | null;
  approval: boolean;
} {
  const mode = tour.lead_gate_marker_id
    ? LEAD_GATE_MODES.room
    : tour.lead_gate_seconds
      ? LEAD_GATE_MODES.seconds
      : LEAD_GATE_MODES.off;
  return {
    mode,
    markerId: tour.lead_gate_marker_id,
    seconds: tour.lead_gate_seconds,
    approval: tour.lead_gate_approval,
  };
}

/** The grants the `tour(access:)` query was given, by the row it answered (the row's resolvers read it). */
const grantsByRow = new WeakMap<object, unknown>();

/** Remembers the grant a tour row was answered with: its clips and its leadGate field depend on it. */
export function noteTourGrant<T extends object>(row: T, grant: unknown): T {
  grantsByRow.set(row, grant);
  return row;
}

/**
 * The gate a tour row shows (what its passes name): an audience link's own gate when the row was read through a link
 * that sets one, else the tour's (services/tour-access/grants.ts TOUR_GATE).
 */
function gateIdOf(tour: object): string {
  const link = linkViewOf(tour)?.link;
  return link?.lead_gate_mode ? link.id : TOUR_GATE;
}

/**
 * Whether this caller is through the gate the row shows: no gate, a member of its company, or a visitor holding a pass
 * granted at that very gate that its lead still holds (passes.ts: a pass from a link's own form, which may not wait
 * for approval, opens no other gate; a revoked one opens nothing).
 */
async function throughGate(services: Services, auth: AuthInfo | null, tour: TourRow): Promise<boolean> {
  if (!tour.lead_gate_marker_id && !tour.lead_gate_seconds) return true;
  if (auth && (auth.companyId === tour.company_id || auth.isSuperAdmin)) return true;
  return holdsGatePass(services, tour, grantsByRow.get(tour), gateIdOf(tour));
}

/** The tour's clips as this caller may have them: up to the gate's room for a visitor not through it. */
export async function clipsForCaller(
  services: Services,
  auth: AuthInfo | null,
  tour: TourRow,
  clips: ClipRow[],
): Promise<ClipRow[]> {
  if (!tour.lead_gate_marker_id || (await throughGate(services, auth, tour))) return clips;
  const marker = await services.db
    .selectFrom('markers')
    .select('frame_index')
    .where('id', '=', tour.lead_gate_marker_id)
    .executeTakeFirst();
  if (!marker) return clips;
  return clips.slice(0, clipsBeforeGate(clips, Math.floor(marker.frame_index)));
}

/** Tour.leadGate: what the player needs to ask for the form (null without a gate). */
export async function leadGateForCaller(
  services: Services,
  auth: AuthInfo | null,
  tour: TourRow,
): Promise<{ roomName: string | null; seconds: number | null; approval: boolean; open: boolean } | null> {
  if (!tour.lead_gate_marker_id && !tour.lead_gate_seconds) return null;
  const marker = tour.lead_gate_marker_id
    ? await services.db
        .selectFrom('markers')
        .select('name')
        .where('id', '=', tour.lead_gate_marker_id)
        .executeTakeFirst()
    : undefined;
  return {
    roomName: marker ? await gateRoomShown(services, tour, marker.name) : null,
    seconds: tour.lead_gate_seconds,
    approval: tour.lead_gate_approval,
    open: await throughGate(services, auth, tour),
  };
}

/**
 * The gate's room as the caller's view names it. Through an audience link that hides that room the name would give
 * the hidden room away: the form names the first room the link shows after the gate instead, or none ('': still a
 * room gate to the player, with the form's plain title).
 */
async function gateRoomShown(services: Services, tour: TourRow, name: string): Promise<string> {
  const view = linkViewOf(tour);
  if (!view?.frames || !tour.lead_gate_marker_id) return name;
  const markers = await services.db
    .selectFrom('markers')
    .select(['id', 'name', 'frame_index'])
    .where('tour_id', '=', tour.id)
    .orderBy('frame_index')
    .orderBy('id')
    .execute();
  const shown = new Set(viewMarkers(view, markers).map((m) => m.id));
  if (shown.has(tour.lead_gate_marker_id)) return name;
  const gateFrame = markers.find((m) => m.id === tour.lead_gate_marker_id)?.frame_index ?? 0;
  return markers.find((m) => m.frame_index >= gateFrame && shown.has(m.id))?.name ?? '';
}

/** The tour a gate lead is left on, with its gate: refused when the tour has none. */
export function assertGated(tour: Pick<TourRow, 'lead_gate_marker_id' | 'lead_gate_seconds'>): void {
  if (!tour.lead_gate_marker_id && !tour.lead_gate_seconds)
    throw new AppError(ERROR_CODES.BAD_USER_INPUT, LEAD_GATE_TEXTS.noGate);
}
