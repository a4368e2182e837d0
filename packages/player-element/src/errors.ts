/** Typed player errors; one short page per code lives in docs/errors/. */
export const ERROR_CODES = {
  INVALID_LINK: 'INVALID_LINK',
  TOUR_REMOVED: 'TOUR_REMOVED',
  QUERY_FAILED: 'QUERY_FAILED',
  DECODE_FAILED: 'DECODE_FAILED',
  LOAD_TIMEOUT: 'LOAD_TIMEOUT',
  MARKER_FAILED: 'MARKER_FAILED',
  AI_MARKERS_FAILED: 'AI_MARKERS_FAILED',
} as const;
export type TourPlayerErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

const ERROR_CATEGORIES = { network: 'network', media: 'media', input: 'input', server: 'server' } as const;
export type TourPlayerErrorCategory = (typeof ERROR_CATEGORIES)[keyof typeof ERROR_CATEGORIES];

const CATEGORY: Record<TourPlayerErrorCode, TourPlayerErrorCategory> = {
  INVALID_LINK: 'input',
  TOUR_REMOVED: 'server',
  QUERY_FAILED: 'network',
  DECODE_FAILED: 'media',
  LOAD_TIMEOUT: 'network',
  MARKER_FAILED: 'server',
  AI_MARKERS_FAILED: 'server',
};

export class TourPlayerError extends Error {
  readonly code: TourPlayerErrorCode;
  readonly category: TourPlayerErrorCategory;
  constructor(code: TourPlayerErrorCode, message: string) {
    super(message);
    this.name = 'TourPlayerError';
    this.code = code;
    this.category = CATEGORY[code];
  }
}
