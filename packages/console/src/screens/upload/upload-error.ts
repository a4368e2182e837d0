/**
 * The upload flow's one error channel: every way it fails (the start refused in its answer's error/message, a GraphQL
 * or network error on any call, a part that never reached storage, the submit refused) becomes an UploadError with a
 * code and the user's words, thrown; the page maps the code to a dialog as data (upload-page.tsx UPLOAD_ERRORS).
 */
import { ERROR_CODES, ERROR_TEXTS, ErrorCodeSchema } from '@roomwalk/shared';
import { describeFailure, failureCode, type FailureCode } from '../../graphql/errors.js';

/** The GraphQL client's error, as graphql/errors.ts reads it (only the screen's hook holds the client itself). */
type CallError = Parameters<typeof failureCode>[0];

const CONNECTION_LOST = 'The connection was lost during the upload.';

export class UploadError extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** The user's words for a code, where the code has its own (the licence); else the server's. */
function wordsFor(code: FailureCode, message: string): string {
  return code === ERROR_CODES.NO_ACTIVE_LICENSE ? ERROR_TEXTS.noActiveLicense : message;
}

/** A failed GraphQL call of the flow. */
export function uploadErrorOf(error: CallError, fallback = 'The upload failed.'): UploadError {
  const code = failureCode(error) ?? ERROR_CODES.INTERNAL;
  if (code === 'NETWORK') return new UploadError(code, CONNECTION_LOST);
  return new UploadError(code, wordsFor(code, describeFailure(error, fallback)));
}

/** A refusal answered in a payload's error/message (uploadMultipartStart). */
export function uploadRefusal(code: string | null | undefined, message: string | null | undefined): UploadError {
  const known = ErrorCodeSchema.safeParse(code);
  const c = known.success ? known.data : ERROR_CODES.UPLOAD_INVALID;
  return new UploadError(c, wordsFor(c, message || 'The upload failed.'));
}

/** Anything else thrown inside the flow (Uppy's part failures are plain errors with the user's words). */
export function asUploadError(e: unknown): UploadError {
  if (e instanceof UploadError) return e;
  const message = e instanceof Error && e.message ? e.message : ERROR_TEXTS.unexpected;
  return new UploadError(ERROR_CODES.INTERNAL, message);
}
