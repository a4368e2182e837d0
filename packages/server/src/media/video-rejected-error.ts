/** The one error processing raises for a video the user must replace; everything else is our failure, not theirs. */
import { ERROR_CODES, ERROR_TEXTS, type ErrorCode } from '@roomwalk/shared';

/**
 * A video that cannot become a tour. `code` is one of VIDEO_TOO_SHORT, VIDEO_TOO_LONG, VIDEO_RESOLUTION_LOW,
 * VIDEO_INVALID; `userMessage` is the spec text to store in the tour's logs and show; `message` carries the
 * technical detail for our logs only.
 */
export class VideoRejectedError extends Error {
  override readonly name = 'VideoRejectedError';
  constructor(
    readonly code: ErrorCode,
    readonly userMessage: string,
    detail?: string,
  ) {
    super(detail ? `${userMessage} (${detail})` : userMessage);
  }

  /**
   * A file that is not a video we can read (unknown container, no video stream, undecodable, truncated before its
   * index). The spec has no text of its own for this; the failed card says what is wrong with the file, where the
   * general upload failure ("Tour upload failed") told the user nothing.
   */
  static invalid(detail: string): VideoRejectedError {
    return new VideoRejectedError(ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoUnreadable, detail);
  }

  /** A file cut off part-way (its index names more than the file holds, or the index itself is missing). */
  static incomplete(detail: string): VideoRejectedError {
    return new VideoRejectedError(ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoIncomplete, detail);
  }
}
