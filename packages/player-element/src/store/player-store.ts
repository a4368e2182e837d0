import { computed, signal, type ReadonlySignal, type Signal } from '@preact/signals-core';
import { STATUSES, TRAVEL, type PlayerStatus, type TravelStatus } from '../constants.js';
import type { TourPlayerErrorCode } from '../errors.js';
import type { Marker, PlayerTour } from '../api/types.js';
import { sortMarkers } from '../markers/markers.js';
import type { GateState } from '../api/tour-access.js';

export type NoticeVariant = 'success' | 'warning' | 'error' | 'info';
/** An information dialog (marker calls); error dialogs come from `errorCode` through the error-dialog table. */
type InfoDialog = { title: string; body?: string } | null;
/** What is on the canvas: the playhead frame it was painted for, the rendition and the tour frame it shows. */
type Painted = { frame: number; rendition: string; tourFrame: number } | null;

/**
 * The state of one `<tour-player>`: one store per element, in signals. Controllers write it; the element's render
 * reads it (SignalWatcher re-renders on every signal it read). Public getters of the element read it too.
 */
export interface PlayerStore {
  readonly tour: Signal<PlayerTour | null>;
  /** The playhead (the frame the player is at, or travelling through). */
  readonly frame: Signal<number>;
  /** Frames whose clips are buffered (markers at or beyond them are disabled). */
  readonly loadedFrames: Signal<number>;
  /**
   * Total frames of the loaded tour, 0 before one is decoding: the last frame's index (frame-math.ts totalFrames), the
   * highest a visitor can scroll to, and the one total the controllers read (the tour loader
   * writes it from the frames that play when they start; while the decoder hands over to the `<video>` fallback it keeps
   * the tour's).
   */
  readonly totalFrames: Signal<number>;
  readonly status: Signal<PlayerStatus>;
  readonly travel: Signal<TravelStatus>;
  /** A fast travel is animating (other jumps are blocked). */
  readonly travelling: Signal<boolean>;
  readonly errorCode: Signal<TourPlayerErrorCode | null>;
  /** The error's message, shown under "Show More Information". */
  readonly errorDetail: Signal<string>;
  readonly showMore: Signal<boolean>;
  readonly dialog: Signal<InfoDialog>;
  readonly notice: Signal<{ message: string; variant: NoticeVariant } | null>;
  readonly drawerOpen: Signal<boolean>;
  readonly hintVisible: Signal<boolean>;
  readonly agentCardOpen: Signal<boolean>;
  /** Canvas size in CSS pixels. */
  readonly canvasCss: Signal<{ width: number; height: number }>;
  /** Lazy loading: the tour is known and its poster shown; clips wait until the element nears the viewport. */
  readonly deferred: Signal<boolean>;
  readonly painted: Signal<Painted>;
  readonly firstFramePainted: Signal<boolean>;
  readonly layout: Signal<'desktop' | 'mobile'>;
  /** A protected tour's password or members-only screen (controllers/access-gate-controller.ts), null otherwise. */
  readonly gate: Signal<GateState | null>;
  readonly sortedMarkers: ReadonlySignal<Marker[]>;
}

export function createPlayerStore(): PlayerStore {
  const tour = signal<PlayerTour | null>(null);
  return {
    tour,
    frame: signal(0),
    loadedFrames: signal(0),
    totalFrames: signal(0),
    status: signal<PlayerStatus>(STATUSES.idle),
    travel: signal<TravelStatus>(TRAVEL.idle),
    travelling: signal(false),
    errorCode: signal<TourPlayerErrorCode | null>(null),
    errorDetail: signal(''),
    showMore: signal(false),
    dialog: signal<InfoDialog>(null),
    notice: signal<{ message: string; variant: NoticeVariant } | null>(null),
    drawerOpen: signal(false),
    hintVisible: signal(true),
    agentCardOpen: signal(false),
    canvasCss: signal({ width: 640, height: 360 }),
    deferred: signal(false),
    painted: signal<Painted>(null),
    firstFramePainted: signal(false),
    layout: signal<'desktop' | 'mobile'>('mobile'),
    gate: signal<GateState | null>(null),
    sortedMarkers: computed(() => sortMarkers(tour.value?.markers ?? [])),
  };
}
