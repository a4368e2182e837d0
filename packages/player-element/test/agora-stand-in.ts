// A stand-in for the Agora Web SDK with its API surface (there is no Agora service to reach from here), real
// MediaStreamTracks (canvas and WebAudio) and a CallStateMachine over it. The stand-in records every call; the tests in
// src/live-call/agora-*.test.ts pin the calls, their arguments and the state machine's states.
import { CallStateMachine, type CallSnapshot } from '../src/live-call/call-state-machine.js';
import { AgoraTransport, type AgoraSdk } from '../src/live-call/agora-transport.js';
import { real } from './helpers.js';
import type { GetUserMedia } from '../src/live-call/media.js';

export const SESSION = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
export const APP_ID = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
export const RTC_TOKEN = '007eJxTYBBa-rtc-token';
/** Agora's app certificate for the real server (32 hex digits, as Agora issues them); tokens are signed offline. */
export const APP_CERTIFICATE = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
export const UID = 'viewer-k3j4h5';
export const b64url = (o: unknown) =>
  btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
export const SIGNALING = `${b64url({ alg: 'HS256' })}.${b64url({ sid: SESSION, role: 'viewer' })}.sig`;
export const request = (
  extra: Partial<{ appId: string | null; rtcToken: string | null; expireTime: string }> = {},
) => ({
  signalingToken: SIGNALING,
  appId: APP_ID,
  rtcToken: RTC_TOKEN,
  viewingSessionUserId: UID,
  expireTime: new Date(Date.now() + 3_600_000).toISOString(),
  ...extra,
});

export const audioContexts: AudioContext[] = [];
/** Real tracks: a canvas for the camera, an oscillator for the microphone. */
export function realTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  if (kind === 'video') {
    const c = document.createElement('canvas');
    c.width = 640;
    c.height = 480;
    c.getContext('2d')!.fillRect(0, 0, 10, 10);
    return c.captureStream(5).getVideoTracks()[0]!;
  }
  const ctx = new AudioContext();
  audioContexts.push(ctx);
  const osc = ctx.createOscillator();
  const dest = ctx.createMediaStreamDestination();
  osc.connect(dest);
  osc.start();
  return dest.stream.getAudioTracks()[0]!;
}

/** getUserMedia that grants or refuses each device as a browser prompt would. */
export function userMedia(allow: { audio: boolean; video: boolean }) {
  const given: MediaStream[] = [];
  const fn: GetUserMedia = async (c) => {
    if ((c.audio && !allow.audio) || (c.video && !allow.video))
      throw new DOMException('Permission denied', 'NotAllowedError');
    const s = new MediaStream([...(c.audio ? [realTrack('audio')] : []), ...(c.video ? [realTrack('video')] : [])]);
    given.push(s);
    return s;
  };
  return Object.assign(fn, { given });
}

export type Call = [string, ...unknown[]];

