/**
 * The room part of a visit beacon (issue 21): segments of time per room in the order walked, fast travels, whether the
 * visit reached the tour's end and the device class. Bounded here (the beacon route's body limit bounds the rest);
 * a visit keeps its rooms summed per room in the order first entered, and the room it ended in.
 */
import { z } from 'zod';
import { formatDuration } from '@roomwalk/shared';

/** The stretch before the first marker has no marker name: it is recorded as '' and shown as this. */
const ENTRANCE_ROOM = 'Entrance';
const ROOM_LIMITS = { segmentsMax: 200, nameMax: 100, secondsMax: 6 * 60 * 60, fastTravelsMax: 1000 } as const;
export const DEVICE_CLASSES = ['phone', 'tablet', 'desktop'] as const;
type DeviceClass = (typeof DEVICE_CLASSES)[number];

const SegmentSchema = z.object({
  room: z.string({ message: 'A room name must be text.' }).max(ROOM_LIMITS.nameMax, 'A room name is too long.'),
  seconds: z.number({ message: 'Seconds must be a number.' }).int('Seconds must be a whole number.').min(0, 'Seconds cannot be negative.').max(ROOM_LIMITS.secondsMax, 'Too many seconds in one room.'),
});

export const VisitRoomsSchema = z.object({
  segments: z.array(SegmentSchema, { message: 'Segments must be a list.' }).max(ROOM_LIMITS.segmentsMax, 'Too many room segments for one visit.').optional(),
  fastTravels: z
    .number({ message: 'Fast travels must be a number.' })
    .int('Fast travels must be a whole number.')
    .min(0, 'Fast travels cannot be negative.')
    .max(ROOM_LIMITS.fastTravelsMax, 'Too many fast travels for one visit.')
    .optional(),
  reachedEnd: z.boolean({ message: 'Reached end must be true or false.' }).optional(),
  device: z.enum(DEVICE_CLASSES, { message: 'The device must be phone, tablet or desktop.' }).optional(),
});
type VisitRoomsInput = z.infer<typeof VisitRoomsSchema>;

export interface VisitRoom {
  name: string;
  seconds: number;
}

/** Sums the segments per room, in the order each room was first entered; the last segment's room is where it ended. */
export function summariseSegments(segments: readonly { room: string; seconds: number }[]): { rooms: VisitRoom[]; exitRoom: string | null; seconds: number } {
  const byName = new Map<string, VisitRoom>();
  let total = 0;
  for (const s of segments) {
    const name = s.room.trim();
    const room = byName.get(name) ?? { name, seconds: 0 };
    room.seconds = Math.min(ROOM_LIMITS.secondsMax, room.seconds + s.seconds);
    byName.set(name, room);
    total += s.seconds;
  }
  const last = segments.at(-1);
  return { rooms: [...byName.values()], exitRoom: last ? last.room.trim() : null, seconds: total };
}

/** A room's name as shown: the stretch before the first marker is the Entrance. */
export const roomLabel = (name: string): string => name || ENTRANCE_ROOM;

/** "Kitchen 1 min 30 s, Master Bedroom 40 s". */
export const formatRoomPath = (rooms: readonly VisitRoom[]): string => rooms.map((r) => `${roomLabel(r.name)} ${formatDuration(r.seconds)}`).join(', ');
