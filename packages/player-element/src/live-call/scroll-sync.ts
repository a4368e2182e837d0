/**
 * Scroll sync: our frame goes out as `roomwalk_scrolling`, throttled to one per 33 ms with the last
 * pending frame sent after 100 ms; frames from the others come in, go to `onRemoteFrame` and are re-broadcast in the
 * window as `roomwalk_marker` so the player fast-travels there.
 */
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import { LiveSocket, type LiveSocketOptions, type SocketStatus } from './live-socket.js';
import { LIVE_MESSAGES } from './protocol.js';

export interface ScrollSyncOptions extends LiveSocketOptions {
  /** A frame index from the others in the room. */
  onRemoteFrame?: (frameIndex: number) => void;
  /** Socket status: connecting, open, reconnecting (attempt n), closed, failed (with the spec's text). */
  onStatus?: (status: SocketStatus & { isSyncActive: boolean }) => void;
  /** Share an existing socket (the call's) instead of opening one. */
  socket?: LiveSocket;
  /** Post `roomwalk_marker` to this window for each remote frame (default true). */
  rebroadcast?: boolean;
  /** Start with sync on (default true). */
  active?: boolean;
  throttleMs?: number;
  pendingFlushMs?: number;
}

export interface ScrollSync {
  /** True while sync is on and the socket is open. */
  readonly isSyncActive: boolean;
  readonly socket: LiveSocket;
  /** Sends our frame (call on user scrolling only; frames we were moved to by the others are not echoed). */
  sendFrame(frameIndex: number): void;
  /** Closes sync if it is on, opens it if it is off; answers the new setting. */
  toggle(): boolean;
  enable(): void;
  disable(): void;
  destroy(): void;
}

export function createScrollSync(opts: ScrollSyncOptions): ScrollSync {
  const socket = opts.socket ?? new LiveSocket(opts);
  const throttleMs = opts.throttleMs ?? TIMINGS_MS.scrollThrottle;
  const pendingFlushMs = opts.pendingFlushMs ?? TIMINGS_MS.scrollPendingFlush;
  let release: (() => void) | null = null;
  let lastSentAt = -Infinity;
  let pending: number | null = null;
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  let lastRemote: number | null = null;

  const active = () => release !== null && socket.isOpen;
  const report = (s: SocketStatus) => opts.onStatus?.({ ...s, isSyncActive: active() });

  const put = (frameIndex: number) => {
    lastSentAt = Date.now();
    socket.send({ type: LIVE_MESSAGES.scrolling, tourId: opts.tourId, data: { frameIndex } });
  };

  const offStatus = socket.onStatus(report);
  const offMessage = socket.onMessage((m) => {
    if (release === null || m.type !== LIVE_MESSAGES.scrolling) return;
    const frameIndex = m.data?.frameIndex;
    if (typeof frameIndex !== 'number' || !Number.isFinite(frameIndex)) return;
    lastRemote = frameIndex;
    opts.onRemoteFrame?.(frameIndex);
    if (opts.rebroadcast !== false && typeof window !== 'undefined') {
      window.postMessage({ type: LIVE_MESSAGES.marker, frameIndex }, window.location.origin);
    }
  });

  const sync: ScrollSync = {
    get isSyncActive() {
      return active();
    },
    socket,
    sendFrame(frameIndex) {
      if (release === null || !Number.isFinite(frameIndex)) return;
      // The frame the others just moved us to is theirs: sending it back would bounce between the two.
      if (frameIndex === lastRemote) return;
      if (Date.now() - lastSentAt >= throttleMs) {
        pending = null;
        clearTimeout(flushTimer);
        flushTimer = undefined;
        put(frameIndex);
        return;
      }
      pending = frameIndex;
      flushTimer ??= setTimeout(() => {
        flushTimer = undefined;
        if (pending !== null) {
          const f = pending;
          pending = null;
          put(f);
        }
      }, pendingFlushMs);
    },
    toggle() {
      if (release) sync.disable();
      else sync.enable();
      return release !== null;
    },
    enable() {
      if (release) return;
      release = socket.acquire();
      if (socket.isOpen) report(socket.status);
    },
    disable() {
      if (!release) return;
      const r = release;
      release = null;
      pending = null;
      clearTimeout(flushTimer);
      flushTimer = undefined;
      r();
      report(socket.status);
    },
    destroy() {
      sync.disable();
      offStatus();
      offMessage();
    },
  };
  if (opts.active !== false) sync.enable();
  return sync;
}
