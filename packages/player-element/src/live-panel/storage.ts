/** What the viewer's browser keeps: the lead as `capturedDetails`, and its live session's tokens. */
import { safeLocalStorage } from '@roomwalk/shared/guarded-storage';
import type { ViewingSessionRequestLike } from '../live-call/protocol.js';

const CAPTURED_DETAILS_KEY = 'capturedDetails';
const SESSION_KEY = 'roomwalk.viewingSessionRequest';

export interface CapturedDetails {
  id?: string;
  name: string;
  surname?: string | null;
  email: string;
  contactNumber?: string | null;
  leadType?: string;
  tourId?: string;
}

function read<T>(key: string): T | null {
  try {
    const raw = safeLocalStorage().getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function readCapturedDetails(): CapturedDetails | null {
  const d = read<CapturedDetails>(CAPTURED_DETAILS_KEY);
  return d && typeof d.name === 'string' && typeof d.email === 'string' ? d : null;
}

export function storeLead(lead: CapturedDetails, tourId: string, request: ViewingSessionRequestLike | null): void {
  try {
    safeLocalStorage().setItem(CAPTURED_DETAILS_KEY, JSON.stringify(lead));
    if (request) safeLocalStorage().setItem(SESSION_KEY, JSON.stringify({ tourId, request }));
  } catch {
    /* storage full or blocked: the call still starts with the answer in memory */
  }
}

/** The stored session for this tour while it has not expired. */
export function readSession(tourId: string): ViewingSessionRequestLike | null {
  const s = read<{ tourId: string; request: ViewingSessionRequestLike }>(SESSION_KEY);
  if (!s || s.tourId !== tourId || !s.request?.signalingToken) return null;
  return new Date(s.request.expireTime).getTime() > Date.now() + 60_000 ? s.request : null;
}

export function forgetSession(): void {
  try {
    safeLocalStorage().removeItem(SESSION_KEY);
  } catch {
    /* ignore */
  }
}
