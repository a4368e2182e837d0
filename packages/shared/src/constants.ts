/** Product-wide limits and timings, one place for each number (what it bounds is said beside it). */

export const PRODUCT_NAME = 'Roomwalk' as const;
export const WIRE_PREFIX = 'roomwalk' as const;
export const SUPPORT_EMAIL = 'support@roomwalk.app' as const;

/** Window and socket message types (wire names). */
export const MESSAGE_TYPES = {
  scroll: `${WIRE_PREFIX}_scroll`,
  marker: `${WIRE_PREFIX}_marker`,
  scrolling: `${WIRE_PREFIX}_scrolling`,
} as const;

/**
 * Close codes of the live-viewing socket (/ws/tour-viewer-events); 4000–4005 are final (a reconnect gets the same
 * answer, or for 4005 would in turn replace the connection that replaced this one).
 */
export const LIVE_CLOSE_CODES = {
  normal: 1000,
  goingAway: 1001,
  unsupportedData: 1003,
  tooBig: 1009,
  badRequest: 4000,
  unauthorised: 4001,
  sessionExpired: 4002,
  forbidden: 4003,
  notFound: 4004,
  /** A newer connection of the same participant (same token) took this one's place in the room. */
  replaced: 4005,
  rateLimited: 4008,
  /** The room already holds its most sockets (not final: someone may leave). */
  roomFull: 4009,
} as const;

// Accounts: business constants and limits (names, reconnects, ...)
export const NAME_MAX = 30;
export const SURNAME_MAX = 30;
export const COMPANY_NAME_MAX = 30;
export const FEEDBACK_NAME_MAX = 30;
export const PASSWORD_MIN = 8;
export const DEFAULT_COUNTRY_CODE = 'en_ZA';
export const DEFAULT_PHONE_COUNTRY = 'ZA';
export const TEAM_INVITES_PAGE_SIZE = 100;
export const TOP_TOURS_PER_USER = 5;
export const PLAN_CARDS_MAX = 4;
export const REPORT_FORMATS = ['csv', 'pdf'] as const;
export const DEFAULT_REPORT_FORMAT = 'csv';

export const TIMINGS_MS = {
  activationRedirect: 2000,
  reactivationRedirect: 2000,
  feedbackSuccessReset: 3000,
  copyFeedback: 6000,
  snackbarAutoHide: 4000,
  toast: 6000,
  androidDoubleBack: 2000,
  requestTimeout: 5000,
  retryDelays: [3200, 6400],
  homeRefreshWhileProcessing: 10_000,
  shotsRefreshWhileProcessing: 5000,
  shotsRefreshAfterCall: [1000, 2000],
  reelCompletionDelay: 500,
  aiEditResult: 5000,
  aiGenerationResumeWindow: 60_000,
  aiCompletionCleanup: 1100,
  playerLoadingTimeout: 30_000,
  travelStatusReset: 2500,
  scrollThrottle: 33,
  scrollPendingFlush: 100,
  reconnectDelay: 3000,
} as const;

export const RETRY_STATUS_CODES = [500, 503, 504] as const;
export const MAX_RECONNECTS = 3;

// Tours: validation rules and business constants (title, description, ...)
export const TOUR_TITLE_MAX = 50;
export const TOUR_DESCRIPTION_MAX = 300;
export const TOUR_LISTING_LINK_MAX = 300;
export const TOURS_PAGE_SIZE = 10;
export const VIDEO_MIN_SECONDS = 10;
export const VIDEO_MAX_SECONDS = 600;
export const MIN_RESOLUTION = {
  landscape: { width: 1280, height: 720 },
  portrait: { width: 720, height: 1280 },
} as const;
export const THUMBNAIL_EXTENSIONS = ['.jpg', '.jpeg', '.png'] as const;
export const THUMBNAIL_ASPECT = 16 / 9;
export const REELS_MAX = 5;
export const TEAM_NAME_LABEL_MAX = 15;
export const AI_EDIT_JPEG_QUALITY = 0.85;
export const AI_EDIT_PRESETS = {
  removeFurniture: { label: 'Remove Furniture', prompt: 'empty rooms' },
  modernStyle: { label: 'Modern Style', prompt: 'modern staging' },
} as const;
export const DEFAULT_STAGING_PROMPT = 'modern staging with furniture';

