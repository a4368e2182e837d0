/**
 * `<tour-live-panel>`: the live viewing panel inside `<tour-player>`. The viewer's lead form ("Send
 * notification for agent to join"), then during the call two small collapsible video tiles (remote and local) over a
 * control bar (mute, camera, sync, hang up), the panel texts, the permission warnings as 6 s toasts, retry on errors.
 * The player lays it out beside the picture, never over it (above or left by default; Move puts it below or right).
 * Lazily loaded by the player's LiveViewingController (live-panel.ts registers it); it drives the framework-neutral
 * `../live-call/` module.
 */
import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { DEFAULT_PHONE_COUNTRY, DEV_TURNSTILE_TOKEN } from '@roomwalk/shared/constants';
import { contactNumberFromInput } from '@roomwalk/shared/schemas/account';
import { leadFormSchema } from '@roomwalk/shared/schemas/tour';
import { graphqlRequest } from '../api/graphql.js';
import { createTourLead } from '../api/tour-lead.js';
import { emit } from '../events/events.js';
import { countries, loadTurnstile, siteKey, splitContact } from './lead-form.js';
import { HOST_SESSION_QUERY } from './live-queries.js';
import { styles } from './live-panel.styles.js';
import {
  CALL_STATES,
  LIVE_TEXTS,
  CallStateMachine,
  WARNING_MS,
  createScrollSync,
  type CallSnapshot,
  type LiveRole,
  type ScrollSync,
  type ViewingSessionRequestLike,
} from '../live-call/index.js';
import { forgetSession, readCapturedDetails, readSession, storeLead, type CapturedDetails } from './storage.js';

type Field = 'name' | 'surname' | 'email' | 'contactNumber' | 'turnstileToken';
type Phase = 'preparing' | 'form' | 'submitting' | 'call' | 'failed';

/**
 * `<tour-live-panel>`: the live-viewing panel (lead form, remote and local video, Mute, Camera Off, Sync, Hang Up).
 * `<tour-player live-viewing>` creates it from its lazily loaded chunk; it is not placed by hand.
 *
 * @tagname tour-live-panel
 * @fires {CustomEvent<{ tourLead: { id?: string; name: string; surname?: string | null; email: string; contactNumber?:
 * string | null; leadType?: string; tourId?: string }; viewingSessionRequest: { signalingToken: string; expireTime:
 * string } | null }>} tour-live-lead - The viewer's lead form was accepted (tourLeadCreate; was `live-lead`).
 * @fires {CustomEvent<Record<string, never>>} tour-live-close - The call ended or the panel was closed (was
 * `live-close`).
 * @attr {'start' | 'end'} dock - The side of the picture it sits on (Move swaps it).
 * @cssproperty --tour-player-accent - Button colour (inherited from the player).
 * @cssproperty --tour-player-radius - Corner radius (inherited from the player).
 */
export class TourLivePanel extends LitElement {
  static override styles = styles;

  static override properties = {
    role: { type: String },
    api: { type: String },
    tourId: { type: String, attribute: 'tour-id' },
    session: { type: String },
    authToken: { attribute: false },
    phase: { state: true, attribute: false },
    snapshot: { state: true, attribute: false },
    errors: { state: true, attribute: false },
    formError: { state: true, attribute: false },
    toasts: { state: true, attribute: false },
    syncOn: { state: true, attribute: false },
    topOpen: { state: true, attribute: false },
    bottomOpen: { state: true, attribute: false },
    muted: { state: true, attribute: false },
    cameraOff: { state: true, attribute: false },
    dock: { type: String, reflect: true },
  };

  declare role: LiveRole;
  declare api: string;
  declare tourId: string;
  /** The audience link watched through ('' for none), for the live socket (frames of a link that hides rooms). */
  declare audienceLink: string;
  declare session: string;
  declare authToken: string | undefined;
  declare private phase: Phase;
  declare private snapshot: CallSnapshot | null;
  declare private errors: Partial<Record<Field, string>>;
  declare private formError: string;
  declare private toasts: string[];
  declare private syncOn: boolean;
  declare private topOpen: boolean;
  declare private bottomOpen: boolean;
  declare private muted: boolean;
  declare private cameraOff: boolean;
  /**
   * Which side of the picture the panel sits on (`start`: above or left of it; `end`: below or right); Move swaps it.
   */
  declare dock: 'start' | 'end';

