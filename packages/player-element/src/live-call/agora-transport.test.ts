import { expect } from '@esm-bundle/chai';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { LIVE_TEXTS } from './texts.js';
import { until } from '../../test/helpers.js';
import {
  APP_ID,
  FakeAgora,
  RTC_TOKEN,
  SESSION,
  UID,
  call,
  callsOfTest,
  remoteUser,
  request,
} from '../../test/agora-stand-in.js';

/*
 * AgoraTransport under the call state machine, in Chromium with real MediaStreamTracks (canvas and WebAudio), against
 * a stand-in for the Agora Web SDK with its API surface (there is no Agora service to reach from here). The stand-in
 * records every call; the tests pin the calls, their arguments and the controller's states.
 */
// Joining, remote users, reconnecting, expiry, permissions and errors; Mute / Camera Off in agora-controls.test.ts.

describe('live call over Agora (AgoraTransport with the SDK stand-in)', () => {
  const started = callsOfTest();

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
    expect(c.states).to.deep.equal([
      'INITIALIZING',
      'CONNECTING',
      'CONNECTED',
      'RECONNECTING 1',
      'RECONNECTING 2',
      'RECONNECTING 3',
      'ERROR',
    ]);
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
    expect(c.states).to.deep.equal([
      'INITIALIZING',
      'CONNECTING',
      'CONNECTED',
      'RECONNECTING 1',
      'RECONNECTING 2',
      'CONNECTED',
      'RECONNECTING 1',
      'CONNECTED',
    ]);
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
    expect(sdk.calls.map((x) => x[0])).to.deep.equal([
      'createMicrophoneAudioTrack',
      'createCameraVideoTrack',
      'createClient',
      'join',
      'publish',
    ]);
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
    const c = started(
      call({
        sdk: Object.assign(new FakeAgora(), {
          load: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        }),
      }),
    );
    await c.controller.start();
    expect(c.states).to.deep.equal(['INITIALIZING', 'CONNECTING', 'ERROR']);
    expect(c.snapshot().error).to.equal(ERROR_TEXTS.connectionErrorOccurred);
  });

  it("reset() leaves the channel and closes the SDK's tracks: DISCONNECTED", async () => {
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
});
