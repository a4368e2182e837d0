/**
 * The Agora call transport (when the session carries `appId` and `rtcToken`): vp8, microphone `speech_standard`,
 * camera 480p (tours §7). The SDK (`agora-rtc-sdk-ng`, about 1.5 MB) is imported only when a call starts on a
 * session configured for Agora, from a specifier bundlers leave alone; a page that uses Agora maps it (import map)
 * or passes `loadAgora`. Without it, the call fails with "Connection error occurred" and the WebRTC default is the
 * way to go (docs/live-viewing.md).
 */
import { MAX_RECONNECTS } from '@roomwalk/shared';
import { Emitter, type CallTransport, type TransportEvent } from './call-transport.js';
import type { LocalMedia } from './media.js';
import { LIVE_TEXTS } from './texts.js';

/** The part of the Agora Web SDK 4.x we use. */
export interface AgoraLocalTrack {
  getMediaStreamTrack(): MediaStreamTrack;
  close(): void;
}
export interface AgoraRemoteUser {
  uid: string | number;
  audioTrack?: { play(): void; getMediaStreamTrack(): MediaStreamTrack };
  videoTrack?: { getMediaStreamTrack(): MediaStreamTrack };
}
export interface AgoraClient {
  join(appId: string, channel: string, token: string | null, uid: string | number): Promise<unknown>;
  publish(tracks: AgoraLocalTrack[]): Promise<void>;
  subscribe(user: AgoraRemoteUser, mediaType: 'audio' | 'video'): Promise<unknown>;
  leave(): Promise<void>;
  on(event: string, listener: (...args: any[]) => void): void;
  removeAllListeners?(): void;
}
export interface AgoraSdk {
  createClient(config: { mode: 'rtc'; codec: 'vp8' }): AgoraClient;
  createMicrophoneAudioTrack(config?: { encoderConfig?: string }): Promise<AgoraLocalTrack>;
  createCameraVideoTrack(config?: { encoderConfig?: string }): Promise<AgoraLocalTrack>;
}

export const AGORA_MODULE = 'agora-rtc-sdk-ng';

export const defaultLoadAgora = async (): Promise<AgoraSdk> => {
  const specifier = AGORA_MODULE;
  const mod = (await import(/* @vite-ignore */ specifier)) as { default?: AgoraSdk } & AgoraSdk;
  return mod.default ?? mod;
};

export interface AgoraTransportOptions {
  appId: string;
  rtcToken: string;
  /** The Agora channel: the viewing session id. */
  channel: string;
  /** The participant id (viewingSessionUserId), joined as a user account. */
  uid: string;
  loadAgora?: () => Promise<AgoraSdk>;
}

export class AgoraTransport implements CallTransport {
  readonly kind = 'agora' as const;
  private readonly events = new Emitter<TransportEvent>();
  private client: AgoraClient | null = null;
  private tracks: AgoraLocalTrack[] = [];
  private _localStream: MediaStream | null = null;
  private reconnects = 0;
  private readonly remote = new Map<string, MediaStream>();

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
      this.events.emit({ type: 'state', state: 'failed', message: LIVE_TEXTS.connectionErrorOccurred });
      throw new Error(LIVE_TEXTS.connectionErrorOccurred);
    }
    // The SDK makes its own tracks with its encoder presets; the permission probe's tracks are no longer needed.
    for (const t of media.stream.getTracks()) t.stop();
    if (media.audio) this.tracks.push(await sdk.createMicrophoneAudioTrack({ encoderConfig: 'speech_standard' }));
    if (media.video) this.tracks.push(await sdk.createCameraVideoTrack({ encoderConfig: '480p' }));
    this._localStream = new MediaStream(this.tracks.map((t) => t.getMediaStreamTrack()));

    const client = sdk.createClient({ mode: 'rtc', codec: 'vp8' });
    this.client = client;
    client.on('connection-state-change', (cur: string) => {
      if (cur === 'CONNECTED') {
        this.reconnects = 0;
        this.events.emit({ type: 'state', state: 'connected' });
      } else if (cur === 'RECONNECTING') {
        this.reconnects += 1;
        if (this.reconnects > MAX_RECONNECTS) {
          void this.leave();
          this.events.emit({ type: 'state', state: 'failed', message: LIVE_TEXTS.reconnectFailed });
        } else this.events.emit({ type: 'state', state: 'reconnecting', attempt: this.reconnects });
      } else if (cur === 'DISCONNECTED') this.events.emit({ type: 'state', state: 'disconnected' });
    });
    client.on('token-privilege-did-expire', () => {
      void this.leave();
      this.events.emit({ type: 'state', state: 'failed', message: LIVE_TEXTS.sessionExpired });
    });
    client.on('user-published', async (user: AgoraRemoteUser, mediaType: 'audio' | 'video') => {
      await client.subscribe(user, mediaType);
      const id = String(user.uid);
      const stream = this.remote.get(id) ?? new MediaStream();
      this.remote.set(id, stream);
      const track = mediaType === 'audio' ? user.audioTrack : user.videoTrack;
      if (track) stream.addTrack(track.getMediaStreamTrack());
      this.events.emit({ type: 'remote-stream', id, stream });
    });
    client.on('user-left', (user: AgoraRemoteUser) => {
      this.remote.delete(String(user.uid));
      this.events.emit({ type: 'remote-left', id: String(user.uid) });
    });
    await client.join(this.opts.appId, this.opts.channel, this.opts.rtcToken, this.opts.uid);
    if (this.tracks.length > 0) await client.publish(this.tracks);
    this.events.emit({ type: 'state', state: 'connected' });
  }

  async leave(): Promise<void> {
    const client = this.client;
    this.client = null;
    for (const t of this.tracks.splice(0)) t.close();
    this._localStream = null;
    this.remote.clear();
    if (client) {
      client.removeAllListeners?.();
      await client.leave().catch(() => undefined);
      this.events.emit({ type: 'state', state: 'disconnected' });
    }
  }
}