  /** Frames from the others in the room (the player moves there). */
  onRemoteFrame: ((frame: number) => void) | null = null;
  /** The lead and session the viewer got (kept for the page; also in local storage). */
  lead: CapturedDetails | null = null;
  request: ViewingSessionRequestLike | null = null;
  private call: CallStateMachine | null = null;
  private sync: ScrollSync | null = null;
  private offCall: (() => void) | null = null;
  private turnstileToken = '';
  private started = false;

  constructor() {
    super();
    this.role = 'viewer';
    this.api = '';
    this.tourId = '';
    this.audienceLink = '';
    this.session = '';
    this.authToken = undefined;
    this.phase = 'preparing';
    this.snapshot = null;
    this.errors = {};
    this.formError = '';
    this.toasts = [];
    this.syncOn = false;
    this.topOpen = true;
    this.bottomOpen = true;
    this.muted = false;
    this.cameraOff = false;
    this.dock = 'start';
  }

  /** Whether scroll sync is on and its socket open. */
  get isSyncActive(): boolean {
    return this.sync?.isSyncActive ?? false;
  }

  /** Our own frame after user input: sent to the room (throttled by the module). */
  sendFrame(frame: number): void {
    this.sync?.sendFrame(frame);
  }

  /** Starts: the host asks for its session; the viewer reuses its stored lead and session, or fills the form. */
  async begin(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.role === 'host') return this.startHost();
    const captured = readCapturedDetails();
    const stored = captured ? readSession(this.tourId) : null;
    if (captured && stored) {
      this.lead = captured;
      return this.startCall(stored);
    }
    if (captured && !siteKey()) return this.submitLead({ ...captured, turnstileToken: DEV_TURNSTILE_TOKEN }, true);
    this.openForm(captured);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    void this.stop();
  }

  /** Hang up: leaves the call and closes the panel. */
  async hangUp(): Promise<void> {
    await this.stop();
    emit(this, 'tour-live-close', {});
  }

  private async stop(): Promise<void> {
    this.sync?.destroy();
    this.sync = null;
    this.offCall?.();
    this.offCall = null;
    const call = this.call;
    this.call = null;
    if (call) await call.reset();
  }

  private async startHost(): Promise<void> {
    this.phase = 'preparing';
    try {
      const data = await graphqlRequest(
        this.api,
        HOST_SESSION_QUERY,
        { tourID: this.tourId, session: this.session || null },
        { token: this.authToken },
      );
      const req = data.tour?.viewingSessionRequest;
      if (!req) throw new Error(LIVE_TEXTS.connectionErrorOccurred);
      await this.startCall(req);
    } catch (e) {
      this.formError = (e as Error).message || LIVE_TEXTS.connectionErrorOccurred;
      this.phase = 'failed';
    }
  }

  private openForm(prefill: CapturedDetails | null): void {
    this.phase = 'form';
    this.turnstileToken = siteKey() ? '' : DEV_TURNSTILE_TOKEN;
    void this.updateComplete.then(() => {
      const f = this.renderRoot.querySelector('form');
      if (f && prefill) {
        for (const k of ['name', 'surname', 'email'] as const) {
          const input = f.elements.namedItem(k) as HTMLInputElement | null;
          if (input) input.value = prefill[k] ?? '';
        }
        const phone = splitContact(prefill.contactNumber);
        const country = f.elements.namedItem('country') as HTMLSelectElement | null;
        const number = f.elements.namedItem('contactNumber') as HTMLInputElement | null;
        if (country) country.value = phone.country;
        if (number) number.value = phone.national;
      }
      this.renderRoot.querySelector<HTMLInputElement>('input[name="name"]')?.focus();
      const box = this.renderRoot.querySelector<HTMLElement>('.turnstile');
      const key = siteKey();
      if (box && key) {
        void loadTurnstile()
          .then((t) =>
            t.render(box, {
              sitekey: key,
              callback: (tok) => (this.turnstileToken = tok),
              'expired-callback': () => (this.turnstileToken = ''),
              'error-callback': () => (this.turnstileToken = ''),
            }),
          )
          .catch(() => (this.formError = LIVE_TEXTS.connectionErrorOccurred));
      }
    });
  }

  private onSubmit = (e: SubmitEvent): void => {
    e.preventDefault();
    const f = e.currentTarget as HTMLFormElement;
    const value = (k: string) => (f.elements.namedItem(k) as HTMLInputElement).value;
    // The profile's '+{code} {national}' form: the chosen country (default ZA) and the number typed beside it.
    const contactNumber = contactNumberFromInput(value('country') || DEFAULT_PHONE_COUNTRY, value('contactNumber'));
    void this.submitLead(
      {
        name: value('name'),
        surname: value('surname'),
        email: value('email'),
        contactNumber,
        turnstileToken: this.turnstileToken,
      },
      false,
    );
  };

  private async submitLead(values: Partial<Record<Field, string | null | undefined>>, silent: boolean): Promise<void> {
    const parsed = leadFormSchema.safeParse(values);
    if (!parsed.success) {
      const errors: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const k = issue.path[0] as Field;
        errors[k] ??= issue.message;
      }
      if (silent) return this.openForm(values as CapturedDetails);
      this.errors = errors;
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    this.errors = {};
    this.formError = '';
    this.phase = 'submitting';
    try {
      const { tourLead, viewingSessionRequest } = await createTourLead(this, this.api, this.tourId, parsed.data, {
        leadType: 'LIVE_VIEWING',
      });
      storeLead(tourLead, this.tourId, viewingSessionRequest);
      this.lead = tourLead;
      emit(this, 'tour-live-lead', { tourLead, viewingSessionRequest });
      if (!viewingSessionRequest) throw new Error(LIVE_TEXTS.connectionErrorOccurred);
      await this.startCall(viewingSessionRequest);
    } catch (e) {
      this.formError = (e as Error).message || LIVE_TEXTS.connectionErrorOccurred;
      this.openForm(values as CapturedDetails);
    }
  }

  private async startCall(request: ViewingSessionRequestLike): Promise<void> {
    this.request = request;
    this.phase = 'call';
    const call = new CallStateMachine({
      role: this.role,
      request,
      url: this.api || location.origin,
      tourId: this.tourId,
      session: this.role === 'host' ? this.session || null : null,
      link: this.role === 'viewer' ? this.audienceLink : '',
      onWarning: (text) => this.toast(text),
    });
    this.call = call;
    this.offCall = call.subscribe((s) => {
      this.snapshot = s;
      if (s.state === CALL_STATES.ERROR && s.error === LIVE_TEXTS.sessionExpired) forgetSession();
    });
    // Scroll sync shares the call's socket; the viewer turns it on when the call starts, and so does the
    // host, who leads the tour.
    this.sync = createScrollSync({
      url: this.api || location.origin,
      tourId: this.tourId,
      token: request.signalingToken,
      socket: call.liveSocket,
      rebroadcast: false,
      active: true,
      onRemoteFrame: (f) => this.onRemoteFrame?.(f),
      onStatus: (s) => (this.syncOn = s.isSyncActive),
    });
    this.syncOn = this.sync.isSyncActive;
    await call.start();
  }

  private toast(text: string): void {
    this.toasts = [...this.toasts, text];
    setTimeout(() => (this.toasts = this.toasts.filter((t) => t !== text)), WARNING_MS);
  }

  /** Mute / Camera Off through the call (over Agora the SDK's own calls; a failure puts the call in ERROR). */
  private toggleTrack(kind: 'audio' | 'video'): void {
    const off = kind === 'audio' ? !this.muted : !this.cameraOff;
    if (kind === 'audio') this.muted = off;
    else this.cameraOff = off;
    const call = this.call;
    if (call) void (kind === 'audio' ? call.setMicrophoneMuted(off) : call.setCameraOff(off));
  }

  private toggleSync(): void {
    if (!this.sync) return;
    this.syncOn = this.sync.toggle();
  }

  private retry(): void {
    this.started = false;
    void this.stop().then(() => {
      this.snapshot = null;
      this.formError = '';
      if (this.request && this.role === 'viewer' && new Date(this.request.expireTime).getTime() > Date.now()) {
        this.started = true;
        return this.startCall(this.request);
      }
      return this.begin();
    });
  }

  private onKeyDown = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && (this.phase === 'form' || this.phase === 'failed')) {
      e.stopPropagation();
      void this.hangUp();
    }
  };

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has('snapshot' as keyof TourLivePanel)) return;
    const remote = this.renderRoot.querySelector<HTMLVideoElement>('video.remote');
    const local = this.renderRoot.querySelector<HTMLVideoElement>('video.local');
    const stream = this.snapshot ? ([...this.snapshot.remoteStreams.values()][0] ?? null) : null;
    if (remote && remote.srcObject !== stream) {
      remote.srcObject = stream;
      if (stream) void remote.play().catch(() => undefined);
    }
    const mine = this.snapshot?.localStream ?? null;
    if (local && local.srcObject !== mine) {
      local.srcObject = mine;
      if (mine) void local.play().catch(() => undefined);
    }
  }

  private renderForm() {
    const err = (k: Field) =>
      this.errors[k] ? html`<span class="err" id="err-${k}">${this.errors[k]}</span>` : nothing;
    const field = (
      k: Field,
      label: string,
      type: string,
      autocomplete: string,
    ) => html`<div class="field"><label for="lead-${k}">${label}</label>
        <input id="lead-${k}" name=${k} type=${type} autocomplete=${autocomplete} aria-invalid=${this.errors[k] ? 'true' : 'false'}
          aria-describedby=${this.errors[k] ? `err-${k}` : nothing} ?disabled=${this.phase === 'submitting'} />${err(k)}</div>`;
    return html`<div class="card" role="dialog" aria-modal="false" aria-labelledby="lead-title">
      <h2 id="lead-title">${LIVE_TEXTS.leadFormTitle}</h2>
      <form novalidate @submit=${this.onSubmit}>
        ${field('name', 'Name', 'text', 'given-name')}
        ${field('surname', 'Surname', 'text', 'family-name')}
        ${field('email', 'Email', 'email', 'email')}
        <div class="field"><label for="lead-contactNumber">Contact Number</label>
          <div class="phone">
            <select name="country" aria-label="Country calling code" ?disabled=${this.phase === 'submitting'}>
              ${countries().map((c) => html`<option value=${c.code} ?selected=${c.code === DEFAULT_PHONE_COUNTRY}>${c.label}</option>`)}
            </select>
            <input id="lead-contactNumber" name="contactNumber" type="tel" inputmode="tel" autocomplete="tel-national" aria-invalid=${this.errors.contactNumber ? 'true' : 'false'}
              aria-describedby=${this.errors.contactNumber ? 'err-contactNumber' : nothing} ?disabled=${this.phase === 'submitting'} />
          </div>${err('contactNumber')}</div>
        ${siteKey() ? html`<div class="turnstile" aria-label="Human check"></div>` : nothing}
        ${err('turnstileToken')}
        ${this.formError ? html`<p class="error" role="alert">${this.formError}</p>` : nothing}
        <div class="row">
          <button type="button" class="secondary" @click=${() => void this.hangUp()}>Cancel</button>
          <button type="submit" ?disabled=${this.phase === 'submitting'}>${this.phase === 'submitting' ? 'Sending...' : 'Send'}</button>
        </div>
      </form>
    </div>`;
  }

  private renderCall() {
    const s = this.snapshot;
    const text = s
      ? s.state === CALL_STATES.ERROR || s.state === CALL_STATES.DISCONNECTED
        ? LIVE_TEXTS.notConnected
        : s.panelText
      : LIVE_TEXTS.initializing;
    const connected = s?.state === CALL_STATES.CONNECTED;
    const localText = s?.localStream ? (this.cameraOff || s.audioOnly ? LIVE_TEXTS.cameraOff : '') : text;
    return html`<div class="card" role="region" aria-label="Live call">
      <div class="call-head"><span class="call-title">Live call</span>
        <button class="move" @click=${() => (this.dock = this.dock === 'end' ? 'start' : 'end')}>Move<span class="visually-hidden"> the call panel to the other side</span></button></div>
      <div class="tiles">
        <div class="tile">
          <div class="panel-head"><span>${this.role === 'host' ? 'Viewer' : 'Agent'}</span>
            <button aria-expanded=${this.topOpen ? 'true' : 'false'} aria-controls="top" @click=${() => (this.topOpen = !this.topOpen)}>${this.topOpen ? 'Hide' : 'Show'}<span class="visually-hidden"> remote video</span></button></div>
          <div class="panel top" id="top" ?hidden=${!this.topOpen}>
            <video class="remote" autoplay playsinline aria-label="Remote video"></video>
            ${text ? html`<div class="text status" role="status">${text}</div>` : nothing}
          </div>
        </div>
        <div class="tile">
          <div class="panel-head"><span>You</span>
            <button aria-expanded=${this.bottomOpen ? 'true' : 'false'} aria-controls="bottom" @click=${() => (this.bottomOpen = !this.bottomOpen)}>${this.bottomOpen ? 'Hide' : 'Show'}<span class="visually-hidden"> your video</span></button></div>
          <div class="panel bottom" id="bottom" ?hidden=${!this.bottomOpen}>
            <video class="local" autoplay playsinline muted aria-label="Your video"></video>
            ${localText ? html`<div class="text">${localText}</div>` : nothing}
          </div>
        </div>
      </div>
      ${s?.error || this.formError ? html`<p class="error" role="alert">${s?.error || this.formError}</p>` : nothing}
      <div class="bar" role="toolbar" aria-label="Call controls">
        <button class="mute" aria-pressed=${this.muted ? 'true' : 'false'} ?disabled=${!s?.localStream} @click=${() => this.toggleTrack('audio')}>${this.muted ? 'Unmute' : 'Mute'}</button>
        <button class="camera" aria-pressed=${this.cameraOff ? 'true' : 'false'} ?disabled=${!s?.localStream?.getVideoTracks().length} @click=${() => this.toggleTrack('video')}>${this.cameraOff ? 'Camera On' : 'Camera Off'}</button>
        <button class="sync" aria-pressed=${this.syncOn ? 'true' : 'false'} ?disabled=${!connected && !this.syncOn} @click=${() => this.toggleSync()}>${this.syncOn ? 'Sync On' : 'Sync Off'}</button>
        ${s?.canRetry && s.state !== CALL_STATES.DISCONNECTED ? html`<button class="retry" @click=${() => this.retry()}>Retry</button>` : nothing}
        <button class="hangup" @click=${() => void this.hangUp()}>Hang Up</button>
      </div>
    </div>`;
  }

  protected override render() {
    const body =
      this.phase === 'form' || this.phase === 'submitting'
        ? this.renderForm()
        : this.phase === 'call'
          ? this.renderCall()
          : this.phase === 'failed'
            ? html`<div class="card"><p class="error" role="alert">${this.formError}</p><div class="row">
                <button class="secondary" @click=${() => void this.hangUp()}>Close</button><button class="retry" @click=${() => this.retry()}>Retry</button></div></div>`
            : html`<div class="card" role="status">${LIVE_TEXTS.initializing}</div>`;
    return html`<div @keydown=${this.onKeyDown}>
      <div class="toasts" aria-live="polite">${this.toasts.map((t) => html`<div class="toast" role="status">${t}</div>`)}</div>
      ${body}
    </div>`;
  }
}
