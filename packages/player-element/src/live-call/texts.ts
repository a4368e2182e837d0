/** Live viewing panel texts and the connection and permission texts, in one place for the UI. */
import { ERROR_TEXTS, formatTexts } from '@roomwalk/shared/messages';

export const LIVE_TEXTS = {
  goLive: 'Go Live',
  talkToAgent: 'Talk to Agent',
  leadFormTitle: 'Send notification for agent to join',
  initializing: 'Initializing',
  connecting: 'Connecting...',
  permissionDenied: 'Camera/Mic Permission Denied',
  notConnected: 'Not Connected',
  waitingOnViewer: 'Waiting on Viewer...',
  waitingOnAgent: 'Waiting on Agent...',
  cameraOff: 'Camera Off',
  reconnecting: formatTexts.reconnecting,
  connectionError: formatTexts.connectionError,
  sessionExpired: ERROR_TEXTS.sessionExpired,
  reconnectFailed: ERROR_TEXTS.reconnectFailed,
  websocketError: ERROR_TEXTS.websocketError,
  websocketCreateFailed: ERROR_TEXTS.websocketCreateFailed,
  connectionErrorOccurred: ERROR_TEXTS.connectionErrorOccurred,
  micDenied: ERROR_TEXTS.micDenied,
  cameraDenied: ERROR_TEXTS.cameraDenied,
  bothDenied: ERROR_TEXTS.bothDenied,
  permissionsRequired: ERROR_TEXTS.permissionsRequired,
} as const;

/** How long a permission warning stays (a toast). */
export const WARNING_MS = 6000;
