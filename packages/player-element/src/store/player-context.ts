import type { ReactiveControllerHost } from 'lit';
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import { ATTRIBUTES, STATUSES, type PlayerMode, type PlayerStatus } from '../constants.js';
import { emit, type TourEventDetails, type TourEventName } from '../events/events.js';
import { TourPlayerError, type TourPlayerErrorCode } from '../errors.js';
import type { DecodeFocus, FrameSource } from '../frames/frame-source.js';
import type { NoticeVariant, PlayerStore } from './player-store.js';

/** The element's public properties as the controllers read them (a live view, never a copy). */
export interface PlayerConfig {
  readonly apiBase: string;
  readonly tourId: string;
  readonly mode: PlayerMode;
  readonly authToken: string | undefined;
  readonly hiRes: boolean;
  readonly liveViewing: boolean;
  readonly liveSession: string;
  readonly hostMessagesEnabled: boolean;
  readonly allowedOriginList: string[];
  readonly startRoom: string;
  readonly startFrame: number | undefined;
  readonly loading: 'lazy' | 'eager';
  readonly loadingTimeoutMs: number;
  readonly unbranded: boolean;
  /** An audience link's token (the share URL's `link=`): the tour as that link shows it. */
  readonly audienceLink: string;
}

export type PlayerHost = ReactiveControllerHost & HTMLElement & { readonly renderRoot: HTMLElement | DocumentFragment };

/**
 * What every controller of one player shares: the element (events, layout, shadow root), its store, its configuration
 * and the frames that play (the decoder's, or the `<video>` fallback's: one FrameSource). The element keeps it
 * private, so none of this is public API.
 */
export class PlayerContext {
  /**
   * The frames that play: what the canvas, the input and the element read (set by `play`: the element's constructor
   * gives the decoder's, the tour loader switches to the `<video>` fallback's).
   */
  frames!: FrameSource;
  /** Where the playhead steers the frames that play (the decode scheduler, or the `<video>` fallback). */
  focus!: DecodeFocus;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly host: PlayerHost,
    readonly store: PlayerStore,
    readonly config: PlayerConfig,
  ) {}

  /** From now on these frames play (the decoder's, or the `<video>` fallback's): no controller asks which. */
  play(frames: FrameSource, focus: DecodeFocus): void {
    this.frames = frames;
    this.focus = focus;
  }

  emit<K extends TourEventName>(name: K, detail: TourEventDetails[K]): void {
    emit(this.host, name, detail);
  }

  setStatus(status: PlayerStatus): void {
    if (this.store.status.peek() === status) return;
    this.store.status.value = status;
    this.emit('tour-status-change', { status, travel: this.store.travel.peek() });
  }

  /** A typed error: its dialog (the error-dialog table), the error status and `tour-error`. */
  fail(code: TourPlayerErrorCode, message: string): void {
    this.store.errorCode.value = code;
    this.store.errorDetail.value = message;
    this.setStatus(STATUSES.error);
    this.emit('tour-error', { error: new TourPlayerError(code, message) });
  }

  /** A notice inside the player (for the snackbar's time) and as `tour-notice` for the page. */
  showNotice(message: string, variant: NoticeVariant): void {
    this.emit('tour-notice', { message, variant });
    this.store.notice.value = { message, variant };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => (this.store.notice.value = null), TIMINGS_MS.snackbarAutoHide);
  }

  dispose(): void {
    clearTimeout(this.noticeTimer);
  }
}

/**
 * The element's properties a PlayerConfig reads through: every attribute's (ATTRIBUTES, the one list) and the two
 * without one.
 */
const READ_THROUGH = [...Object.values(ATTRIBUTES), 'authToken', 'loadingTimeoutMs'] as const;
type ReadThrough = (typeof READ_THROUGH)[number];
type Derived = 'apiBase' | 'hostMessagesEnabled' | 'allowedOriginList';

/**
 * What the element must hold for its config: the config's own values, and the attributes the derived ones come from.
 */
export type ConfigSource = Omit<PlayerConfig, Derived> & {
  readonly hostEvents: boolean;
  readonly allowedOrigins: string;
} & Readonly<Record<ReadThrough, unknown>>;

/**
 * The element's properties as a PlayerConfig, read through on every access (controllers see the current values): one
 * getter per ATTRIBUTES entry and the two properties without an attribute, so a new attribute needs no getter here; and
 * the three values derived from them (the server base, whether host messages are on, the allowed origins as a list).
 */
export function playerConfig(el: ConfigSource, apiBase: () => string): PlayerConfig {
  const config = {
    get apiBase() {
      return apiBase();
    },
    get hostMessagesEnabled() {
      return el.hostEvents || el.liveViewing;
    },
    get allowedOriginList() {
      return el.allowedOrigins
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
    },
  };
  for (const name of READ_THROUGH) Object.defineProperty(config, name, { get: () => el[name], enumerable: true });
  return config as PlayerConfig;
}
