/**
 * A lead gate per audience link (docs/access-and-privacy.md): a link may set its own gate (none, before a room, after
 * some seconds, with or without approval), which replaces the tour's for that link's visitors; a link without one shows
 * the tour's. The rest of the gate (the clips cut at its room, the pass, the form, the approval) runs as for the tour's
 * own gate on the tour row as the link shows it (`withLinkGate`). The link's room is kept in the tour's frames; the
 * frame a visitor of a link that hides rooms stopped at comes in the link's frames and is mapped back (VisibleFrames).
 */
import { LEAD_GATE_MODES, LEAD_GATE_TEXTS, VisibleFrames, type LeadGateInput } from '@roomwalk/shared';
import { badInput } from '../../core/errors.js';
import { decodeId } from '../../core/ids.js';
import type { AudienceLinkRow } from '../../db/tables/audience-links.js';
import type { TourRow } from '../../db/types.js';
import type { Services } from '../services.js';
import { clipsBeforeGate } from './gate-clips.js';

type LinkGate = Pick<
  AudienceLinkRow,
  'lead_gate_mode' | 'lead_gate_marker_id' | 'lead_gate_seconds' | 'lead_gate_approval'
>;
type TourGate = Pick<TourRow, 'lead_gate_marker_id' | 'lead_gate_seconds' | 'lead_gate_approval'>;

/** The gate a link's visitors meet: the link's own when it sets one, else the tour's. */
export function gateThroughLink<T extends TourGate>(tour: T, link: LinkGate | null | undefined): T {
  if (!link?.lead_gate_mode) return tour;
  const room = link.lead_gate_mode === LEAD_GATE_MODES.room ? link.lead_gate_marker_id : null;
  const seconds = link.lead_gate_mode === LEAD_GATE_MODES.seconds ? link.lead_gate_seconds : null;
  return {
    ...tour,
    lead_gate_marker_id: room,
    lead_gate_seconds: seconds,
    lead_gate_approval: (room !== null || seconds !== null) && link.lead_gate_approval,
  };
}

/**
 * The link's gate columns from the agent's choice (none: the tour's gate). The room must be one of the tour's, shown by
 * the link (a form before a room the link leaves out would name or wait for something its visitors never reach), and
 * something the link shows must play before it.
 */
export async function linkGateColumns(
  services: Services,
  tourId: string,
  choice: LeadGateInput | null | undefined,
  hidden: ReadonlySet<string>,
): Promise<Omit<LinkGate, 'lead_gate_approval'> & { lead_gate_approval: boolean }> {
  if (!choice)
    return { lead_gate_mode: null, lead_gate_marker_id: null, lead_gate_seconds: null, lead_gate_approval: false };
  let markerId: string | null = null;
  if (choice.mode === LEAD_GATE_MODES.room) {
    let id: string;
    try {
      id = decodeId('Marker', choice.markerId!);
    } catch {
      throw badInput(LEAD_GATE_TEXTS.roomNotInTour, 'leadGate.markerId');
    }
    const [markers, clips] = await Promise.all([
      services.db
        .selectFrom('markers')
        .select(['id', 'frame_index'])
        .where('tour_id', '=', tourId)
        .orderBy('frame_index')
        .orderBy('id')
        .execute(),
      services.db
        .selectFrom('clips')
        .select(['index', 'frame_count'])
        .where('tour_id', '=', tourId)
        .orderBy('index')
        .execute(),
    ]);
    const at = markers.findIndex((m) => m.id === id);
    if (at < 0) throw badInput(LEAD_GATE_TEXTS.roomNotInTour, 'leadGate.markerId');
    if (hidden.has(id)) throw badInput(LEAD_GATE_TEXTS.roomHiddenByLink, 'leadGate.markerId');
    const gateFrame = Math.floor(markers[at]!.frame_index);
    const before = clipsBeforeGate(clips, gateFrame);
    if (clips.length > 0 && hidden.size > 0) {
      const frames = new VisibleFrames(
        clips.map((c) => ({ index: c.index, frameCount: c.frame_count })),
        markers.map((m) => ({ id: m.id, frameIndex: m.frame_index })),
        hidden,
      );
      // A room whose every frame went with a hidden neighbour's clip is not shown either.
      const next = markers.slice(at + 1).find((n) => n.frame_index > markers[at]!.frame_index)?.frame_index;
      if (frames.roomStart(markers[at]!.frame_index, next ?? frames.totalFrames) === null)
        throw badInput(LEAD_GATE_TEXTS.roomHiddenByLink, 'leadGate.markerId');
      const firstClips = new Set(clips.slice(0, before).map((c) => c.index));
      if (!frames.keptClips.some((i) => firstClips.has(i)))
        throw badInput(LEAD_GATE_TEXTS.roomTooEarlyForLink, 'leadGate.markerId');
    } else if (clips.length > 0 && before === 0) throw badInput(LEAD_GATE_TEXTS.roomTooEarly, 'leadGate.markerId');
    markerId = id;
  }
  const gated = choice.mode !== LEAD_GATE_MODES.off;
  return {
    lead_gate_mode: choice.mode,
    lead_gate_marker_id: markerId,
    lead_gate_seconds: choice.mode === LEAD_GATE_MODES.seconds ? choice.seconds! : null,
    lead_gate_approval: gated && choice.approval,
  };
}

/**
 * The tour frame a link's visitor stopped at: the player counts the frames the link shows, the lead's "Stopped at" and
 * room path are in the tour's. Unchanged for a link that hides nothing.
 */
export async function tourFrameOfLink(
  services: Services,
  tourId: string,
  link: Pick<AudienceLinkRow, 'hidden_marker_ids'>,
  frame: number,
): Promise<number> {
  if (!link.hidden_marker_ids.length) return frame;
  const [clips, markers] = await Promise.all([
    services.db.selectFrom('clips').select(['index', 'frame_count']).where('tour_id', '=', tourId).execute(),
    services.db.selectFrom('markers').select(['id', 'frame_index']).where('tour_id', '=', tourId).execute(),
  ]);
  const frames = new VisibleFrames(
    clips.map((c) => ({ index: c.index, frameCount: c.frame_count })),
    markers.map((m) => ({ id: m.id, frameIndex: m.frame_index })),
    link.hidden_marker_ids,
  );
  return frames.count > 0 ? frames.toTour(frame) : frame;
}
