import { expect } from '@esm-bundle/chai';
import { ERROR_TEXTS } from '@roomwalk/shared';
import { until } from '../../test/helpers.js';
import { FakeAgora, type FakeLocalTrack, call, callsOfTest, request } from '../../test/agora-stand-in.js';

// Mute and Camera Off over Agora (the SDK's setMuted / setEnabled) and over WebRTC, with the SDK stand-in.

describe('call controls over Agora (AgoraTransport with the SDK stand-in)', () => {
  const started = callsOfTest();

  it("Mute is the SDK's setMuted(true) on the microphone track and Unmute setMuted(false): the device stays open, the camera is left alone, no track's enabled is touched", async () => {
    const sdk = new FakeAgora();
    const c = started(call({ sdk }));
    await c.controller.start();
    const [mic, camera] = sdk.made as [FakeLocalTrack, FakeLocalTrack];
    const before = sdk.calls.length;
    expect(await c.controller.setMicrophoneMuted(true)).to.equal(true);
    expect(sdk.calls.slice(before)).to.deep.equal([['setMuted', 'audio', true]]);
    expect(mic.muted).to.equal(true);
    expect(
      c
        .snapshot()
        .localStream!.getTracks()
        .map((t) => [t.kind, t.enabled, t.readyState]),
    ).to.have.deep.members([
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
    const done = await Promise.all([
      c.controller.setCameraOff(true),
      c.controller.setCameraOff(false),
      c.controller.setCameraOff(true),
      c.controller.setMicrophoneMuted(true),
    ]);
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

  it("over WebRTC Mute and Camera Off still turn the local tracks' enabled off and on (the transport has no call of its own for them)", async () => {
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
