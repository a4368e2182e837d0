/** Player-local constants that the shared contract does not hold. */

/** Attribute (kebab) → property (camelCase). Boolean attributes default to false. */
export const ATTRIBUTES = {
  'tour-id': 'tourId',
  api: 'api',
  mode: 'mode',
  'disabled-controls': 'disabledControls',
  'hi-res': 'hiRes',
  'live-viewing': 'liveViewing',
  'live-session': 'liveSession',
  'host-events': 'hostEvents',
  debug: 'debug',
  'allowed-origins': 'allowedOrigins',
  'super-admin': 'superAdmin',
  'start-room': 'startRoom',
  'start-frame': 'startFrame',
  unbranded: 'unbranded',
  loading: 'loading',
  'home-url': 'homeUrl',
  'audience-link': 'audienceLink',
} as const;

export const MODES = { external: 'external', preview: 'preview', edit: 'edit', agent: 'agent' } as const;
export type PlayerMode = (typeof MODES)[keyof typeof MODES];

export const STATUSES = {
  idle: 'idle',
  loading: 'loading',
  ready: 'ready',
  error: 'error',
} as const;
export type PlayerStatus = (typeof STATUSES)[keyof typeof STATUSES];

export const TRAVEL = { idle: 'idle', forward: 'forward', backward: 'backward' } as const;
export type TravelStatus = (typeof TRAVEL)[keyof typeof TRAVEL];

/** Tour ids are `tour_` followed by a UUID; anything else is an Invalid Link. */
export const TOUR_ID_PATTERN = /^tour_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Decoded-frame cache budget. 720p I420 is 1.38 MB a frame, 360p 0.35 MB; with the thumbnails and
 * the frames in transit (a high batch per worker, up to four workers) peak decoded memory stays under 150 MB whatever
 * the tour length: memory stays flat however long the tour. With `hi-res` off the low rendition gets both budgets.
 */
export const CACHE_BUDGET = {
  /** 69 frames at 720p: the high window (61 frames) plus a fast-travel destination and slack. */
  highBytes: 96 * 1024 * 1024,
  /** 42 frames at 360p: the low window ahead of the playhead (placeholders when high is late). */
  lowBytes: 14 * 1024 * 1024,
  /**
   * The 360p frames on a device under 4 GB of memory (no 720p there): the 61-frame window around the
   * playhead and slack (81 frames), so cache, thumbnails and bitmaps stay near 50 MB on a phone. With 4 GB or more and
   * 720p switched off, the 360p frames get both budgets above.
   */
  lowMemoryBytes: 28 * 1024 * 1024,
  /** One keyframe thumbnail per clip, sized so all of them fit this budget (jump placeholders). */
  thumbnailBytes: 12 * 1024 * 1024,
} as const;

/** Decode-ahead window in frames, in and against the direction of travel. Each fits its budget. */
export const DECODE_WINDOW = {
  highAhead: 48,
  highBehind: 12,
  /** Low frames ahead while high is on; with `hi-res` off the low rendition uses the high window sizes. */
  lowAhead: 36,
} as const;

/** Local storage key for the one-at-a-time AI marker generation. */
export const AI_STORAGE_KEY = 'roomwalk.aiMarkers.active';

/** Window message type sent up to a parent page when the frame changes by user input. */
export const OUTGOING_MESSAGE_TYPES = {
  frame: 'roomwalk_player_frame',
  ready: 'roomwalk_player_ready',
} as const;
