import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { forgetLiveLead, real, server, rememberLiveLead, until } from '../../test/helpers.js';
import { LIVE_TEXTS } from './texts.js';
import { APP_CERTIFICATE, APP_ID, userMedia } from '../../test/agora-stand-in.js';

describe('the Agora SDK chunk (dist/tour-player-agora.js)', () => {
  it('is the real Agora Web SDK: imported in Chromium it gives AgoraRTC, whose vp8 rtc client is created without a network', async () => {
    const chunk = '/packages/player-element/dist/tour-player-agora.js';
    const mod = (await import(/* @vite-ignore */ chunk)) as { default: any };
    const AgoraRTC = mod.default;
    expect(AgoraRTC.VERSION).to.equal('4.24.8');
    for (const fn of [
      'createClient',
      'createMicrophoneAudioTrack',
      'createCameraVideoTrack',
      'checkSystemRequirements',
    ])
      expect(typeof AgoraRTC[fn], fn).to.equal('function');
    AgoraRTC.setLogLevel(4);
    expect(AgoraRTC.checkSystemRequirements()).to.equal(true);
    const client = AgoraRTC.createClient({ mode: 'rtc', codec: 'vp8' });
    for (const fn of ['join', 'publish', 'subscribe', 'leave', 'on', 'removeAllListeners'])
      expect(typeof client[fn], fn).to.equal('function');
    expect(client.connectionState).to.equal('DISCONNECTED');
  });

  it('the script-tag player fetches it only when a call starts on an Agora session (never on load, never for WebRTC)', async function () {
    this.timeout(60_000);
    const fetched = (w: Window) =>
      (w.performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
        (e) => new URL(e.name).pathname.split('/').pop()!,
      );
    // The real server, configured with Agora (its own token builder signs the RTC token) or without it (WebRTC).
    const run = async (agora: boolean) => {
      await executeServerCommand('server-agora', agora ? { appId: APP_ID, certificate: APP_CERTIFICATE } : null);
      forgetLiveLead();
      rememberLiveLead();
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
        Object.defineProperty(w.navigator.mediaDevices, 'getUserMedia', {
          value: gum,
          configurable: true,
          writable: true,
        });
        const player = w.document.querySelector('tour-player')!;
        const start = (await until(
          () => player.shadowRoot?.querySelector<HTMLButtonElement>('.live-start'),
          'the start button',
        ))!;
        expect(fetched(w)).to.include('tour-player.js');
        expect(fetched(w)).to.not.include('tour-player-live.js');
        expect(fetched(w)).to.not.include('tour-player-agora.js');
        start.click();
        await until(
          () => player.shadowRoot?.querySelector('tour-live-panel')?.shadowRoot?.querySelector('[role="toolbar"]'),
          'the call panel',
        );
        if (agora) {
          await until(() => fetched(w).includes('tour-player-agora.js'), 'the Agora chunk');
          // The real SDK made the camera and microphone tracks through getUserMedia (after our permission probe).
          await until(() => gum.given.length >= 3, 'the SDK opening the devices');
        } else {
          // WebRTC: the real server admitted the viewer's socket to the room, and the call waits for the agent.
          const status = () =>
            player.shadowRoot!.querySelector('tour-live-panel')!.shadowRoot!.querySelector('.status')?.textContent ??
            '';
          await until(() => status().includes(LIVE_TEXTS.waitingOnAgent), 'waiting on the agent');
          expect(fetched(w)).to.include('tour-player-live.js');
          expect(fetched(w)).to.not.include('tour-player-agora.js');
        }
      } finally {
        f.remove();
        forgetLiveLead();
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
