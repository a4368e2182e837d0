import { expect } from '@esm-bundle/chai';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { AgoraTransport, type AgoraSdk } from './agora-transport.js';
import { CallStateMachine, type CallSnapshot } from './call-state-machine.js';
import type { GetUserMedia } from './media.js';
import { LIVE_TEXTS } from './texts.js';
import { executeServerCommand } from '@web/test-runner-commands';
import { real, server, until } from '../../test/helpers.js';

/*
 * AgoraTransport under the live call controller, in Chromium with real MediaStreamTracks (canvas and WebAudio), against
 * a stand-in for the Agora Web SDK with its API surface (there is no Agora service to reach from here). The stand-in
 * records every call; the tests pin the calls, their arguments and the controller's states.
 */

const SESSION = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
const APP_ID = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const RTC_TOKEN = '007eJxTYBBa-rtc-token';
/** Agora's app certificate for the real server (32 hex digits, as Agora issues them); tokens are signed offline. */
const APP_CERTIFICATE = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const UID = 'viewer-k3j4h5';
const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const SIGNALING = `${b64url({ alg: 'HS256' })}.${b64url({ sid: SESSION, role: 'viewer' })}.sig`;
const request = (extra: Partial<{ appId: string | null; rtcToken: string | null; expireTime: string }> = {}) => ({
  signalingToken: SIGNALING,
  appId: APP_ID,
  rtcToken: RTC_TOKEN,
  viewingSessionUserId: UID,
  expireTime: new Date(Date.now() + 3_600_000).toISOString(),
  ...extra,
});

