/**
 * Live viewing through an audience link that hides rooms: the visitor's player counts only the frames the link shows,
 * the agent's the whole tour's, so each scroll message to or from such a visitor is moved between the two numberings
 * (shared VisibleFrames, as the link's answer was built). A tour frame the link hides is shown to the visitor as the
 * next frame the link shows (the agent walks through a room the visitor does not get: the visitor waits at the next
 * one), or the last one past the end.
 */
import { MESSAGE_TYPES, VisibleFrames } from '@roomwalk/shared';
import type { Services } from '../services.js';
import { liveLink } from '../audience-links/link-view.js';

/**
 * The frames a viewer joining through `token` sees: null when the link hides nothing; refused when it no longer opens.
 */
export async function viewerLinkFrames(
  services: Services,
  tourId: string,
  token: string,
): Promise<{ ok: true; frames: VisibleFrames | null } | { ok: false }> {
  const { link, live } = await liveLink(services, tourId, token);
  if (!link || !live) return { ok: false };
  if (!link.hidden_marker_ids.length) return { ok: true, frames: null };
  const [clips, markers] = await Promise.all([
    services.db.selectFrom('clips').select(['index', 'frame_count']).where('tour_id', '=', tourId).execute(),
    services.db.selectFrom('markers').select(['id', 'frame_index']).where('tour_id', '=', tourId).execute(),
  ]);
  const frames = new VisibleFrames(
    clips.map((c) => ({ index: c.index, frameCount: c.frame_count })),
    markers.map((m) => ({ id: m.id, frameIndex: m.frame_index })),
    link.hidden_marker_ids,
  );
  return { ok: true, frames: frames.hidesAny && frames.count > 0 ? frames : null };
}

/** A tour frame in the link's numbering (fraction kept); a hidden frame gives the next frame the link shows. */
export function tourToViewer(frames: VisibleFrames, frame: number): number {
  const whole = Math.floor(frame);
  const direct = frames.toVisible(whole);
  if (direct !== null) return direct + (frame - whole);
  const next = frames.ranges.find((r) => r.start > whole);
  return next ? frames.toVisible(next.start)! : frames.count - 1;
}

/** A frame of the link's numbering in the tour's (fraction kept). */
export function viewerToTour(frames: VisibleFrames, frame: number): number {
  const whole = Math.floor(frame);
  return frames.toTour(whole) + (frame - whole);
}

/** A relayed message's text with its scroll frame moved by `map`; any other message as it is. */
export function mapScrollText(text: string, map: (frame: number) => number): string {
  if (!text.includes(MESSAGE_TYPES.scrolling)) return text;
  const m = JSON.parse(text) as { type?: string; data?: { frameIndex?: unknown } };
  if (m.type !== MESSAGE_TYPES.scrolling || typeof m.data?.frameIndex !== 'number') return text;
  return JSON.stringify({ ...m, data: { ...m.data, frameIndex: map(m.data.frameIndex) } });
}
