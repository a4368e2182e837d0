/** Tour-side validation. */
import { z } from '../zod.js';
import {
  MIN_RESOLUTION,
  THUMBNAIL_EXTENSIONS,
  TOUR_DESCRIPTION_MAX,
  TOUR_LISTING_LINK_MAX,
  TOUR_TITLE_MAX,
  VIDEO_MAX_SECONDS,
  VIDEO_MIN_SECONDS,
} from '../constants.js';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';
import { VALIDATION as V } from '../messages.js';
import { contactNumberField, emailField } from './account.js';

export const tourInfoSchema = z.object({
  title: z.string({ error: V.titleRequired }).trim().min(1, V.titleRequired).max(TOUR_TITLE_MAX, V.maxChars),
  listingLink: z
    .string()
    .trim()
    .max(TOUR_LISTING_LINK_MAX, V.maxChars)
    .refine((v) => v === '' || /^https?:\/\/\S+$/i.test(v), V.invalidUrl)
    .optional()
    .nullable(),
  description: z.string().trim().max(TOUR_DESCRIPTION_MAX, V.maxChars).optional().nullable(),
});
export type TourInfoInput = z.infer<typeof tourInfoSchema>;

export const markerNameSchema = z.string().trim().min(1, V.markerNameEmpty).max(60, V.maxChars);
export const customMarkerNameSchema = z.string().trim().min(1, V.markerNameRequired).max(60, V.maxChars);

export const leadFormSchema = z.object({
  name: z.string({ error: V.nameRequired }).trim().min(1, V.nameRequired).max(60, V.maxChars),
  surname: z.string().trim().max(60, V.maxChars).optional().nullable(),
  email: emailField,
  contactNumber: z
    .union([z.literal(''), contactNumberField])
    .optional()
    .nullable(),
  turnstileToken: z.string({ error: V.humanCheckRequired }).min(1, V.humanCheckRequired),
});
export type LeadFormInput = z.infer<typeof leadFormSchema>;

export interface VideoMeta {
  durationSeconds: number;
  width: number;
  height: number;
}

export interface VideoCheckFailure {
  code: ErrorCode;
  message: string;
}

/** Checks a video: 10 s to 600 s, at least 1280x720 landscape or 720x1280 portrait. */
export function checkVideoMeta(meta: VideoMeta): VideoCheckFailure | null {
  if (!(meta.durationSeconds >= VIDEO_MIN_SECONDS))
    return { code: ERROR_CODES.VIDEO_TOO_SHORT, message: V.videoTooShort };
  if (meta.durationSeconds > VIDEO_MAX_SECONDS) return { code: ERROR_CODES.VIDEO_TOO_LONG, message: V.videoTooLong };
  const portrait = meta.height > meta.width;
  const min = portrait ? MIN_RESOLUTION.portrait : MIN_RESOLUTION.landscape;
  if (meta.width < min.width || meta.height < min.height)
    return { code: ERROR_CODES.VIDEO_RESOLUTION_LOW, message: V.videoResolutionLow };
  return null;
}

/** Thumbnail file names accepted (.jpg, .jpeg, .png). */
export function isAcceptedThumbnailName(name: string): boolean {
  const lower = name.toLowerCase();
  return THUMBNAIL_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Video file extensions accepted for upload. */
export const VIDEO_EXTENSIONS = ['mp4', 'mov', 'm4v', 'webm', 'mkv', '3gp', 'hevc'] as const;
export const fileExtensionSchema = z
  .string()
  .trim()
  .transform((s) => s.replace(/^\./, '').toLowerCase())
  .refine(
    (s) => (VIDEO_EXTENSIONS as readonly string[]).includes(s),
    'This file type is not supported. Please upload a video.',
  );
