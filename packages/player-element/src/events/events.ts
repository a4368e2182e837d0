import type { PlayerStatus, TravelStatus } from '../constants.js';
import type { TourPlayerError } from '../errors.js';
import type { Marker } from '../api/types.js';
import type { CapturedDetails } from '../live-panel/storage.js';
import type { ViewingSessionRequestLike } from '../live-call/protocol.js';

/** Detail of every `tour-*` event the player and its parts fire. */
export interface TourEventDetails {
  'tour-ready': { totalFrames: number };
  /** Fires on user input only (drag, wheel, touch, keyboard, marker, host message), never when code sets the frame. */
  'tour-frame-change': { frame: number; source: 'drag' | 'wheel' | 'touch' | 'keyboard' | 'marker' | 'host' };
  'tour-marker-change': { marker: Marker | null };
  /** The room (the last marker at or before the playhead) changed; `room` is its name, null before the first marker. */
  'tour-room-change': { room: string | null; marker: Marker | null; frame: number };
  'tour-status-change': { status: PlayerStatus; travel: TravelStatus };
  'tour-error': { error: TourPlayerError };
  /** A notice the console may show as a toast, in one of the notification variants (success, warning, error, info). */
  'tour-notice': { message: string; variant: 'success' | 'warning' | 'error' | 'info' };
  /** Requests from the drawer up to the player. */
  'tour-marker-jump-request': { marker: Marker };
  'tour-marker-add-request': { name: string; custom: boolean };
  'tour-marker-rename-request': { marker: Marker; name: string };
  'tour-marker-delete-request': { marker: Marker };
  'tour-ai-markers-request': Record<string, never>;
  'tour-menu-request': Record<string, never>;
  /** From `<tour-live-panel>`: the viewer's lead was accepted (was `live-lead`). */
  'tour-live-lead': { tourLead: CapturedDetails; viewingSessionRequest: ViewingSessionRequestLike | null };
  /** From `<tour-live-panel>`: the call ended or the panel was closed (was `live-close`). */
  'tour-live-close': Record<string, never>;
}

export type TourEventName = keyof TourEventDetails;
export type TourEvent<K extends TourEventName> = CustomEvent<TourEventDetails[K]>;

declare global {
  interface GlobalEventHandlersEventMap {
    'tour-ready': TourEvent<'tour-ready'>;
    'tour-frame-change': TourEvent<'tour-frame-change'>;
    'tour-marker-change': TourEvent<'tour-marker-change'>;
    'tour-room-change': TourEvent<'tour-room-change'>;
    'tour-status-change': TourEvent<'tour-status-change'>;
    'tour-error': TourEvent<'tour-error'>;
    'tour-notice': TourEvent<'tour-notice'>;
    'tour-marker-jump-request': TourEvent<'tour-marker-jump-request'>;
    'tour-marker-add-request': TourEvent<'tour-marker-add-request'>;
    'tour-marker-rename-request': TourEvent<'tour-marker-rename-request'>;
    'tour-marker-delete-request': TourEvent<'tour-marker-delete-request'>;
    'tour-ai-markers-request': TourEvent<'tour-ai-markers-request'>;
    'tour-menu-request': TourEvent<'tour-menu-request'>;
    'tour-live-lead': TourEvent<'tour-live-lead'>;
    'tour-live-close': TourEvent<'tour-live-close'>;
  }
}

/** The one typed way to fire a `tour-*` event: bubbling and composed. */
export function emit<K extends TourEventName>(target: EventTarget, name: K, detail: TourEventDetails[K]): boolean {
  return target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable: false }));
}
