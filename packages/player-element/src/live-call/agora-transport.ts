/**
 * The Agora call transport (when the session carries `appId` and `rtcToken`): vp8, microphone `speech_standard`,
 * camera 480p. The SDK (`agora-rtc-sdk-ng`, about 400 KB gzip) is imported only when a call starts on a
 * session configured for Agora: `./agora-sdk.js` is its own chunk (`tour-player-agora.js` next to the script-tag
 * bundle). A failed load or join ends the call with "Connection error occurred" (docs/live-viewing.md).
 */
import { MAX_RECONNECTS, TIMINGS_MS } from '@roomwalk/shared/constants';
import { Emitter, type CallTransport, type TransportEvent } from './call-transport.js';
import { PermissionDeniedError, type LocalMedia } from './media.js';
import { LIVE_TEXTS } from './texts.js';

/** The part of the Agora Web SDK 4.x we use (the real SDK's types must satisfy it: see `defaultLoadAgora`). */
export interface AgoraLocalTrack {
  getMediaStreamTrack(): MediaStreamTrack;
  /** Keeps capturing, sends no media (the remote side sees `user-unpublished`); quick, never prompts. */
  setMuted(muted: boolean): Promise<void>;
  /** false stops capture (the device is released: the camera light goes off) and unpublishes; true opens the device
   * again, so the track's MediaStreamTrack is a new one afterwards. */
  setEnabled(enabled: boolean): Promise<void>;
  close(): void;
}
export interface AgoraRemoteUser {
  uid: string | number;
  hasAudio: boolean;
  hasVideo: boolean;
  audioTrack?: { play(): void; stop(): void; getMediaStreamTrack(): MediaStreamTrack } | undefined;
  videoTrack?: { getMediaStreamTrack(): MediaStreamTrack } | undefined;
}
type AgoraConnectionState = 'DISCONNECTED' | 'CONNECTING' | 'RECONNECTING' | 'CONNECTED' | 'DISCONNECTING';
export interface AgoraClient {
  join(appId: string, channel: string, token: string | null, uid?: string | number | null): Promise<unknown>;
  publish(tracks: AgoraLocalTrack | AgoraLocalTrack[]): Promise<void>;
  subscribe(user: AgoraRemoteUser | string | number, mediaType: 'audio' | 'video'): Promise<unknown>;
  leave(): Promise<void>;
  on(
    event: 'connection-state-change',
    listener: (cur: AgoraConnectionState, prev: AgoraConnectionState, reason?: string) => void,
  ): void;
  on(
    event: 'user-published' | 'user-unpublished',
    listener: (user: AgoraRemoteUser, mediaType: 'audio' | 'video' | 'datachannel') => void,
  ): void;
  on(event: 'user-left', listener: (user: AgoraRemoteUser, reason: string) => void): void;
  on(event: 'token-privilege-will-expire' | 'token-privilege-did-expire', listener: () => void): void;
  removeAllListeners(event?: string | symbol): unknown;
}
export interface AgoraSdk {
  createClient(config: { mode: 'rtc'; codec: 'vp8' }): AgoraClient;
  createMicrophoneAudioTrack(config: { encoderConfig: 'speech_standard' }): Promise<AgoraLocalTrack>;
  createCameraVideoTrack(config: { encoderConfig: '480p' }): Promise<AgoraLocalTrack>;
}

/** Imports the SDK chunk. Typed through the real SDK, so a change in its API that breaks us fails the type check. */
export const defaultLoadAgora = async (): Promise<AgoraSdk> => {
  const sdk: AgoraSdk = (await import('./agora-sdk.js')).default;
  return sdk;
};

export interface AgoraTransportOptions {
  appId: string;
  rtcToken: string;
  /** The Agora channel: the viewing session id (the server's token is for this channel). */
  channel: string;
  /** The participant id (viewingSessionUserId), joined as a user account. */
  uid: string;
  loadAgora?: () => Promise<AgoraSdk>;
  /** How long one reconnect attempt lasts (default 3 s) and how many before giving up (default 3). */
  reconnectDelayMs?: number;
  maxReconnects?: number;
}

