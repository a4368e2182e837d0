/**
 * The live call state machine: INITIALIZING, CONNECTING,
 * RECONNECTING (n), CONNECTED, DISCONNECTED, ERROR, PERMISSION_DENIED, over a CallTransport (WebRTC by default,
 * Agora when the session carries an app id and rtc token). Framework-neutral: the element wraps it in its reactive
 * controller and renders `snapshot` (panel text, streams, warnings).
 */
import { AgoraTransport, type AgoraSdk } from './agora-transport.js';
import type { CallTransport, TransportEvent } from './call-transport.js';
import { LiveSocket } from './live-socket.js';
import { acquireLocalMedia, PermissionDeniedError, type GetUserMedia, type LocalMedia } from './media.js';
import { sessionFromToken, type LiveRole, type ViewingSessionRequestLike } from './protocol.js';
import { LIVE_TEXTS } from './texts.js';
import { WebRtcTransport } from './webrtc-transport.js';

export const CALL_STATES = {
  INITIALIZING: 'INITIALIZING',
  CONNECTING: 'CONNECTING',
  RECONNECTING: 'RECONNECTING',
  CONNECTED: 'CONNECTED',
  DISCONNECTED: 'DISCONNECTED',
  ERROR: 'ERROR',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
} as const;
export type CallState = (typeof CALL_STATES)[keyof typeof CALL_STATES];

export interface CallSnapshot {
  state: CallState;
  role: LiveRole;
  /** Reconnect attempt while RECONNECTING. */
  reconnectAttempt: number;
  /** The spec's error text in ERROR and PERMISSION_DENIED; null otherwise. */
  error: string | null;
  /** The video panel text for this state. */
  panelText: string;
  localStream: MediaStream | null;
  remoteStreams: ReadonlyMap<string, MediaStream>;
  /** We publish audio only (the camera was refused). */
  audioOnly: boolean;
  /** Offer a retry control. */
  canRetry: boolean;
}

export interface LiveCallEvents {
  /** Every state or stream change. */
  onChange?: (s: CallSnapshot) => void;
  /** A permission warning to show for 6 s. */
  onWarning?: (text: string) => void;
}

export interface LiveCallOptions extends LiveCallEvents {
  role: LiveRole;
  /** The session's tokens (tourLeadCreate for the viewer; Tour.viewingSessionRequest for the host). */
  request: ViewingSessionRequestLike;
  /** Server base URL for the socket. */
  url: string;
  tourId: string;
  /** Viewing session id; read from the signalling token when left out. */
  session?: string | null;
  /** The audience link a viewer watches through (its frames differ from the tour's when it hides rooms). */
  link?: string;
  /** Share the scroll sync socket (one socket per session). */
  socket?: LiveSocket;
  /** Choose or supply the transport; default: Agora when the request has appId and rtcToken, else WebRTC. */
  transport?: 'webrtc' | 'agora' | ((ctx: { socket: LiveSocket; session: string }) => CallTransport);
  loadAgora?: () => Promise<AgoraSdk>;
  getUserMedia?: GetUserMedia;
  RTCPeerConnectionImpl?: typeof RTCPeerConnection;
}

/** The panel text for a state. */
export function panelTextFor(s: Pick<CallSnapshot, 'state' | 'reconnectAttempt' | 'role' | 'remoteStreams'>): string {
  switch (s.state) {
    case CALL_STATES.INITIALIZING:
      return LIVE_TEXTS.initializing;
    case CALL_STATES.CONNECTING:
      return LIVE_TEXTS.connecting;
    case CALL_STATES.RECONNECTING:
      return LIVE_TEXTS.reconnecting(s.reconnectAttempt);
    case CALL_STATES.PERMISSION_DENIED:
      return LIVE_TEXTS.permissionDenied;
    case CALL_STATES.CONNECTED: {
      const remote = [...s.remoteStreams.values()][0];
      if (!remote) return s.role === 'host' ? LIVE_TEXTS.waitingOnViewer : LIVE_TEXTS.waitingOnAgent;
      return remote.getVideoTracks().some((t) => t.readyState === 'live' && t.enabled) ? '' : LIVE_TEXTS.cameraOff;
    }
    default:
      return LIVE_TEXTS.notConnected;
  }
}

export class CallStateMachine {
  private state: CallState = CALL_STATES.DISCONNECTED;
  private reconnectAttempt = 0;
  private error: string | null = null;
  private media: LocalMedia | null = null;
  private transport: CallTransport | null = null;
  private offTransport: (() => void) | null = null;
  private readonly remote = new Map<string, MediaStream>();
  private readonly listeners = new Set<(s: CallSnapshot) => void>();
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly socket: LiveSocket;
  private readonly session: string;
  private run = 0;