export class FakeLocalTrack {
  closed = false;
  muted = false;
  enabled = true;
  /** SDK calls under way on this track at once, at most (the transport must not overlap them). */
  maxBusy = 0;
  private busy = 0;
  track: MediaStreamTrack;
  constructor(
    private readonly sdk: FakeAgora,
    readonly kind: 'audio' | 'video',
  ) {
    this.track = realTrack(kind);
  }
  getMediaStreamTrack(): MediaStreamTrack {
    return this.track;
  }
  /** As the SDK: sends no media, keeps capturing (the real SDK also flips the track's `enabled` itself; the
   * stand-in leaves it alone, so the tests see whether the transport touches it). Cannot follow setEnabled(false). */
  async setMuted(muted: boolean): Promise<void> {
    this.sdk.calls.push(['setMuted', this.kind, muted]);
    await this.step(() => {
      if (!this.enabled && muted)
        throw Object.assign(new Error('AgoraRTCError TRACK_STATE_UNREACHABLE'), { code: 'TRACK_STATE_UNREACHABLE' });
      if (this.sdk.failSetMuted)
        throw Object.assign(new Error('AgoraRTCError UNEXPECTED_ERROR'), { code: 'UNEXPECTED_ERROR' });
      this.muted = muted;
    });
  }
  /** As the SDK's camera: false stops the device's track; true opens the device again (a new track, later). */
  async setEnabled(enabled: boolean): Promise<void> {
    this.sdk.calls.push(['setEnabled', this.kind, enabled]);
    await this.step(async () => {
      if (this.muted && !enabled)
        throw Object.assign(new Error('AgoraRTCError TRACK_STATE_UNREACHABLE'), { code: 'TRACK_STATE_UNREACHABLE' });
      if (enabled === this.enabled) return;
      if (enabled) {
        await new Promise((r) => setTimeout(r, this.sdk.enableDelayMs));
        if (this.sdk.failSetEnabled)
          throw Object.assign(new Error('AgoraRTCError NOT_READABLE: Could not start video source'), {
            code: 'NOT_READABLE',
          });
        this.track = realTrack(this.kind);
      } else this.track.stop();
      this.enabled = enabled;
    });
  }
  close(): void {
    this.closed = true;
    this.track.stop();
  }
  private async step(fn: () => void | Promise<void>): Promise<void> {
    this.busy += 1;
    this.maxBusy = Math.max(this.maxBusy, this.busy);
    try {
      await Promise.resolve();
      await fn();
    } finally {
      this.busy -= 1;
    }
  }
}

export class FakeRemoteTrack {
  readonly track: MediaStreamTrack;
  constructor(
    private readonly calls: Call[],
    readonly uid: string,
    readonly kind: 'audio' | 'video',
  ) {
    this.track = realTrack(kind);
  }
  getMediaStreamTrack(): MediaStreamTrack {
    return this.track;
  }
  play(): void {
    this.calls.push(['play', this.uid, this.kind]);
  }
  stop(): void {
    this.calls.push(['stop', this.uid, this.kind]);
  }
}

export interface FakeUser {
  uid: string;
  hasAudio: boolean;
  hasVideo: boolean;
  audioTrack?: FakeRemoteTrack;
  videoTrack?: FakeRemoteTrack;
}

export class FakeClient {
  connectionState = 'DISCONNECTED';
  private readonly listeners = new Map<string, (...args: any[]) => void>();
  constructor(private readonly sdk: FakeAgora) {}
  on(event: string, listener: (...args: any[]) => void): void {
    this.listeners.set(event, listener);
  }
  removeAllListeners(): void {
    this.sdk.calls.push(['removeAllListeners']);
    this.listeners.clear();
  }
  async join(appId: string, channel: string, token: string | null, uid: string): Promise<string> {
    this.sdk.calls.push(['join', appId, channel, token, uid]);
    this.setState('CONNECTING');
    if (this.sdk.refuseJoin) {
      this.setState('DISCONNECTED', 'LEAVE');
      throw Object.assign(new Error('AgoraRTCError CAN_NOT_GET_GATEWAY_SERVER: invalid token, authorized failed'), {
        code: 'CAN_NOT_GET_GATEWAY_SERVER',
      });
    }
    this.setState('CONNECTED');
    return uid;
  }
  async publish(tracks: FakeLocalTrack[]): Promise<void> {
    this.sdk.calls.push(['publish', tracks.map((t) => t.kind)]);
    this.sdk.published = tracks;
  }
  async subscribe(user: FakeUser, mediaType: 'audio' | 'video'): Promise<FakeRemoteTrack> {
    this.sdk.calls.push(['subscribe', user.uid, mediaType]);
    // As the SDK does: the user's track is there once subscribe resolves.
    const t = new FakeRemoteTrack(this.sdk.calls, user.uid, mediaType);
    if (mediaType === 'audio') user.audioTrack = t;
    else user.videoTrack = t;
    return t;
  }
  async leave(): Promise<void> {
    this.sdk.calls.push(['leave']);
    this.setState('DISCONNECTING');
    this.setState('DISCONNECTED', 'LEAVE');
  }
  /** The SDK's side: fire one of its events. */
  emit(event: string, ...args: unknown[]): void {
    this.listeners.get(event)?.(...args);
  }
  setState(cur: string, reason?: string): void {
    const prev = this.connectionState;
    this.connectionState = cur;
    this.emit('connection-state-change', cur, prev, reason);
  }
}

