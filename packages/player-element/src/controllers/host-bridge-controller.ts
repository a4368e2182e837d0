import type { ReactiveController } from 'lit';
import { MESSAGE_TYPES } from '@roomwalk/shared/constants';
import type { OUTGOING_MESSAGE_TYPES } from '../constants.js';

import type { PlayerContext } from '../store/player-context.js';

/** Where an accepted host message goes: the playhead's requests. */
export interface HostRequests {
  scroll(frameIndex: number): void;
  marker(frameIndex: number): void;
  /** Fast-travel to a room by its marker's name (a listing page need not know the tour's frames). */
  room(name: string): void;
}

/** Longest room name a host message may carry (a marker name is far shorter). */
const ROOM_NAME_MAX = 200;

/**
 * Reads a well-formed `{type, frameIndex}` (or the socket's `{type, data: {frameIndex}}`) message, or a
 * `{type: 'roomwalk_marker', room}` naming the room to travel to.
 */
export function parseHostMessage(
  data: unknown,
): { type: 'scroll' | 'marker'; frameIndex: number } | { type: 'room'; room: string } | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as { type?: unknown; frameIndex?: unknown; room?: unknown; data?: { frameIndex?: unknown } };
  const type = d.type === MESSAGE_TYPES.scroll ? 'scroll' : d.type === MESSAGE_TYPES.marker ? 'marker' : null;
  if (!type) return null;
  if (type === 'marker' && typeof d.room === 'string' && d.room.trim() && d.room.length <= ROOM_NAME_MAX)
    return { type: 'room', room: d.room.trim() };
  const raw = d.frameIndex ?? d.data?.frameIndex;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) return null;
  return { type, frameIndex: raw };
}

/**
 * The origins a notice to the parent page is addressed to: the parent's own origin when it is allowed (known from
 * `location.ancestorOrigins` in Chromium and WebKit, from the referrer in Firefox); none when the parent is known and
 * not allowed; each allowed origin only when the parent cannot be known (a `no-referrer` page in Firefox). Posting to
 * every allowed origin made Firefox log an origin error for each one that is not the parent, on every notice.
 */
export function parentTargets(allowed: readonly string[], ancestor: string | undefined, referrer: string): string[] {
  let parent = ancestor && ancestor !== 'null' ? ancestor : undefined;
  if (!parent && referrer) {
    try {
      parent = new URL(referrer).origin;
    } catch {
      /* not a URL: unknown */
    }
  }
  if (!parent || parent === 'null') return [...allowed];
  return allowed.includes(parent) ? [parent] : [];
}

/**
 * Window messages in (roomwalk_scroll, roomwalk_marker) from allowed origins only, and
 * notices out to a parent page, addressed to its origin when that is allowed, never to '*'.
 */
export class HostBridgeController implements ReactiveController {
  private listening = false;
  rejected = 0;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly requests: HostRequests,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {
    this.sync();
  }

  hostUpdated(): void {
    this.sync();
  }

  hostDisconnected(): void {
    if (this.listening) window.removeEventListener('message', this.onMessage);
    this.listening = false;
  }

  private sync(): void {
    const want = this.ctx.config.hostMessagesEnabled;
    if (want && !this.listening) window.addEventListener('message', this.onMessage);
    if (!want && this.listening) window.removeEventListener('message', this.onMessage);
    this.listening = want;
  }

  isAllowed(origin: string): boolean {
    return origin === window.location.origin || this.ctx.config.allowedOriginList.includes(origin);
  }

  private onMessage = (e: MessageEvent): void => {
    const msg = parseHostMessage(e.data);
    if (!msg) return;
    if (!this.isAllowed(e.origin)) {
      this.rejected++;
      return;
    }
    if (msg.type === 'room') this.requests.room(msg.room);
    else if (msg.type === 'scroll') this.requests.scroll(msg.frameIndex);
    else this.requests.marker(msg.frameIndex);
  };

  /** Posts a public notice (frame index, ready) to the parent page, only to allowed origins. */
  notifyParent(
    type: (typeof OUTGOING_MESSAGE_TYPES)[keyof typeof OUTGOING_MESSAGE_TYPES],
    payload: Record<string, number>,
  ): void {
    // Notices go out while host messages are on: what sync() last read of the config, as the listener does.
    if (!this.listening || window.parent === window) return;
    const ancestor = window.location.ancestorOrigins?.[0];
    for (const origin of parentTargets(this.ctx.config.allowedOriginList, ancestor, document.referrer)) {
      try {
        window.parent.postMessage({ type, ...payload }, origin);
      } catch {
        /* an origin string that is not a valid origin */
      }
    }
  }
}
