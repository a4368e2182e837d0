/** The upload screen's rules: which error dialog a failure opens, and what its action does. */
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { FailureCode } from '../../graphql/errors.js';
import { TOUR_TEXTS } from '../tours/texts.js';

export type UploadErrorKind = 'general' | 'short' | 'long' | 'resolution' | 'unreadable';

/** Title, action button and whether the action picks a new file, per error kind. */
export const UPLOAD_ERRORS: Record<UploadErrorKind, { title: string; action: string; pickNew: boolean }> = {
  general: { title: ERROR_TEXTS.uploadFailedTitle, action: TOUR_TEXTS.retry, pickNew: false },
  short: { title: ERROR_TEXTS.videoTooShortTitle, action: TOUR_TEXTS.uploadLonger, pickNew: true },
  long: { title: ERROR_TEXTS.videoTooLongTitle, action: TOUR_TEXTS.uploadShorter, pickNew: true },
  resolution: { title: ERROR_TEXTS.videoResolutionTitle, action: TOUR_TEXTS.uploadHigherRes, pickNew: true },
  // Not in the spec: a file that is no video at all, caught before the upload; retrying the same file cannot help.
  unreadable: { title: ERROR_TEXTS.uploadFailedTitle, action: TOUR_TEXTS.uploadAnotherVideo, pickNew: true },
};

const KIND_BY_CODE: Partial<Record<FailureCode, UploadErrorKind>> = {
  [ERROR_CODES.VIDEO_TOO_SHORT]: 'short',
  [ERROR_CODES.VIDEO_TOO_LONG]: 'long',
  [ERROR_CODES.VIDEO_RESOLUTION_LOW]: 'resolution',
};

/** The dialog a failure's code opens: the video's length or resolution has its own, everything else the general one. */
export const errorKindOf = (code: FailureCode | undefined): UploadErrorKind =>
  (code && KIND_BY_CODE[code]) || 'general';
