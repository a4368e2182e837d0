import type { ReactiveControllerHost } from 'lit';
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import { STATUSES, type PlayerMode, type PlayerStatus } from '../constants.js';
import { emit, type TourEventDetails, type TourEventName } from '../events/events.js';
import { TourPlayerError, type TourPlayerErrorCode } from '../errors.js';
import type { DecodeController } from '../decode/decode-controller.js';
import type { VideoFallback } from '../decode/video-fallback.js';
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
}

export type PlayerHost = ReactiveControllerHost & HTMLElement & { readonly renderRoot: HTMLElement | DocumentFragment };

/**
 * What every controller of one player shares: the element (events, layout, shadow root), its store, its configuration
 * and the frame sources (the decode controller, or the `<video>` fallback without WebCodecs). The element keeps it
 * private, so none of this is public API.
 */
export class PlayerContext {
  /** Set while a tour plays through the `<video>` fallback (no WebCodecs). */
  fallback: VideoFallback | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly host: PlayerHost,
    readonly store: PlayerStore,
    readonly config: PlayerConfig,
    readonly decoder: DecodeController,
  ) {}

  /** Total frames per tours §9 of what is playing. */
  get totalFrames(): number {
    return this.fallback?.total ?? this.decoder.total;
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

/** The element's properties as a PlayerConfig (read through on every access, so controllers see the current values). */
export function playerConfig(
  el: Omit<PlayerConfig, 'apiBase' | 'hostMessagesEnabled' | 'allowedOriginList'> & { readonly hostEvents: boolean; readonly allowedOrigins: string },
  apiBase: () => string,
): PlayerConfig {
  return {
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
    get tourId() {
      return el.tourId;
    },
    get mode() {
      return el.mode;
    },
    get authToken() {
      return el.authToken;
    },
    get hiRes() {
      return el.hiRes;
    },
    get liveViewing() {
      return el.liveViewing;
    },
    get liveSession() {
      return el.liveSession;
    },
    get startRoom() {
      return el.startRoom;
    },
    get startFrame() {
      return el.startFrame;
    },
    get loading() {
      return el.loading;
    },
    get loadingTimeoutMs() {
      return el.loadingTimeoutMs;
    },
    get unbranded() {
      return el.unbranded;
    },
  };
}