export class AgoraTransport implements CallTransport {
  readonly kind = 'agora' as const;
  private readonly events = new Emitter<TransportEvent>();
  private client: AgoraClient | null = null;
  private tracks: AgoraLocalTrack[] = [];
  private mic: AgoraLocalTrack | null = null;
  private camera: AgoraLocalTrack | null = null;
  /** One SDK call at a time per track, in the order asked (the SDK drops an overlapping one as already done). */
  private readonly queue = new Map<AgoraLocalTrack, Promise<unknown>>();
  private _localStream: MediaStream | null = null;
  private joined = false;
  private reconnectAttempt = 0;
  private reconnectTimer: ReturnType<typeof setInterval> | undefined;
  private readonly remote = new Map<string, MediaStream>();
  private readonly remoteAudio = new Map<string, { stop(): void }>();

  constructor(private readonly opts: AgoraTransportOptions) {}

  get localStream(): MediaStream | null {
    return this._localStream;
  }

  on(listener: (e: TransportEvent) => void): () => void {
    return this.events.on(listener);
  }

  async connect(media: LocalMedia): Promise<void> {
    this.events.emit({ type: 'state', state: 'connecting' });
    let sdk: AgoraSdk;
    try {
      sdk = await (this.opts.loadAgora ?? defaultLoadAgora)();
    } catch {
      throw new Error(LIVE_TEXTS.connectionErrorOccurred);
    }
    // The SDK opens the devices itself with its encoder presets; the permission probe's tracks are let go first (a
    // camera held twice may refuse the second open). A device the SDK cannot open counts as refused.
    for (const t of media.stream.getTracks()) t.stop();
    const mic = media.audio
      ? await sdk.createMicrophoneAudioTrack({ encoderConfig: 'speech_standard' }).catch(() => null)
      : null;
    const camera = media.video ? await sdk.createCameraVideoTrack({ encoderConfig: '480p' }).catch(() => null) : null;
    if (!mic && !camera) throw new PermissionDeniedError();
    if (Boolean(mic) !== media.audio || Boolean(camera) !== media.video)
      this.events.emit({ type: 'media', audio: Boolean(mic), video: Boolean(camera) });
    this.mic = mic;
    this.camera = camera;
    this.tracks = [mic, camera].filter((t): t is AgoraLocalTrack => t !== null);
    this._localStream = new MediaStream(this.tracks.map((t) => t.getMediaStreamTrack()));

    const client = sdk.createClient({ mode: 'rtc', codec: 'vp8' });
    this.client = client;
    client.on('connection-state-change', (cur, _prev, reason) => {
      if (client !== this.client || !this.joined) return;
      if (cur === 'RECONNECTING') this.startReconnecting();
      else if (cur === 'CONNECTED') {
        if (this.stopReconnecting()) this.events.emit({ type: 'state', state: 'connected' });
      } else if (cur === 'DISCONNECTED' && reason !== 'LEAVE') {
        // The SDK gave up or was told to go (banned, network or server error): remote users and local tracks go too.
        void this.leave().then(() => this.events.emit({ type: 'state', state: 'disconnected' }));
      }
    });
    // The token lives exactly as long as the viewing session, so there is nothing to renew 30 s before: the call
    // goes on to the end of the session, and then the session is over.
    client.on('token-privilege-will-expire', () => undefined);
    client.on('token-privilege-did-expire', () => {
      if (client !== this.client) return;
      void this.leave().then(() =>
        this.events.emit({ type: 'state', state: 'failed', message: LIVE_TEXTS.sessionExpired }),
      );
    });
    client.on('user-published', (user, mediaType) => {
      if (mediaType === 'audio' || mediaType === 'video') void this.subscribe(client, user, mediaType);
    });
    client.on('user-unpublished', (user, mediaType) => {
      const id = String(user.uid);
      if (mediaType === 'audio') {
        this.remoteAudio.get(id)?.stop();
        this.remoteAudio.delete(id);
      } else if (mediaType === 'video') {
        const stream = this.remote.get(id);
        if (!stream) return;
        for (const t of stream.getVideoTracks()) stream.removeTrack(t);
        // The same stream, now without video: the panel shows "Camera Off".
        this.events.emit({ type: 'remote-stream', id, stream });
      }
    });
    client.on('user-left', (user) => {
      const id = String(user.uid);
      this.remoteAudio.get(id)?.stop();
      this.remoteAudio.delete(id);
      this.remote.delete(id);
      this.events.emit({ type: 'remote-left', id });
    });
    try {
      await client.join(this.opts.appId, this.opts.channel, this.opts.rtcToken, this.opts.uid);
      if (client !== this.client) return;
      this.joined = true;
      await client.publish(this.tracks);
    } catch {
      if (client !== this.client) return;
      await this.leave();
      throw new Error(LIVE_TEXTS.connectionErrorOccurred);
    }
    this.events.emit({ type: 'state', state: 'connected' });
  }