const audioContexts: AudioContext[] = [];
/** Real tracks: a canvas for the camera, an oscillator for the microphone. */
function realTrack(kind: 'audio' | 'video'): MediaStreamTrack {
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
function userMedia(allow: { audio: boolean; video: boolean }) {
  const given: MediaStream[] = [];
  const fn: GetUserMedia = async (c) => {
    if ((c.audio && !allow.audio) || (c.video && !allow.video)) throw new DOMException('Permission denied', 'NotAllowedError');
    const s = new MediaStream([...(c.audio ? [realTrack('audio')] : []), ...(c.video ? [realTrack('video')] : [])]);
    given.push(s);
    return s;
  };
  return Object.assign(fn, { given });
}

type Call = [string, ...unknown[]];

class FakeLocalTrack {
  closed = false;
  muted = false;
  enabled = true;
  /** SDK calls under way on this track at once, at most (the transport must not overlap them). */
  maxBusy = 0;
  private busy = 0;
  track: MediaStreamTrack;
  constructor(private readonly sdk: FakeAgora, readonly kind: 'audio' | 'video') {
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
      if (!this.enabled && muted) throw Object.assign(new Error('AgoraRTCError TRACK_STATE_UNREACHABLE'), { code: 'TRACK_STATE_UNREACHABLE' });
      if (this.sdk.failSetMuted) throw Object.assign(new Error('AgoraRTCError UNEXPECTED_ERROR'), { code: 'UNEXPECTED_ERROR' });
      this.muted = muted;
    });
  }
  /** As the SDK's camera: false stops the device's track; true opens the device again (a new track, later). */
  async setEnabled(enabled: boolean): Promise<void> {
    this.sdk.calls.push(['setEnabled', this.kind, enabled]);
    await this.step(async () => {
      if (this.muted && !enabled) throw Object.assign(new Error('AgoraRTCError TRACK_STATE_UNREACHABLE'), { code: 'TRACK_STATE_UNREACHABLE' });
      if (enabled === this.enabled) return;
      if (enabled) {
        await new Promise((r) => setTimeout(r, this.sdk.enableDelayMs));
        if (this.sdk.failSetEnabled) throw Object.assign(new Error('AgoraRTCError NOT_READABLE: Could not start video source'), { code: 'NOT_READABLE' });
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

class FakeRemoteTrack {
  readonly track: MediaStreamTrack;
  constructor(private readonly calls: Call[], readonly uid: string, readonly kind: 'audio' | 'video') {
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

interface FakeUser {
  uid: string;
  hasAudio: boolean;
  hasVideo: boolean;
  audioTrack?: FakeRemoteTrack;
  videoTrack?: FakeRemoteTrack;
}

class FakeClient {
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
      throw Object.assign(new Error('AgoraRTCError CAN_NOT_GET_GATEWAY_SERVER: invalid token, authorized failed'), { code: 'CAN_NOT_GET_GATEWAY_SERVER' });
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

class FakeAgora {
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
    if (this.refuseCamera) throw Object.assign(new Error('AgoraRTCError NOT_READABLE: Could not start video source'), { code: 'NOT_READABLE' });
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

const label = (s: CallSnapshot) => (s.state === 'RECONNECTING' ? `RECONNECTING ${s.reconnectAttempt}` : s.state);

function call(opts: { sdk: FakeAgora; allow?: { audio: boolean; video: boolean }; role?: 'host' | 'viewer'; req?: ReturnType<typeof request>; reconnectDelayMs?: number }) {
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
      ? { transport: ({ session }) => new AgoraTransport({ appId: req.appId!, rtcToken: req.rtcToken!, channel: session, uid: req.viewingSessionUserId, loadAgora: opts.sdk.load, reconnectDelayMs: opts.reconnectDelayMs! }) }
      : {}),
    onChange: (s) => {
      last = s;
      if (states.at(-1) !== label(s)) states.push(label(s));
    },
    onWarning: (w) => warnings.push(w),
  });
  return { controller, states, warnings, gum, snapshot: () => last ?? controller.snapshot };
}

const remoteUser = (uid = 'host-9f8e'): FakeUser => ({ uid, hasAudio: true, hasVideo: true });

describe('live call over Agora (AgoraTransport with the SDK stand-in)', () => {
  const open: CallStateMachine[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) await c.reset();
    for (const ctx of audioContexts.splice(0)) await ctx.close();
  });
  const started = (c: ReturnType<typeof call>) => {
    open.push(c.controller);
    return c;
  };

  it('joins with vp8, the speech_standard microphone and the 480p camera, on the session channel with the rtc token and user account; publishes both', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    expect(c.controller.transportKind).to.equal('agora');
    expect(sdk.calls).to.deep.equal([
      ['createMicrophoneAudioTrack', { encoderConfig: 'speech_standard' }],
      ['createCameraVideoTrack', { encoderConfig: '480p' }],
      ['createClient', { mode: 'rtc', codec: 'vp8' }],
      ['join', APP_ID, SESSION, RTC_TOKEN, UID],
      ['publish', ['audio', 'video']],
    ]);
    expect(sdk.published).to.deep.equal(sdk.made);
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED']);
    expect(c.snapshot().panelText).to.equal(LIVE_TEXTS.waitingOnAgent);
    // The SDK's own tracks are the ones shown as ours; the permission probe's tracks were let go.
    const local = c.snapshot().localStream!;
    expect(local.getTracks()).to.have.members(sdk.made.map((t) => t.track));
    expect(c.gum.given[0]!.getTracks().map((t) => t.readyState)).to.deep.equal(['ended', 'ended']);
  });

  it('subscribes to what the other side publishes: audio plays through the SDK, video reaches the panel; unpublished video shows Camera Off; a user who leaves is gone', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, role: 'host' }));
    await c.controller.start();
    expect(c.snapshot().panelText).to.equal(LIVE_TEXTS.waitingOnViewer);
    const user = remoteUser('viewer-abc');
    sdk.client!.emit('user-published', user, 'video');
    sdk.client!.emit('user-published', user, 'audio');
    await until(() => sdk.calls.some((x) => x[0] === 'play'), 'remote audio played');
    expect(sdk.calls.slice(5)).to.deep.equal([
      ['subscribe', 'viewer-abc', 'video'],
      ['subscribe', 'viewer-abc', 'audio'],
      ['play', 'viewer-abc', 'audio'],
    ]);
    const stream = c.snapshot().remoteStreams.get('viewer-abc')!;
    expect(stream.getVideoTracks()).to.deep.equal([user.videoTrack!.track]);
    // Audio is the SDK's to play; in the <video> too it would be heard twice.
    expect(stream.getAudioTracks()).to.deep.equal([]);
    expect(c.snapshot().panelText).to.equal('');

    sdk.client!.emit('user-unpublished', user, 'video');
    expect(c.snapshot().panelText).to.equal(LIVE_TEXTS.cameraOff);
    sdk.client!.emit('user-left', user, 'Quit');
    expect(c.snapshot().remoteStreams.size).to.equal(0);
    expect(c.snapshot().panelText).to.equal(LIVE_TEXTS.waitingOnViewer);
    expect(sdk.calls.at(-1)).to.deep.equal(['stop', 'viewer-abc', 'audio']);
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED']);
  });

  it('a remote side with audio only counts as there, with Camera Off', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    sdk.client!.emit('user-published', { uid: 'host-1', hasAudio: true, hasVideo: false }, 'audio');
    await until(() => c.snapshot().remoteStreams.size === 1, 'the remote user');
    expect(c.snapshot().panelText).to.equal(LIVE_TEXTS.cameraOff);
  });

  it('RECONNECTING from the SDK counts 3 s windows as attempts: Reconnecting (1), (2), (3), then ERROR "Failed to reconnect after multiple attempts", left and tracks closed', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, reconnectDelayMs: 40 }));
    await c.controller.start();
    sdk.client!.emit('user-published', remoteUser(), 'video');
    await until(() => c.snapshot().remoteStreams.size === 1, 'the remote user');
    sdk.client!.setState('RECONNECTING');
    await until(() => c.states.at(-1) === 'ERROR', 'giving up');
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED', 'RECONNECTING 1', 'RECONNECTING 2', 'RECONNECTING 3', 'ERROR']);
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.reconnectFailed);
    expect(c.snapshot().canRetry).to.equal(true);
    expect(c.snapshot().remoteStreams.size).to.equal(0);
    expect(sdk.made.every((t) => t.closed)).to.equal(true);
    expect(sdk.calls.slice(-2)).to.deep.equal([['removeAllListeners'], ['leave']]);
  });

  it('back to CONNECTED while reconnecting resets the count; the next loss starts again at 1', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, reconnectDelayMs: 40 }));
    await c.controller.start();
    sdk.client!.setState('RECONNECTING');
    await until(() => c.states.includes('RECONNECTING 2'), 'second attempt');
    sdk.client!.setState('CONNECTED');
    expect(c.states.at(-1)).to.equal('CONNECTED');
    expect(c.snapshot().reconnectAttempt).to.equal(0);
    sdk.client!.setState('RECONNECTING');
    expect(c.states.at(-1)).to.equal('RECONNECTING 1');
    sdk.client!.setState('CONNECTED');
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED', 'RECONNECTING 1', 'RECONNECTING 2', 'CONNECTED', 'RECONNECTING 1', 'CONNECTED']);
    expect(sdk.calls.some((x) => x[0] === 'leave')).to.equal(false);
  });

  it('DISCONNECTED from the SDK (banned, network or server gave up) is DISCONNECTED: remote users cleared, local tracks closed, retry offered', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    sdk.client!.emit('user-published', remoteUser(), 'video');
    await until(() => c.snapshot().remoteStreams.size === 1, 'the remote user');
    sdk.client!.setState('DISCONNECTED', 'UID_BANNED');
    await until(() => c.states.at(-1) === 'DISCONNECTED', 'DISCONNECTED');
    expect(c.snapshot().remoteStreams.size).to.equal(0);
    expect(c.snapshot().canRetry).to.equal(true);
    expect(sdk.made.every((t) => t.closed)).to.equal(true);
    expect(sdk.calls.at(-1)).to.deep.equal(['leave']);
  });

  it('token-privilege-will-expire changes nothing (the token lasts as long as the session); token-privilege-did-expire ends the call with "Session expired. Please rejoin."', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    sdk.client!.emit('token-privilege-will-expire');
    expect(c.states.at(-1)).to.equal('CONNECTED');
    expect(sdk.calls.some((x) => x[0] === 'leave')).to.equal(false);
    sdk.client!.emit('token-privilege-did-expire');
    await until(() => c.states.at(-1) === 'ERROR', 'ERROR');
    expect(c.snapshot().error).to.equal('Session expired. Please rejoin.');
    expect(sdk.calls.at(-1)).to.deep.equal(['leave']);
    expect(sdk.made.every((t) => t.closed)).to.equal(true);
  });

  it('at the session\'s expireTime the call ends with "Session expired. Please rejoin." and leaves the channel', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, req: request({ expireTime: new Date(Date.now() + 1500).toISOString() }) }));
    await c.controller.start();
    expect(c.states.at(-1)).to.equal('CONNECTED');
    await until(() => c.states.at(-1) === 'ERROR', 'expiry');
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.sessionExpired);
    expect(sdk.calls.at(-1)).to.deep.equal(['leave']);
  });

  it('camera refused: audio only — only the microphone is made and published, with the camera warning', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, allow: { audio: true, video: false } }));
    await c.controller.start();
    expect(sdk.calls).to.deep.equal([
      ['createMicrophoneAudioTrack', { encoderConfig: 'speech_standard' }],
      ['createClient', { mode: 'rtc', codec: 'vp8' }],
      ['join', APP_ID, SESSION, RTC_TOKEN, UID],
      ['publish', ['audio']],
    ]);
    expect(c.states.at(-1)).to.equal('CONNECTED');
    expect(c.snapshot().audioOnly).to.equal(true);
    expect(c.warnings).to.deep.equal([ERROR_TEXTS.cameraDenied]);
  });

  it('camera and microphone refused: PERMISSION_DENIED before the SDK is even loaded', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, allow: { audio: false, video: false } }));
    await c.controller.start();
    expect(c.states).to.deep.equal(['INITIALIZING', 'PERMISSION_DENIED']);
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.permissionsRequired);
    expect(c.warnings).to.deep.equal([ERROR_TEXTS.bothDenied]);
    expect(sdk.loads).to.equal(0);
    expect(sdk.calls).to.deep.equal([]);
  });

  it('the SDK cannot open the camera the browser granted: audio only with the camera warning; neither device: PERMISSION_DENIED, never joined', async () => {
    const sdk = new FakeAgora();
    sdk.refuseCamera = true;
    const c = started(call({ sdk }));
    await c.controller.start();
    expect(sdk.calls.map((x) => x[0])).to.deep.equal(['createMicrophoneAudioTrack', 'createCameraVideoTrack', 'createClient', 'join', 'publish']);
    expect(sdk.calls.at(-1)).to.deep.equal(['publish', ['audio']]);
    expect(c.snapshot().audioOnly).to.equal(true);
    expect(c.warnings).to.deep.equal([ERROR_TEXTS.cameraDenied]);

    const none = new FakeAgora();
    none.refuseCamera = true;
    none.refuseMicrophone = true;
    const d = started(call({ sdk: none }));
    await d.controller.start();
    expect(d.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'PERMISSION_DENIED']);
    expect(d.warnings).to.deep.equal([ERROR_TEXTS.bothDenied]);
    expect(none.calls.map((x) => x[0])).to.deep.equal(['createMicrophoneAudioTrack', 'createCameraVideoTrack']);
  });

  it('a refused join (bad or expired token) is ERROR "Connection error occurred" with the tracks closed; retry joins again', async () => {
    const sdk = new FakeAgora();
    sdk.refuseJoin = true;
    const c = started(call({ sdk }));
    await c.controller.start();
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'ERROR']);
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.connectionErrorOccurred);
    expect(sdk.made.every((t) => t.closed)).to.equal(true);
    sdk.refuseJoin = false;
    await c.controller.retry();
    expect(c.states.slice(-3)).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED']);
    expect(sdk.calls.filter((x) => x[0] === 'join')).to.have.length(2);
  });

  it('the SDK does not load: ERROR "Connection error occurred"', async () => {
    const c = started(call({ sdk: Object.assign(new FakeAgora(), { load: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')) }) }));
    await c.controller.start();
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'ERROR']);
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.connectionErrorOccurred);
  });

  it('reset() leaves the channel and closes the SDK\'s tracks: DISCONNECTED', async () => {
    const sdk = new FakeAgora();
    const c = call({ sdk });
    await c.controller.start();
    await c.controller.reset();
    expect(c.states.at(-1)).to.equal('DISCONNECTED');
    expect(sdk.calls.slice(-2)).to.deep.equal([['removeAllListeners'], ['leave']]);
    expect(sdk.made.every((t) => t.closed)).to.equal(true);
    expect(c.snapshot().localStream).to.equal(null);
  });

  it('picks Agora only when the session carries appId and rtcToken; otherwise WebRTC, and the SDK is never loaded', async () => {
    for (const req of [request({ appId: null, rtcToken: null }), request({ rtcToken: null })]) {
      const sdk = new FakeAgora();
      const c = started(call({ sdk, req }));
      void c.controller.start();
      await until(() => c.controller.transportKind, 'a transport');
      expect(c.controller.transportKind).to.equal('webrtc');
      expect(sdk.loads).to.equal(0);
      await c.controller.reset();
    }
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    expect(c.controller.transportKind).to.equal('agora');
    expect(sdk.loads).to.equal(1);
  });
  it("Mute is the SDK's setMuted(true) on the microphone track and Unmute setMuted(false): the device stays open, the camera is left alone, no track's enabled is touched", async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    const [mic, camera] = sdk.made as [FakeLocalTrack, FakeLocalTrack];
    const before = sdk.calls.length;
    expect(await c.controller.setMicrophoneMuted(true)).to.equal(true);
    expect(sdk.calls.slice(before)).to.deep.equal([['setMuted', 'audio', true]]);
    expect(mic.muted).to.equal(true);
    expect(c.snapshot().localStream!.getTracks().map((t) => [t.kind, t.enabled, t.readyState])).to.have.deep.members([
      ['audio', true, 'live'],
      ['video', true, 'live'],
    ]);
    expect(await c.controller.setMicrophoneMuted(false)).to.equal(true);
    expect(sdk.calls.slice(before)).to.deep.equal([
      ['setMuted', 'audio', true],
      ['setMuted', 'audio', false],
    ]);
    expect(mic.muted).to.equal(false);
    expect(mic.track.enabled).to.equal(true);
    expect([camera.enabled, camera.muted, camera.track.enabled]).to.deep.equal([true, false, true]);
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED']);
  });

  it("Camera Off is the SDK's setEnabled(false) on the camera track and Camera On setEnabled(true); the camera's new track becomes the local stream's video, no track's enabled is touched", async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    const [mic, camera] = sdk.made as [FakeLocalTrack, FakeLocalTrack];
    const first = camera.track;
    const stream = c.snapshot().localStream!;
    const before = sdk.calls.length;
    expect(await c.controller.setCameraOff(true)).to.equal(true);
    expect(sdk.calls.slice(before)).to.deep.equal([['setEnabled', 'video', false]]);
    expect(camera.enabled).to.equal(false);
    expect(first.enabled).to.equal(true);
    // While off the stream still has its (ended) video track: the panel keeps the Camera On button.
    expect(c.snapshot().localStream!.getVideoTracks()).to.deep.equal([first]);
    expect(await c.controller.setCameraOff(false)).to.equal(true);
    expect(sdk.calls.slice(before)).to.deep.equal([
      ['setEnabled', 'video', false],
      ['setEnabled', 'video', true],
    ]);
    expect(camera.enabled).to.equal(true);
    // The SDK opened the camera again: a new MediaStreamTrack, in a new local stream (the panel's <video> rebinds)
    // that the listeners were given.
    const local = c.snapshot().localStream!;
    expect(camera.track).to.not.equal(first);
    expect(local).to.not.equal(stream);
    expect(local.getVideoTracks()).to.deep.equal([camera.track]);
    expect(local.getAudioTracks()).to.deep.equal([mic.track]);
    expect(local.getTracks().map((t) => [t.enabled, t.readyState])).to.deep.equal([
      [true, 'live'],
      [true, 'live'],
    ]);
    expect(c.controller.snapshot.localStream).to.equal(local);
    expect(sdk.calls.some((x) => x[0] === 'setMuted')).to.equal(false);
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'CONNECTED']);
  });

  it('quick Camera Off / On / Off clicks reach the SDK one at a time, in order, and end with the camera off', async () => {
    const sdk = new FakeAgora();
    sdk.enableDelayMs = 60;
    const c = started(call({ sdk }));
    await c.controller.start();
    const camera = sdk.made[1]!;
    const before = sdk.calls.length;
    const done = await Promise.all([c.controller.setCameraOff(true), c.controller.setCameraOff(false), c.controller.setCameraOff(true), c.controller.setMicrophoneMuted(true)]);
    expect(done).to.deep.equal([true, true, true, true]);
    expect(sdk.calls.slice(before).filter((x) => x[1] === 'video')).to.deep.equal([
      ['setEnabled', 'video', false],
      ['setEnabled', 'video', true],
      ['setEnabled', 'video', false],
    ]);
    expect(camera.maxBusy).to.equal(1);
    expect(camera.enabled).to.equal(false);
    expect(c.states.at(-1)).to.equal('CONNECTED');
  });

  it('a mute or camera change the SDK refuses is ERROR "Connection error occurred" (left, tracks closed, retry offered), with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: PromiseRejectionEvent) => {
      unhandled.push(e.reason);
      e.preventDefault();
    };
    window.addEventListener('unhandledrejection', onUnhandled);
    try {
      const sdk = new FakeAgora();
      sdk.failSetMuted = true;
      const c = started(call({ sdk }));
      await c.controller.start();
      // As a click handler would: not awaited.
      void c.controller.setMicrophoneMuted(true);
      await until(() => c.states.at(-1) === 'ERROR', 'ERROR');
      expect(c.snapshot().error).to.equal(ERROR_TEXTS.connectionErrorOccurred);
      expect(c.snapshot().canRetry).to.equal(true);
      await until(() => sdk.made.every((t) => t.closed), 'tracks closed');
      expect(sdk.calls.slice(-3)).to.deep.equal([['setMuted', 'audio', true], ['removeAllListeners'], ['leave']]);

      const again = new FakeAgora();
      again.failSetEnabled = true;
      const d = started(call({ sdk: again }));
      await d.controller.start();
      expect(await d.controller.setCameraOff(true)).to.equal(true);
      expect(await d.controller.setCameraOff(false)).to.equal(false);
      expect(d.states.at(-1)).to.equal('ERROR');
      expect(d.snapshot().error).to.equal(ERROR_TEXTS.connectionErrorOccurred);
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).to.deep.equal([]);
    } finally {
      window.removeEventListener('unhandledrejection', onUnhandled);
    }
  });

  it('over WebRTC Mute and Camera Off still turn the local tracks\' enabled off and on (the transport has no call of its own for them)', async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk, req: request({ appId: null, rtcToken: null }) }));
    void c.controller.start();
    await until(() => c.controller.transportKind && c.controller.snapshot.localStream, 'the WebRTC transport');
    expect(c.controller.transportKind).to.equal('webrtc');
    const local = c.controller.snapshot.localStream!;
    const [audio, video] = [local.getAudioTracks()[0]!, local.getVideoTracks()[0]!];
    expect(await c.controller.setMicrophoneMuted(true)).to.equal(true);
    expect([audio.enabled, video.enabled]).to.deep.equal([false, true]);
    expect(await c.controller.setCameraOff(true)).to.equal(true);
    expect([audio.enabled, video.enabled]).to.deep.equal([false, false]);
    await c.controller.setMicrophoneMuted(false);
    await c.controller.setCameraOff(false);
    expect([audio.enabled, video.enabled]).to.deep.equal([true, true]);
    expect(sdk.loads).to.equal(0);
  });
});

