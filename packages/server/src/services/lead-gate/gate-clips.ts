/**
 * Where a tour's room gate cuts it: the clips wholly before the chosen room's first frame are everyone's; the clip that
 * holds that frame and every later one are the gated part, listed only to callers through the gate (a member of the
 * company, or a visitor holding the gate's pass) and served only signed (http/media.ts through the access index).
 */
import type { Services } from '../services.js';

interface ClipSpan {
  index: number;
  frame_count: number;
}

/** How many clips, in order, lie wholly before `gateFrame` (the frames of clip i start after clips 0..i-1). */
export function clipsBeforeGate(clips: readonly ClipSpan[], gateFrame: number): number {
  let start = 0;
  for (let i = 0; i < clips.length; i++) {
    start += clips[i]!.frame_count;
    if (start > gateFrame) return i;
  }
  return clips.length;
}

/** The room gate's frame for a tour (its marker's first frame), or null when the tour has no room gate. */
async function gateFrameOf(services: Services, tourId: string): Promise<number | null> {
  const row = await services.db
    .selectFrom('tours')
    .innerJoin('markers', 'markers.id', 'tours.lead_gate_marker_id')
    .select('markers.frame_index')
    .where('tours.id', '=', tourId)
    .executeTakeFirst();
  return row ? Math.floor(row.frame_index) : null;
}

/** The storage keys of the clips past the tour's room gate (both renditions), for the media route's check. */
export async function gatedKeys(services: Services, tourId: string): Promise<ReadonlySet<string> | null> {
  const frame = await gateFrameOf(services, tourId);
  if (frame === null) return null;
  const clips = await services.db
    .selectFrom('clips')
    .select(['index', 'frame_count', 'high_key', 'low_key'])
    .where('tour_id', '=', tourId)
    .orderBy('index')
    .execute();
  const kept = clipsBeforeGate(clips, frame);
  return new Set(clips.slice(kept).flatMap((c) => [c.high_key, c.low_key]));
}