  constructor(private readonly opts: LiveCallOptions) {
    this.session = opts.session ?? sessionFromToken(opts.request.signalingToken) ?? '';
    this.socket =
      opts.socket ??
      new LiveSocket({
        url: opts.url,
        tourId: opts.tourId,
        session: this.session || null,
        token: opts.request.signalingToken,
        ...(opts.link ? { link: opts.link } : {}),
      });
    if (opts.onChange) this.listeners.add(opts.onChange);
  }

  get snapshot(): CallSnapshot {
    const base = {
      state: this.state,
      role: this.opts.role,
      reconnectAttempt: this.reconnectAttempt,
      remoteStreams: new Map(this.remote),
    };
    return {
      ...base,
      error: this.error,
      panelText: panelTextFor(base),
      localStream: this.transport?.localStream ?? this.media?.stream ?? null,
      audioOnly: this.media ? this.media.audio && !this.media.video : false,
      canRetry:
        this.state === CALL_STATES.ERROR ||
        this.state === CALL_STATES.PERMISSION_DENIED ||
        this.state === CALL_STATES.DISCONNECTED,
    };
  }

  /** The socket the call signals on (pass it to createScrollSync to share it). */
  get liveSocket(): LiveSocket {
    return this.socket;
  }

  subscribe(listener: (s: CallSnapshot) => void): () => void {
    this.listeners.add(listener);
    listener(this.snapshot);
    return () => this.listeners.delete(listener);
  }

  /** Start call: media first (both refused aborts), then the transport. */
  async start(): Promise<void> {
    const run = ++this.run;
    await this.teardown();
    this.error = null;
    this.reconnectAttempt = 0;
    if (this.expired()) return this.fail(LIVE_TEXTS.sessionExpired);
    this.set(CALL_STATES.INITIALIZING);
    let media: LocalMedia;
    try {
      media = await acquireLocalMedia(this.opts.getUserMedia);
    } catch (err) {
      if (run !== this.run) return;
      if (err instanceof PermissionDeniedError) {
        this.opts.onWarning?.(err.warning);
        this.error = LIVE_TEXTS.permissionsRequired;
        return this.set(CALL_STATES.PERMISSION_DENIED);
      }
      return this.fail(LIVE_TEXTS.connectionErrorOccurred);
    }
    if (run !== this.run) {
      for (const t of media.stream.getTracks()) t.stop();
      return;
    }
    this.media = media;
    if (media.warning) this.opts.onWarning?.(media.warning);
    this.set(CALL_STATES.CONNECTING);
    const transport = this.makeTransport();
    this.transport = transport;
    this.offTransport = transport.on((e) => this.onTransport(e));
    this.armExpiry();
    try {
      await transport.connect(media);
    } catch (err) {
      if (run !== this.run || this.state === CALL_STATES.ERROR) return;
      if (err instanceof PermissionDeniedError) {
        await this.teardown();
        this.opts.onWarning?.(err.warning);
        this.error = LIVE_TEXTS.permissionsRequired;
        return this.set(CALL_STATES.PERMISSION_DENIED);
      }
      this.fail(err instanceof Error && err.message ? err.message : LIVE_TEXTS.connectionErrorOccurred);
    }
  }

  /** The transport of the current call: 'agora' when the session carries an app id and rtc token, else 'webrtc'. */
  get transportKind(): CallTransport['kind'] | null {
    return this.transport?.kind ?? null;
  }

  /**
   * Mute or unmute our microphone. Over Agora the SDK's `setMuted` (the device stays open: quick to undo, no prompt);
   * over WebRTC the local audio tracks' `enabled` (silence is sent). Resolves false when the transport failed: the
   * call is then in ERROR with "Connection error occurred" (a mute that did not happen must not go on unnoticed).
   */
  setMicrophoneMuted(muted: boolean): Promise<boolean> {
    return this.toggleLocal('audio', !muted, (t) => t.setMicrophoneMuted?.(muted));
  }

  /**
   * Turn our camera off or back on. Over Agora the SDK's `setEnabled` (off releases the camera, its light goes off;
   * on opens it again and the local stream gets the new track); over WebRTC the local video tracks' `enabled` (black
   * frames are sent). Resolves false when the transport failed, with the call in ERROR as for the microphone.
   */
  setCameraOff(off: boolean): Promise<boolean> {
    return this.toggleLocal('video', !off, (t) => t.setCameraOff?.(off));
  }

