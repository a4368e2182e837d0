/** Public entry: registers <tour-player> and <tour-markers-drawer> and exports their types. */
export { TourPlayer } from './tour-player/tour-player.js';
export { TourMarkersDrawer } from './markers-drawer/markers-drawer.js';
export {
  ATTRIBUTES,
  MODES,
  STATUSES,
  TRAVEL,
  OUTGOING_MESSAGE_TYPES,
  type PlayerMode,
  type PlayerStatus,
  type TravelStatus,
} from './constants.js';
export { ERROR_CODES, TourPlayerError, type TourPlayerErrorCode, type TourPlayerErrorCategory } from './errors.js';
export type { TourEventDetails, TourEventName, TourEvent } from './events/events.js';
export type { Marker, Clip, PlayerTour } from './api/types.js';
export { parseHostMessage } from './controllers/host-bridge-controller.js';
