/**
 * The rooms of a visit: a beacon's segments (the shared visitBeaconSchema bounds them) summed per room in the order
 * first entered, and the room the visit ended in; and how a room is named and a visit's path written.
 */
import { formatDuration, VISIT_BEACON_LIMITS, type RoomSegment } from '@roomwalk/shared';

/** The stretch before the first marker has no marker name: it is recorded as '' and shown as this. */
const ENTRANCE_ROOM = 'Entrance';

export interface VisitRoom {
  name: string;
  seconds: number;
}

/** Sums the segments per room, in the order each room was first entered; the last segment's room is where it ended. */
export function summariseSegments(segments: readonly RoomSegment[]): {
  rooms: VisitRoom[];
  exitRoom: string | null;
  seconds: number;
} {
  const byName = new Map<string, VisitRoom>();
  let total = 0;
  for (const s of segments) {
    const name = s.room.trim();
    const room = byName.get(name) ?? { name, seconds: 0 };
    room.seconds = Math.min(VISIT_BEACON_LIMITS.secondsMax, room.seconds + s.seconds);
    byName.set(name, room);
    total += s.seconds;
  }
  const last = segments.at(-1);
  return { rooms: [...byName.values()], exitRoom: last ? last.room.trim() : null, seconds: total };
}

/** A room's name as shown: the stretch before the first marker is the Entrance. */
export const roomLabel = (name: string): string => name || ENTRANCE_ROOM;

/** "Kitchen 1 min 30 s, Master Bedroom 40 s". */
export const formatRoomPath = (rooms: readonly VisitRoom[]): string =>
  rooms.map((r) => `${roomLabel(r.name)} ${formatDuration(r.seconds)}`).join(', ');