export class FakeAgora {
  readonly calls: Call[] = [];
  client: FakeClient | null = null;
  made: FakeLocalTrack[] = [];
  published: FakeLocalTrack[] = [];
  refuseCamera = false;
  refuseMicrophone = false;
  refuseJoin = false;
  failSetMuted = false;
  failSetEnabled = false;
  /** How long opening the camera again takes. */
  enableDelayMs = 0;
  loads = 0;
  createClient(config: unknown): FakeClient {
    this.calls.push(['createClient', config]);
    this.client = new FakeClient(this);
    return this.client;
  }
  async createMicrophoneAudioTrack(config: unknown): Promise<FakeLocalTrack> {
    this.calls.push(['createMicrophoneAudioTrack', config]);
    if (this.refuseMicrophone) throw Object.assign(new Error('AgoraRTCError NOT_READABLE'), { code: 'NOT_READABLE' });
    const t = new FakeLocalTrack(this, 'audio');
    this.made.push(t);
    return t;
  }
  async createCameraVideoTrack(config: unknown): Promise<FakeLocalTrack> {
    this.calls.push(['createCameraVideoTrack', config]);
    if (this.refuseCamera)
      throw Object.assign(new Error('AgoraRTCError NOT_READABLE: Could not start video source'), {
        code: 'NOT_READABLE',
      });
    const t = new FakeLocalTrack(this, 'video');
    this.made.push(t);
    return t;
  }
  /** As the transport imports it. */
  readonly load = async (): Promise<AgoraSdk> => {
    this.loads += 1;
    return this as unknown as AgoraSdk;
  };
}

export const label = (s: CallSnapshot) => (s.state === 'RECONNECTING' ? `RECONNECTING ${s.reconnectAttempt}` : s.state);

export function call(opts: {
  sdk: FakeAgora;
  allow?: { audio: boolean; video: boolean };
  role?: 'host' | 'viewer';
  req?: ReturnType<typeof request>;
  reconnectDelayMs?: number;
}) {
  const states: string[] = [];
  const warnings: string[] = [];
  let last: CallSnapshot | null = null;
  const gum = userMedia(opts.allow ?? { audio: true, video: true });
  const req = opts.req ?? request();
  const controller = new CallStateMachine({
    role: opts.role ?? 'viewer',
    request: req,
    url: 'http://127.0.0.1:9',
    tourId: real.main,
    getUserMedia: gum,
    loadAgora: opts.sdk.load,
    // The controller's own choice of transport unless a test needs short reconnect windows.
    ...(opts.reconnectDelayMs
      ? {
          transport: ({ session }) =>
            new AgoraTransport({
              appId: req.appId!,
              rtcToken: req.rtcToken!,
              channel: session,
              uid: req.viewingSessionUserId,
              loadAgora: opts.sdk.load,
              reconnectDelayMs: opts.reconnectDelayMs!,
            }),
        }
      : {}),
    onChange: (s) => {
      last = s;
      if (states.at(-1) !== label(s)) states.push(label(s));
    },
    onWarning: (w) => warnings.push(w),
  });
  return { controller, states, warnings, gum, snapshot: () => last ?? controller.snapshot };
}

export const remoteUser = (uid = 'host-9f8e'): FakeUser => ({ uid, hasAudio: true, hasVideo: true });

/** The calls a test started, reset after each test together with the audio contexts of the real tracks. */
export function callsOfTest(): (c: ReturnType<typeof call>) => ReturnType<typeof call> {
  const open: CallStateMachine[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.reset();
    for (const ctx of audioContexts.splice(0)) await ctx.close();
  });
  return (c) => {
    open.push(c.controller);
    return c;
  };
}
