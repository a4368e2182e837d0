import { expect } from '@esm-bundle/chai';
import { DEV_TURNSTILE_TOKEN, VALIDATION } from '@roomwalk/shared';
import '../src/tour-player/tour-player.js';
import type { TourPlayer } from '../src/tour-player/tour-player.component.js';
import { executeServerCommand } from '@web/test-runner-commands';
import {
  cleanup,
  firstEvent,
  forgetLiveLead,
  makePlayer,
  ownerToken,
  real,
  rememberLiveLead,
  sameOriginServer,
  server,
  until,
} from './helpers.js';

// On the real server's main tour: the visitor's lead goes to the real server (cross-origin, as embedded), which answers
// with the viewing session the call starts from; host modes with the owner's token run same-origin (as the console).

/** The tourLeadCreate requests the page sent since the test began, with the real server's answer status. */
async function leadCalls(): Promise<{ variables: { input: Record<string, unknown> }; status: number | null }[]> {
  const all = (await executeServerCommand('requests-detail')) as {
    url: string;
    method: string;
    body: string | null;
    status: number | null;
  }[];
  return all
    .filter((r) => r.url === `${server}/query` && r.method === 'POST' && r.body?.includes('tourLeadCreate'))
    .map((r) => ({ variables: JSON.parse(r.body!).variables, status: r.status }));
}
const leadSent = () => until(async () => (await leadCalls())[0], 'tourLeadCreate');

const button = (p: TourPlayer) => p.shadowRoot!.querySelector<HTMLButtonElement>('.live-start');
const panel = (p: TourPlayer) => p.shadowRoot!.querySelector('tour-live-panel');
const panelRoot = (p: TourPlayer) => panel(p)!.shadowRoot!;
const input = (p: TourPlayer, name: string) => panelRoot(p).querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
const errorsShown = (p: TourPlayer) => [...panelRoot(p).querySelectorAll('.err')].map((e) => e.textContent?.trim());

async function player(attrs: Record<string, string | boolean>, props: Partial<TourPlayer> = {}) {
  const p = await makePlayer({ api: server, 'tour-id': real.main, ...attrs }, props);
  await firstEvent(p, 'tour-ready');
  await p.updateComplete;
  return p;
}

