/**
 * The visit beacon (POST /tour-visit, and the tourViewRecord mutation's input): what the player reports of one visit.
 * The server parses every beacon with this schema; the player builds its body from the same type and bounds. These
 * are the wire bounds only: the server also keeps a visit's figures plausible (rooms must be the tour's markers, time
 * at most the time since the visit's first beacon) when it writes them.
 */
import { z } from '../zod.js';
import { DEVICE_CLASSES, VISIT_BEACON_LIMITS as L } from '../constants.js';

const wholeSeconds = (tooMany: string) =>
  z
    .number({ message: 'Seconds must be a number.' })
    .int('Seconds must be a whole number.')
    .min(0, 'Seconds cannot be negative.')
    .max(L.secondsMax, tooMany);

const roomSegmentSchema = z.object({
  room: z.string({ message: 'A room name must be text.' }).max(L.roomNameMax, 'A room name is too long.'),
  seconds: wholeSeconds('Too many seconds in one room.'),
});

export const visitBeaconSchema = z.object({
  tourId: z.string({ message: 'This is not a valid tour link.' }).max(100, 'This is not a valid tour link.'),
  visitorId: z
    .string({ message: 'The visitor id is missing.' })
    .min(L.visitorIdMin, 'The visitor id is too short.')
    .max(L.visitorIdMax, 'The visitor id is too long.')
    .regex(/^[A-Za-z0-9_-]+$/, 'The visitor id may hold letters, digits, _ and - only.'),
  secondsSpent: wholeSeconds('Too many seconds for one visit.').default(0),
  roomsReached: z
    .number({ message: 'Rooms must be a number.' })
    .int('Rooms must be a whole number.')
    .min(0, 'Rooms cannot be negative.')
    .max(L.roomsReachedMax, 'Too many rooms for one visit.')
    .default(0),
  /** Time per room in the order walked ('' is the stretch before the first marker). */
  segments: z
    .array(roomSegmentSchema, { message: 'Segments must be a list.' })
    .max(L.segmentsMax, 'Too many room segments for one visit.')
    .optional(),
  fastTravels: z
    .number({ message: 'Fast travels must be a number.' })
    .int('Fast travels must be a whole number.')
    .min(0, 'Fast travels cannot be negative.')
    .max(L.fastTravelsMax, 'Too many fast travels for one visit.')
    .optional(),
  reachedEnd: z.boolean({ message: 'Reached end must be true or false.' }).optional(),
  device: z.enum(DEVICE_CLASSES, { message: 'The device must be phone, tablet or desktop.' }).optional(),
  /** The access grant of a password tour: without it, a protected tour's beacon is refused. */
  access: z.string({ message: 'The access grant must be text.' }).max(200, 'The access grant is too long.').optional(),
  /** The audience link the visitor came through (its `link=` token): the visit is counted under it. */
  link: z.string({ message: 'The link must be text.' }).max(64, 'The link is too long.').optional(),
});
/** A beacon as the player sends it. */
export type VisitBeacon = z.input<typeof visitBeaconSchema>;
/** A beacon as the server has read it (defaults filled in). */
export type VisitBeaconData = z.output<typeof visitBeaconSchema>;
export type RoomSegment = z.output<typeof roomSegmentSchema>;