  private async toggleLocal(
    kind: 'audio' | 'video',
    on: boolean,
    own: (t: CallTransport) => Promise<void> | undefined,
  ): Promise<boolean> {
    const transport = this.transport;
    const run = this.run;
    const done = transport ? own(transport) : undefined;
    if (!done) {
      const stream = transport?.localStream ?? this.media?.stream ?? null;
      for (const t of (kind === 'audio' ? stream?.getAudioTracks() : stream?.getVideoTracks()) ?? []) t.enabled = on;
      return true;
    }
    try {
      await done;
    } catch {
      // Reported as the call's other errors are, unless the call it belonged to is over already.
      if (run === this.run && transport === this.transport) this.fail(LIVE_TEXTS.connectionErrorOccurred);
      return false;
    }
    // The local stream may be a new one (a camera opened again).
    if (run === this.run && transport === this.transport) this.emit();
    return true;
  }

  /** Retry after an error: a fresh start. */
  retry(): Promise<void> {
    return this.start();
  }

  /** Leave the call: DISCONNECTED, remote users cleared, local tracks closed. */
  async reset(): Promise<void> {
    this.run += 1;
    await this.teardown();
    this.error = null;
    this.set(CALL_STATES.DISCONNECTED);
  }

  private makeTransport(): CallTransport {
    const t = this.opts.transport;
    if (typeof t === 'function') return t({ socket: this.socket, session: this.session });
    const { appId, rtcToken, viewingSessionUserId } = this.opts.request;
    const agora = t === 'agora' || (t === undefined && Boolean(appId && rtcToken));
    if (agora && appId && rtcToken) {
      return new AgoraTransport({
        appId,
        rtcToken,
        channel: this.session,
        uid: viewingSessionUserId,
        ...(this.opts.loadAgora ? { loadAgora: this.opts.loadAgora } : {}),
      });
    }
    return new WebRtcTransport(this.socket, {
      role: this.opts.role,
      ...(this.opts.RTCPeerConnectionImpl ? { RTCPeerConnectionImpl: this.opts.RTCPeerConnectionImpl } : {}),
    });
  }

  private onTransport(e: TransportEvent): void {
    if (e.type === 'remote-stream') {
      this.remote.set(e.id, e.stream);
      // A remote camera turned off or on changes the panel text.
      for (const track of e.stream.getTracks()) {
        track.onended = () => this.emit();
        track.onmute = () => this.emit();
        track.onunmute = () => this.emit();
      }
      this.emit();
      return;
    }
    if (e.type === 'remote-left') {
      this.remote.delete(e.id);
      this.emit();
      return;
    }
    if (e.type === 'media') {
      if (this.media) this.media = { ...this.media, audio: e.audio, video: e.video };
      this.opts.onWarning?.(e.video ? LIVE_TEXTS.micDenied : LIVE_TEXTS.cameraDenied);
      this.emit();
      return;
    }
    switch (e.state) {
      case 'connecting':
        this.set(CALL_STATES.CONNECTING);
        return;
      case 'connected':
        this.error = null;
        this.reconnectAttempt = 0;
        this.set(CALL_STATES.CONNECTED);
        return;
      case 'reconnecting':
        this.reconnectAttempt = e.attempt ?? this.reconnectAttempt + 1;
        this.set(CALL_STATES.RECONNECTING);
        return;
      case 'failed':
        this.fail(e.message ?? LIVE_TEXTS.connectionErrorOccurred);
        return;
      case 'disconnected':
        if (this.state !== CALL_STATES.ERROR) {
          this.remote.clear();
          this.set(CALL_STATES.DISCONNECTED);
        }
    }
  }

  private expired(): boolean {
    return new Date(this.opts.request.expireTime).getTime() <= Date.now();
  }

  private armExpiry(): void {
    clearTimeout(this.expiryTimer);
    const ms = new Date(this.opts.request.expireTime).getTime() - Date.now();
    this.expiryTimer = setTimeout(
      () => void this.teardown().then(() => this.fail(LIVE_TEXTS.sessionExpired)),
      Math.max(0, Math.min(ms, 2 ** 31 - 1)),
    );
  }

  private fail(text: string): void {
    const run = this.run;
    this.error = text;
    // A retry started meanwhile owns the state now.
    void this.teardown().then(() => run === this.run && this.set(CALL_STATES.ERROR));
    this.set(CALL_STATES.ERROR);
  }

  private async teardown(): Promise<void> {
    clearTimeout(this.expiryTimer);
    const transport = this.transport;
    this.transport = null;
    this.offTransport?.();
    this.offTransport = null;
    if (transport) await transport.leave().catch(() => undefined);
    for (const t of this.media?.stream.getTracks() ?? []) t.stop();
    this.media = null;
    this.remote.clear();
  }

  private set(state: CallState): void {
    this.state = state;
    this.emit();
  }

  private emit(): void {
    const s = this.snapshot;
    for (const l of [...this.listeners]) l(s);
  }
}