  async leave(): Promise<void> {
    this.stopReconnecting();
    const client = this.client;
    this.client = null;
    this.joined = false;
    for (const t of this.tracks.splice(0)) t.close();
    this.mic = null;
    this.camera = null;
    this.queue.clear();
    this._localStream = null;
    for (const a of this.remoteAudio.values()) a.stop();
    this.remoteAudio.clear();
    this.remote.clear();
    if (client) {
      client.removeAllListeners();
      await client.leave().catch(() => undefined);
    }
  }

  /**
   * Microphone mute through the SDK: `setMuted` keeps the device open, so unmuting is quick and never prompts (it
   * also sends nothing rather than silence). Rejects with the SDK's error; nothing to do without a microphone.
   */
  setMicrophoneMuted(muted: boolean): Promise<void> {
    const mic = this.mic;
    return mic ? this.serial(mic, () => mic.setMuted(muted)) : Promise.resolve();
  }

  /**
   * Camera off through the SDK: `setEnabled(false)` stops capture (the camera light goes off) and unpublishes;
   * `setEnabled(true)` opens the camera again, and the local stream is rebuilt around its new MediaStreamTrack (the
   * ended one stays in it while off, so the stream still has video). Not `setMuted`: that keeps the camera on. The
   * SDK says not to mix the two on one track; we use one per track. Rejects with the SDK's error.
   */
  setCameraOff(off: boolean): Promise<void> {
    const camera = this.camera;
    if (!camera) return Promise.resolve();
    return this.serial(camera, async () => {
      await camera.setEnabled(!off);
      const track = camera.getMediaStreamTrack();
      const stream = this._localStream;
      if (off || camera !== this.camera || !stream || stream.getVideoTracks().includes(track)) return;
      this._localStream = new MediaStream([...stream.getAudioTracks(), track]);
    });
  }

  private serial(track: AgoraLocalTrack, op: () => Promise<void>): Promise<void> {
    const run = (this.queue.get(track) ?? Promise.resolve()).catch(() => undefined).then(op);
    this.queue.set(track, run);
    return run;
  }

  /** Remote audio plays through the SDK (its own element and volume handling); video goes to the panel's stream. */
  private async subscribe(client: AgoraClient, user: AgoraRemoteUser, mediaType: 'audio' | 'video'): Promise<void> {
    try {
      await client.subscribe(user, mediaType);
    } catch {
      return; // gone again before we got to it
    }
    if (client !== this.client) return;
    const id = String(user.uid);
    if (mediaType === 'audio') {
      if (!user.audioTrack) return;
      user.audioTrack.play();
      this.remoteAudio.set(id, user.audioTrack);
      // A remote side with no video yet still counts as there (panel: "Camera Off", not "Waiting on ...").
      if (this.remote.has(id)) return;
      const stream = new MediaStream();
      this.remote.set(id, stream);
      this.events.emit({ type: 'remote-stream', id, stream });
      return;
    }
    if (!user.videoTrack) return;
    const stream = this.remote.get(id) ?? new MediaStream();
    this.remote.set(id, stream);
    for (const t of stream.getVideoTracks()) stream.removeTrack(t);
    stream.addTrack(user.videoTrack.getMediaStreamTrack());
    this.events.emit({ type: 'remote-stream', id, stream });
  }

  /**
   * The SDK reconnects by itself and says RECONNECTING once; we count its retrying in 3 s windows, as our own
   * reconnects are counted (up to 3, 3 s apart), and give up after the third.
   */
  private startReconnecting(): void {
    if (this.reconnectTimer !== undefined) return;
    const max = this.opts.maxReconnects ?? MAX_RECONNECTS;
    this.reconnectAttempt = 1;
    this.events.emit({ type: 'state', state: 'reconnecting', attempt: 1 });
    this.reconnectTimer = setInterval(() => {
      if (this.reconnectAttempt >= max) {
        void this.leave().then(() =>
          this.events.emit({ type: 'state', state: 'failed', message: LIVE_TEXTS.reconnectFailed }),
        );
        return;
      }
      this.reconnectAttempt += 1;
      this.events.emit({ type: 'state', state: 'reconnecting', attempt: this.reconnectAttempt });
    }, this.opts.reconnectDelayMs ?? TIMINGS_MS.reconnectDelay);
  }

  /** True when it was reconnecting. */
  private stopReconnecting(): boolean {
    if (this.reconnectTimer === undefined) return false;
    clearInterval(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.reconnectAttempt = 0;
    return true;
  }
}