describe('the Agora SDK chunk (dist/tour-player-agora.js)', () => {
  it('is the real Agora Web SDK: imported in Chromium it gives AgoraRTC, whose vp8 rtc client is created without a network', async () => {
    const chunk = '/packages/player-element/dist/tour-player-agora.js';
    const mod = (await import(/* @vite-ignore */ chunk)) as { default: any };
    const AgoraRTC = mod.default;
    expect(AgoraRTC.VERSION).to.equal('4.24.8');
    for (const fn of ['createClient', 'createMicrophoneAudioTrack', 'createCameraVideoTrack', 'checkSystemRequirements']) expect(typeof AgoraRTC[fn], fn).to.equal('function');
    AgoraRTC.setLogLevel(4);
    expect(AgoraRTC.checkSystemRequirements()).to.equal(true);
    const client = AgoraRTC.createClient({ mode: 'rtc', codec: 'vp8' });
    for (const fn of ['join', 'publish', 'subscribe', 'leave', 'on', 'removeAllListeners']) expect(typeof client[fn], fn).to.equal('function');
    expect(client.connectionState).to.equal('DISCONNECTED');
  });

  it('the script-tag player fetches it only when a call starts on an Agora session (never on load, never for WebRTC)', async function () {
    this.timeout(60_000);
    const fetched = (w: Window) => (w.performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((e) => new URL(e.name).pathname.split('/').pop()!);
    // The real server, configured with Agora (its own token builder signs the RTC token) or without it (WebRTC).
    const run = async (agora: boolean) => {
      await executeServerCommand('server-agora', agora ? { appId: APP_ID, certificate: APP_CERTIFICATE } : null);
      localStorage.setItem('capturedDetails', JSON.stringify({ id: 'lead-0', name: 'Ada', surname: null, email: 'ada@example.com', contactNumber: null, leadType: 'LIVE_VIEWING', tourId: real.main }));
      localStorage.removeItem('roomwalk.viewingSessionRequest');
      const f = document.createElement('iframe');
      f.style.width = '900px';
      f.style.height = '500px';
      const loaded = new Promise((r) => f.addEventListener('load', r, { once: true }));
      f.srcdoc = `<!doctype html><body style="margin:0">
        <script src="/packages/player-element/dist/tour-player.js"></script>
        <tour-player tour-id="${real.main}" api="${server}" live-viewing style="height:480px"></tour-player></body>`;
      document.body.append(f);
      try {
        await loaded;
        const w = f.contentWindow! as Window & typeof globalThis;
        // Media without a prompt: real tracks from the page's own canvas and WebAudio.
        const gum = userMedia({ audio: true, video: true });
        Object.defineProperty(w.navigator.mediaDevices, 'getUserMedia', { value: gum, configurable: true, writable: true });
        const player = w.document.querySelector('tour-player')!;
        const start = (await until(() => player.shadowRoot?.querySelector<HTMLButtonElement>('.live-start'), 'the start button'))!;
        expect(fetched(w)).to.include('tour-player.js');
        expect(fetched(w)).to.not.include('tour-player-live.js');
        expect(fetched(w)).to.not.include('tour-player-agora.js');
        start.click();
        await until(() => player.shadowRoot?.querySelector('tour-live-panel')?.shadowRoot?.querySelector('[role="toolbar"]'), 'the call panel');
        if (agora) {
          await until(() => fetched(w).includes('tour-player-agora.js'), 'the Agora chunk');
          // The real SDK made the camera and microphone tracks through getUserMedia (after our permission probe).
          await until(() => gum.given.length >= 3, 'the SDK opening the devices');
        } else {
          // WebRTC: the real server admitted the viewer's socket to the room, and the call waits for the agent.
          const status = () => player.shadowRoot!.querySelector('tour-live-panel')!.shadowRoot!.querySelector('.status')?.textContent ?? '';
          await until(() => status().includes(LIVE_TEXTS.waitingOnAgent), 'waiting on the agent');
          expect(fetched(w)).to.include('tour-player-live.js');
          expect(fetched(w)).to.not.include('tour-player-agora.js');
        }
      } finally {
        f.remove();
        localStorage.removeItem('capturedDetails');
        localStorage.removeItem('roomwalk.viewingSessionRequest');
      }
    };
    try {
      await run(false);
      await run(true);
    } finally {
      await executeServerCommand('server-agora', null);
    }
  });
});