/** Player constants. */
export const PLAYER = {
  drawerWidth: 250,
  drawerMaxHeight: 400,
  drawerOpenMinWidth: 2500,
  drawerCanvasRoom: 450,
  autoOpenPortraitSpareHeight: 150,
  autoOpenLandscapeSpareWidth: 450,
  joystickPixelsPerFrame: 80,
  joystickHintFrame: 5,
  joystickMoveMaxViewportHeight: 550,
  wheelScale: 1.5,
  defaultClipFrameCount: 36,
  canvasMaxWidth: 650,
  jumpStepFrames: 16.5,
  jumpSecondsPerFrame: 0.002,
  activeMarkerTolerance: 0.5,
  introLogoFadeRange: [10, 99],
  progressAnalyticsStep: 10,
  decodeBatchSize: { lowEnd: 5, mobile: 10, default: 20 },
  highRes: { width: 1280, height: 720 },
  lowRes: { width: 640, height: 360 },
  highResMinMemoryGb: 4,
  maxWorkers: 4,
} as const;

/**
 * The visit beacon's bounds (POST /tour-visit, schemas/visit-beacon.ts): the player stays within them, the server
 * refuses a beacon beyond them. A visit counts at most 6 hours; rooms are the tour's markers ('' before the first).
 */
export const VISIT_BEACON_LIMITS = {
  bodyBytesMax: 16 * 1024,
  visitorIdMin: 8,
  visitorIdMax: 64,
  secondsMax: 6 * 60 * 60,
  roomsReachedMax: 500,
  segmentsMax: 200,
  roomNameMax: 100,
  fastTravelsMax: 1000,
} as const;
/** The device classes a visit reports. */
export const DEVICE_CLASSES = ['phone', 'tablet', 'desktop'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

/** Default room labels and the 24 predefined marker names. */
export const DEFAULT_ROOM_LABELS = [
  'Bedroom',
  'Kitchen',
  'Bathroom',
  'Lounge',
  'Dining Room',
  'Living Room',
  'Pool',
  'Ensuite',
  'Scullery',
  'Patio',
  'Balcony',
] as const;

export const PREDEFINED_MARKER_NAMES = [
  'Entrance',
  'Foyer',
  'Hallway',
  'Guest Bedroom',
  'Master Bedroom',
  'Bedroom',
  'En-Suite Bathroom',
  'Bathroom',
  'Living Room',
  'Dining Room',
  'Kitchen',
  'Pantry',
  'Laundry Room',
  'Home Office',
  'Media Room',
  'Game Room',
  'Gym',
  'Garden',
  'Communal Area',
  'Terrace',
  'Balcony',
  'Attic',
  'Basement',
  'Garage',
] as const;

/** Tour, reel and shot status values. The spec names PROCESSED and FAILED; the rest are ours (docs/decisions.md). */
export const TOUR_STATUS = {
  UPLOADING: 'UPLOADING',
  PROCESSING: 'PROCESSING',
  PROCESSED: 'PROCESSED',
  FAILED: 'FAILED',
  DEACTIVATED: 'DEACTIVATED',
} as const;
export type TourStatusValue = (typeof TOUR_STATUS)[keyof typeof TOUR_STATUS];

export const REEL_STATUS = { PROCESSING: 'PROCESSING', FAILED: 'FAILED', CREATED: 'CREATED' } as const;
export type ReelStatusValue = (typeof REEL_STATUS)[keyof typeof REEL_STATUS];

export const SHOT_STATUS = { COMPLETED: 'COMPLETED', PROCESSING: 'PROCESSING', FAILED: 'FAILED' } as const;
export type ShotStatusValue = (typeof SHOT_STATUS)[keyof typeof SHOT_STATUS];

export const LEAD_TYPES = { LIVE_VIEWING: 'LIVE_VIEWING', CONTACT: 'CONTACT' } as const;
export type LeadType = (typeof LEAD_TYPES)[keyof typeof LEAD_TYPES];

export const AI_MARKER_ACTIONS = { ADD: 'ADD', REMOVE: 'REMOVE' } as const;

/** Query flag values of disabledControls. */
export const DISABLED_CONTROLS = ['menu', 'markers', 'feedback', 'ai-edit'] as const;

/** Dummy human-check token accepted in development. */
export const DEV_TURNSTILE_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

/** Fixed client credentials of the password grant; public by design, like a SPA client id. */
export const OAUTH_CLIENT = { id: 'roomwalk-console', secret: 'roomwalk-console-secret' } as const;

/** Login method preference values. */
export const LOGIN_METHODS = { roomwalk: 'roomwalk', google: 'google' } as const;
