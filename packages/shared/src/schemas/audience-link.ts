/**
 * Audience links (docs/access-and-privacy.md): labelled links to one tour, each with an optional expiry, rooms it hides
 * and an unbranded flag. The console's form and the server read the agent's input with this schema.
 */
import { z } from '../zod.js';
import { VALIDATION as V } from '../messages.js';
import { leadGateInputSchema } from './lead-gate.js';

export const AUDIENCE_LINK_LABEL_MAX = 60;
/** Links per tour, revoked ones not counted. */
export const AUDIENCE_LINKS_PER_TOUR = 50;
/** The `link=` parameter of a share URL and the player's `audience-link` attribute: 32 base64url characters. */
export const AUDIENCE_LINK_TOKEN = /^[A-Za-z0-9_-]{32}$/;

export const audienceLinkInputSchema = z.object({
  label: z.string().trim().min(1, V.audienceLinkLabelRequired).max(AUDIENCE_LINK_LABEL_MAX, V.audienceLinkLabelLong),
  /** The moment the link stops (the console sends the end of the chosen day in the agent's time zone); none: never. */
  expiresAt: z.iso.datetime({ offset: true, message: V.audienceLinkExpiryInvalid }).nullable().optional(),
  /** Marker ids of the rooms the link hides. */
  hiddenMarkerIds: z
    .array(z.string().max(100, V.audienceLinkRoomUnknown))
    .max(200, V.audienceLinkRoomUnknown)
    .default([]),
  unbranded: z.boolean().default(false),
  /** The link's own lead form (the tour's choices); none: the link's visitors meet the tour's own gate. */
  leadGate: leadGateInputSchema.nullable().optional(),
});
export type AudienceLinkInput = z.input<typeof audienceLinkInputSchema>;

/** The end of a calendar day (`YYYY-MM-DD`, the date input's value) in the browser's time zone, as an ISO moment. */
export function endOfLocalDay(date: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
