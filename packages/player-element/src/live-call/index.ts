/**
 * Live viewing in the browser: scroll sync and the live call. Framework-neutral and side-effect free, meant to be
 * loaded lazily (`await import('./live-call/index.js')`) when live viewing starts. Protocol: docs/live-viewing.md.
 */
export { createScrollSync, type ScrollSync, type ScrollSyncOptions } from './scroll-sync.js';
export { LiveSocket, type LiveSocketOptions, type SocketState, type SocketStatus } from './live-socket.js';
export {
  CallStateMachine,
  CALL_STATES,
  panelTextFor,
  type CallState,
  type CallSnapshot,
  type LiveCallEvents,
  type LiveCallOptions,
} from './call-state-machine.js';
export type { CallTransport, TransportEvent, TransportState } from './call-transport.js';
export { WebRtcTransport, type WebRtcTransportOptions } from './webrtc-transport.js';
export {
  AgoraTransport,
  defaultLoadAgora,
  type AgoraClient,
  type AgoraSdk,
  type AgoraTransportOptions,
} from './agora-transport.js';
export {
  acquireLocalMedia,
  PermissionDeniedError,
  MEDIA_CONSTRAINTS,
  type LocalMedia,
  type GetUserMedia,
} from './media.js';
export {
  LIVE_MESSAGES,
  CLOSE_CODES,
  FINAL_CLOSE_CODES,
  closeText,
  sessionFromToken,
  socketUrl,
  type LiveRole,
  type PeerInfo,
  type ServerMessage,
  type SignalData,
  type ViewingSessionRequestLike,
  type WelcomeMessage,
} from './protocol.js';
export { LIVE_TEXTS, WARNING_MS } from './texts.js';