describe('live viewing: start button and lead form', () => {
  beforeEach(async () => {
    await executeServerCommand('requests-start');
    forgetLiveLead();
  });
  afterEach(cleanup);

  it('labels the start button per mode: Talk to Agent (external), Go Live (host modes with a token), none otherwise', async () => {
    const viewer = await player({ 'live-viewing': true });
    expect(button(viewer)?.textContent?.trim()).to.equal('Talk to Agent');
    cleanup();
    for (const mode of ['agent', 'preview', 'edit']) {
      const host = await player({ 'live-viewing': true, mode, api: sameOriginServer }, { authToken: ownerToken });
      expect(button(host)?.textContent?.trim(), mode).to.equal('Go Live');
      cleanup();
    }
    const noToken = await player({ 'live-viewing': true, mode: 'agent' });
    expect(button(noToken), 'host mode without a session token').to.equal(null);
    cleanup();
    const off = await player({});
    expect(button(off), 'without live-viewing').to.equal(null);
  });

  it('shows the lead form with the shared messages, sends tourLeadCreate and stores capturedDetails', async () => {
    const p = await player({ 'live-viewing': true });
    button(p)!.click();
    await until(() => panel(p)?.shadowRoot?.querySelector('form'), 'lead form');
    expect(panelRoot(p).querySelector('h2')!.textContent).to.equal('Send notification for agent to join');
    await until(() => panelRoot(p).activeElement === input(p, 'name'), 'focus in the form');
    for (const name of ['name', 'surname', 'email', 'contactNumber']) {
      const label = panelRoot(p).querySelector(`label[for="${input(p, name).id}"]`);
      expect(label?.textContent?.trim(), `${name} has a label`).to.be.a('string').and.not.equal('');
    }

    panelRoot(p).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await until(() => errorsShown(p).length > 0, 'validation messages');
    expect(errorsShown(p)).to.include(VALIDATION.nameRequired);
    expect(errorsShown(p)).to.include(VALIDATION.emailRequired);
    expect(input(p, 'name').getAttribute('aria-invalid')).to.equal('true');

    input(p, 'name').value = 'Vera';
    input(p, 'email').value = 'not-an-email';
    panelRoot(p).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await until(() => errorsShown(p).includes(VALIDATION.emailInvalid), 'invalid email message');
    expect(await leadCalls(), 'nothing sent while invalid').to.deep.equal([]);

    input(p, 'surname').value = 'Visitor';
    input(p, 'email').value = 'Vera@Example.com';
    input(p, 'contactNumber').value = '+27 82 555 0199';
    panelRoot(p).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const sent = await leadSent();
    // The lead names the visit it came from, so the agent sees the rooms this visitor walked.
    const { visitorId, ...rest } = sent.variables.input as Record<string, unknown>;
    expect(visitorId)
      .to.equal(localStorage.getItem('roomwalk.visitorId'))
      .and.match(/^[A-Za-z0-9_-]{8,64}$/);
    expect(rest).to.deep.equal({
      name: 'Vera',
      surname: 'Visitor',
      email: 'vera@example.com',
      contactNumber: '+27 825550199',
      turnstileToken: DEV_TURNSTILE_TOKEN,
      leadType: 'LIVE_VIEWING',
      tourId: real.main,
      // A public tour: no access grant to send (a password tour's lead carries its grant).
      access: null,
    });
    const stored = await until(() => localStorage.getItem('capturedDetails'), 'capturedDetails');
    expect(JSON.parse(stored)).to.include({ name: 'Vera', email: 'vera@example.com', leadType: 'LIVE_VIEWING' });
    expect(JSON.parse(localStorage.getItem('roomwalk.viewingSessionRequest')!).tourId).to.equal(real.main);
    // The call starts: the form gives way to the video panels and the control bar.
    await until(() => panelRoot(p).querySelector('[role="toolbar"]'), 'call controls');
    const labels = [...panelRoot(p).querySelectorAll('[role="toolbar"] button')].map((b) => b.textContent?.trim());
    expect(labels).to.include.members(['Mute', 'Camera Off', 'Hang Up']);
    expect(panelRoot(p).querySelector('video.remote')).to.exist;
    expect(panelRoot(p).querySelector('video.local')).to.exist;

    // Hang up closes the panel and gives focus back to the start button.
    panelRoot(p).querySelector<HTMLButtonElement>('.hangup')!.click();
    await until(() => button(p) && p.shadowRoot!.activeElement === button(p), 'focus back on the start button');
  });

  it("offers a country (South Africa by default) and sends the number in the profile's '+{code} {national}' form", async () => {
    const p = await player({ 'live-viewing': true });
    button(p)!.click();
    await until(() => panel(p)?.shadowRoot?.querySelector('form'), 'lead form');
    const country = panelRoot(p).querySelector<HTMLSelectElement>('select[name="country"]');
    expect(country, 'a country selector').to.exist;
    expect(country!.getAttribute('aria-label')).to.equal('Country calling code');
    expect(country!.value).to.equal('ZA');
    expect(country!.selectedOptions[0]!.textContent).to.equal('South Africa (+27)');
    input(p, 'name').value = 'Vera';
    input(p, 'email').value = 'vera@example.com';
    input(p, 'contactNumber').value = '0821112222';
    panelRoot(p).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const sent = await leadSent();
    expect(sent.variables.input.contactNumber).to.equal('+27 821112222');
    await until(() => panelRoot(p).querySelector('[role="toolbar"]'), 'call controls');
    panelRoot(p).querySelector<HTMLButtonElement>('.hangup')!.click();
    cleanup();

    // Another country, and the stored details prefill both parts.
    await executeServerCommand('requests-start');
    localStorage.removeItem('capturedDetails');
    const q = await player({ 'live-viewing': true });
    button(q)!.click();
    await until(() => panel(q)?.shadowRoot?.querySelector('form'), 'lead form');
    const select = panelRoot(q).querySelector<HTMLSelectElement>('select[name="country"]')!;
    select.value = 'GB';
    input(q, 'name').value = 'Ann';
    input(q, 'email').value = 'ann@example.com';
    input(q, 'contactNumber').value = '020 7946 0018';
    panelRoot(q).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const sent2 = await leadSent();
    expect(sent2.variables.input.contactNumber).to.equal('+44 2079460018');
  });

  it('Mute and Camera Off turn our microphone and camera off through the call, and back on', async () => {
    // No devices on a test machine: the call gets real tracks from a canvas and Web Audio instead of a camera.
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    const canvas = Object.assign(document.createElement('canvas'), { width: 64, height: 48 });
    canvas.getContext('2d')!.fillRect(0, 0, 64, 48);
    const audio = new AudioContext();
    navigator.mediaDevices.getUserMedia = async () =>
      new MediaStream([
        ...canvas.captureStream(5).getVideoTracks(),
        ...audio.createMediaStreamDestination().stream.getAudioTracks(),
      ]);
    try {
      rememberLiveLead();
      const p = await player({ 'live-viewing': true });
      button(p)!.click();
      await until(() => panel(p)?.shadowRoot?.querySelector('[role="toolbar"]'), 'call controls');
      const local = () =>
        (panelRoot(p).querySelector('video.local') as HTMLVideoElement).srcObject as MediaStream | null;
      const muteButton = () => panelRoot(p).querySelector<HTMLButtonElement>('button.mute')!;
      const cameraButton = () => panelRoot(p).querySelector<HTMLButtonElement>('button.camera')!;
      await until(
        () => !muteButton().disabled && !cameraButton().disabled && local(),
        'our camera and microphone in the call',
      );
      muteButton().click();
      await until(() => muteButton().textContent?.trim() === 'Unmute', 'Unmute');
      expect(muteButton().getAttribute('aria-pressed')).to.equal('true');
      expect(
        local()!
          .getAudioTracks()
          .map((t) => t.enabled),
      ).to.deep.equal([false]);
      expect(
        local()!
          .getVideoTracks()
          .map((t) => t.enabled),
      ).to.deep.equal([true]);
      cameraButton().click();
      await until(() => cameraButton().textContent?.trim() === 'Camera On', 'Camera On');
      expect(
        local()!
          .getVideoTracks()
          .map((t) => t.enabled),
      ).to.deep.equal([false]);
      muteButton().click();
      cameraButton().click();
      await until(
        () => muteButton().textContent?.trim() === 'Mute' && cameraButton().textContent?.trim() === 'Camera Off',
        'Mute and Camera Off again',
      );
      expect([...local()!.getAudioTracks(), ...local()!.getVideoTracks()].map((t) => t.enabled)).to.deep.equal([
        true,
        true,
      ]);
    } finally {
      navigator.mediaDevices.getUserMedia = original;
      await audio.close();
    }
  });

  it('a viewer with stored capturedDetails skips the form; Escape closes the form', async () => {
    rememberLiveLead();
    const p = await player({ 'live-viewing': true });
    button(p)!.click();
    const sent = await leadSent();
    expect(sent.variables.input).to.include({ name: 'Ada', email: 'ada@example.com', leadType: 'LIVE_VIEWING' });
    await until(() => panelRoot(p).querySelector('[role="toolbar"]'), 'call controls');
    expect(panelRoot(p).querySelector('form')).to.equal(null);
    cleanup();

    localStorage.removeItem('capturedDetails');
    const q = await player({ 'live-viewing': true });
    button(q)!.click();
    await until(() => panel(q)?.shadowRoot?.querySelector('form'), 'lead form');
    await until(() => panelRoot(q).activeElement === input(q, 'name'), 'focus in the form');
    input(q, 'name').dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await until(() => !panel(q) && button(q), 'form closed');
  });
});
