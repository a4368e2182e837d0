/** Who may see a tour (docs/access-and-privacy.md): the modes, the password's limits, the owner's input. */
import { z } from '../zod.js';
import { VALIDATION as V } from '../messages.js';

/** A public link (the default), a password, or signed-in members of the tour's company. */
export const TOUR_ACCESS = { public: 'PUBLIC', password: 'PASSWORD', company: 'COMPANY' } as const;
export type TourAccess = (typeof TOUR_ACCESS)[keyof typeof TOUR_ACCESS];
export const TourAccessSchema = z.enum(TOUR_ACCESS);

export const TOUR_PASSWORD_MIN = 4;
export const TOUR_PASSWORD_MAX = 128;

/** A tour password as the owner types it (kept exactly: spaces count). */
export const tourPasswordSchema = z
  .string()
  .min(TOUR_PASSWORD_MIN, V.tourPasswordShort)
  .max(TOUR_PASSWORD_MAX, V.maxChars);

/**
 * The owner's choice in Tour Info. A password is required when switching to PASSWORD without one set before; when
 * left empty on a tour that already has one, the old password stays (the server knows which).
 */
export const tourAccessInputSchema = z.object({
  access: TourAccessSchema,
  password: z
    .union([z.literal(''), tourPasswordSchema])
    .optional()
    .nullable(),
});
export type TourAccessInput = z.infer<typeof tourAccessInputSchema>;
