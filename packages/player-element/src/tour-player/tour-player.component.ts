import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { SignalWatcher } from '@lit-labs/preact-signals';
import { effect } from '@preact/signals-core';
import { PLAYER, TIMINGS_MS } from '@roomwalk/shared/constants';
import { styles } from './tour-player.styles.js';
import { MODES, STATUSES, type PlayerMode, type PlayerStatus, type TravelStatus } from '../constants.js';
import type { Marker, PlayerTour } from '../api/types.js';
import { DecodeController } from '../decode/decode-controller.js';
import { createPlayerStore } from '../store/player-store.js';
import { PlayerContext, playerConfig } from '../store/player-context.js';
import { CanvasController } from '../controllers/canvas-controller.js';
import { HostBridgeController } from '../controllers/host-bridge-controller.js';
import { DIRECTION_HINT, InputController } from '../controllers/input-controller.js';
import { LiveViewingController, liveStyles } from '../controllers/live-viewing-controller.js';
import { MarkersController } from '../controllers/markers-controller.js';
import { PlayheadController, findRoom, roomAt } from '../controllers/playhead-controller.js';
import { TourLoaderController } from '../controllers/tour-loader-controller.js';
import { AccessGateController } from '../controllers/access-gate-controller.js';
import { LeadGateController } from '../controllers/lead-gate-controller.js';
import { activeMarkerAt } from '../markers/markers.js';
import { renderAgentInfo } from './agent-info.js';
import { renderDrawer } from './drawer.js';
import { playerStats } from './player-stats.js';
import { PLAYER_PROPERTIES, defaultApiBase } from './properties.js';
import { renderDialog, renderErrorDialog } from './error-dialogs.js';

/**
 * `<tour-player>`: a scroll-driven property tour. Fetches the tour, decodes its clips in
 * workers and draws the frame for the current position.
 *
 * @tagname tour-player
 * @attr {string} tour-id - `tour_` + UUID; anything else is Invalid Link.
 * @attr {string} api - Server base URL; default `<meta name="roomwalk-api">`, else the script's origin.
 * @attr {'external' | 'preview' | 'edit' | 'agent'} mode - Player mode.
 * @attr {string} disabled-controls - Comma list: `menu`, `markers`, `feedback`, `ai-edit`.
 * @attr {string} hi-res - `"false"` decodes only 640x360 (absent = on).
 * @attr {boolean} live-viewing - Live viewing (also enables host messages).
 * @attr {string} live-session - Viewing session id for a host joining from the agent's link (`session=`).
 * @attr {boolean} host-events - Listen to `roomwalk_scroll` / `roomwalk_marker` window messages.
 * @attr {boolean} debug - A small overlay with frame, buffer and rendition.
 * @attr {string} allowed-origins - Origins allowed to send host messages and to receive notices.
 * @attr {boolean} super-admin - Shows "Auto generate with AI (beta)" in edit mode.
 * @attr {string} start-room - Opens at this room (marker name, case-insensitive); wins over `start-frame`.
 * @attr {number} start-frame - Opens at this frame (clamped).
 * @attr {boolean} unbranded - MLS mode: no intro logo, agent details, listing link, live call, menu or outbound link.
 * @attr {'lazy' | 'eager'} loading - `lazy` (default) waits for the viewport before decoding.
 * @attr {string} home-url - Where Go Home / Close of the removed dialog go.
 * @attr {string} audience-link - An audience link's token (`link=` of its share URL): the tour as that link shows it (its hidden rooms left out), or the company's message once it expired or was revoked.
 * @fires {CustomEvent<{ totalFrames: number }>} tour-ready - The first frame is on screen.
 * @fires {CustomEvent<{ frame: number; source: 'drag' | 'wheel' | 'touch' | 'keyboard' | 'marker' | 'host' }>} tour-frame-change - The frame changed by user input.
 * @fires {CustomEvent<{ marker: Marker | null }>} tour-marker-change - The active marker changed.
 * @fires {CustomEvent<{ room: string | null; marker: Marker | null; frame: number }>} tour-room-change - The room (the marker at or before the playhead) changed, by user input or code.
 * @fires {CustomEvent<{ status: 'idle' | 'loading' | 'ready' | 'error'; travel: 'idle' | 'forward' | 'backward' }>} tour-status-change - Loading status or travel direction changed.
 * @fires {CustomEvent<{ error: TourPlayerError }>} tour-error - A typed error (`error.code`, `error.category`).
 * @fires {CustomEvent<{ message: string; variant: 'success' | 'warning' | 'error' | 'info' }>} tour-notice - A notice also shown inside the player.
 * @fires {CustomEvent<Record<string, never>>} tour-menu-request - The menu button was pressed (the console opens its menu).
 * @slot menu - Replaces the menu button in the top bar.
 * @slot live - The live-viewing panel.
 * @csspart base - The player container.
 * @csspart background - The blurred thumbnail.
 * @csspart top-bar - Title and menu.
 * @csspart canvas - The frame canvas (a slider to assistive technology).
 * @csspart buffer - Buffer progress track.
 * @csspart buffer-bar - The buffer track's fill.
 * @csspart intro-logo - The intro logo (the company's with Custom Company Branding), faded after the first 10 %.
 * @csspart poster - The thumbnail poster while `loading="lazy"` waits for the viewport.
 * @csspart joystick - The drag control.
 * @csspart hint - "drag me" beside the joystick.
 * @csspart direction-hint - Which way a swipe goes, shown once on the first swipe.
 * @csspart drawer - The Fast Travel drawer.
 * @csspart dialog - Any dialog.
 * @csspart dialog-overlay - The dim layer behind a dialog.
 * @csspart notice - The notice (toast).
 * @csspart info-panel - Tour Info beside the canvas (agent mode, desktop).
 * @csspart loading - The loading spinner's layer.
 * @csspart live-start - The Go Live / Talk to Agent button.
 * @cssproperty --tour-player-background - Background colour (#1f1f1f).
 * @cssproperty --tour-player-accent - Accent colour (the company's with Custom Company Branding, else #1565c0).
 * @cssproperty --tour-player-text - Text colour (#fff).
 * @cssproperty --tour-player-spinner-color - Loading spinner colour (#9e9e9e).
 * @cssproperty --tour-player-drawer-width - Drawer width (250px).
 * @cssproperty --tour-player-drawer-max-height - Drawer height limit (400px).
 * @cssproperty --tour-player-radius - Corner radius (8px).
 * @cssproperty --tour-player-picture-max-width - The picture's largest width (650px); `none` fills the room the page gives, letterboxed to the tour's shape (the share page).
 */
export class TourPlayer extends SignalWatcher(LitElement) {
  static override styles = [styles, liveStyles];

  static override properties = PLAYER_PROPERTIES;

  tourId: string = '';
  api: string = '';
  mode: PlayerMode = MODES.external;
  disabledControls: string = '';
  hiRes: boolean = true;
  liveViewing: boolean = false;
  /** Viewing session id for a host joining from the agent's link (`session=`). */
  liveSession: string = '';
  hostEvents: boolean = false;
  debug: boolean = false;
  allowedOrigins: string = '';
  superAdmin: boolean = false;
  /** Opens at this room (marker name, case-insensitive); wins over `startFrame`. */
  startRoom: string = '';
  /** Opens at this frame (clamped). */
  startFrame: number | undefined = undefined;
  /** MLS mode: no intro logo, agent details, listing link, Whats Chat, live call, menu or any outbound link. */
  unbranded: boolean = false;
  /** `lazy` (default): only the tour query and its thumbnail poster until the element is near the viewport; `eager`: decode at once. */
  loading: 'lazy' | 'eager' = 'lazy';
  /** Session token for edit-mode marker calls (sent as a Bearer token). */
  authToken: string | undefined = undefined;
  homeUrl: string = 'https://roomwalk.app';
  /** An audience link's token: the tour as that link shows it. */
  audienceLink: string = '';
  /** "This is taking a while..." delay; 30 s per spec, settable for tests. */
  loadingTimeoutMs: number = TIMINGS_MS.playerLoadingTimeout;

  private readonly store = createPlayerStore();
  private readonly ctx: PlayerContext;
  private readonly decoder: DecodeController;
  private readonly bridge: HostBridgeController;
  private readonly canvas: CanvasController;
  private readonly playhead: PlayheadController;
  private readonly loader: TourLoaderController;
  private readonly input: InputController;
  private readonly gate: AccessGateController;
  private readonly leadGate: LeadGateController;
  private readonly markers: MarkersController;
  private readonly live: LiveViewingController;
  private disposeEffects: (() => void) | undefined;

  constructor() {
    super();
    const config = playerConfig(this, () => defaultApiBase(this.api));
    this.ctx = new PlayerContext(this, this.store, config);
    this.bridge = new HostBridgeController(this.ctx, {
      scroll: (f) => this.playhead.userMove(f, 'host'),
      marker: (f) => this.playhead.travelFromInput(f, 'host'),
      room: (name) => {
        const m = findRoom(this.store.sortedMarkers.peek(), name);
        if (m) this.playhead.travelFromInput(m.frameIndex, 'host');
      },
    });
    this.canvas = new CanvasController(this.ctx, this.bridge);
    // The canvas owns the painting: the decoder hands it the decoded pixels (PixelSink).
    this.decoder = new DecodeController(
      this,
      {
        onFramesArrived: () => this.canvas.scheduleDraw(),
        onDecodeError: (message) => this.loader.onDecodeError(message),
        onLoadedFramesChange: (loaded) => (this.store.loadedFrames.value = loaded),
      },
      this.canvas,
    );
    // The decoder's frames play until the tour loader switches to the <video> fallback's.
    this.ctx.play(this.decoder.frames, this.decoder.scheduler);
    this.playhead = new PlayheadController(this.ctx, this.canvas, this.bridge);
    this.loader = new TourLoaderController(
      this.ctx,
      this.canvas,
      this.playhead,
      () => this.markers.resumeIfActive(),
      this.decoder,
    );
    this.input = new InputController(this.ctx, this.playhead);
    this.gate = new AccessGateController(this.ctx, () => this.loader.reload());
    this.leadGate = new LeadGateController(
      this.ctx,
      () => this.loader.reload(),
      (f) => this.playhead.jump(f),
    );
    this.markers = new MarkersController(this.ctx, () => this.loader.refetchMarkers());
    this.live = new LiveViewingController(this.ctx, (f) => this.playhead.userMove(f, 'host'));
  }

  // ---- read-only public state ------------------------------------------------------------

  /** The loaded tour (null while loading or after an error). */
  get tour(): PlayerTour | null {
    return this.store.tour.value;
  }
  /** The frame the player is at (or travelling to). */
  get currentFrame(): number {
    return this.store.frame.value;
  }
  /** Total frames (sum of clip frame counts minus 1). */
  get totalFrames(): number {
    return this.ctx.frames.state.total;
  }
  /** Frames whose clips are buffered (markers at or beyond are disabled). */
  get loadedFrameCount(): number {
    return this.store.loadedFrames.value;
  }
  /** The marker the playhead is at (within the active-marker tolerance), or null. */
  get activeMarker(): Marker | null {
    return activeMarkerAt(this.store.sortedMarkers.value, this.store.frame.value);
  }
  /** The room the playhead is in: the last marker at or before it (null before the first). */
  get currentRoom(): Marker | null {
    return roomAt(this.store.sortedMarkers.value, this.store.frame.value);
  }
  /** `idle`, `loading`, `ready` or `error`. */
  get playerStatus(): PlayerStatus {
    return this.store.status.value;
  }
  /** `idle`, `forward` or `backward` (a fast travel's direction, for 2.5 s after it ends). */
  get travelStatus(): TravelStatus {
    return this.store.travel.value;
  }
  /** Frame and rendition actually on the canvas. */
  get displayed(): { frame: number; rendition: string; exact: boolean } | null {
    const p = this.store.painted.value;
    return p
      ? {
          frame: p.tourFrame,
          rendition: p.rendition,
          exact: p.tourFrame === this.store.frame.value && !!this.ctx.frames.drawable(p.tourFrame)?.exact,
        }
      : null;
  }
  /** Memory and frame counters for tests and the benchmark. */
  stats() {
    return playerStats(this.decoder, this.canvas, this.bridge);
  }

  // ---- public methods -----------------------------------------------------------------------

  /** Shows frame n (clamped) without animation; resolves when the exact frame is on the canvas. Fires no change event. */
  goToFrame(n: number): Promise<void> {
    return this.playhead.jump(n);
  }

  /** Fast-travels to a marker by id or name; resolves on arrival. */
  goToMarker(idOrName: string): Promise<void> {
    const sorted = this.store.sortedMarkers.peek();
    const m = sorted.find((x) => x.id === idOrName) ?? sorted.find((x) => x.name === idOrName);
    if (!m) return Promise.reject(new Error(`No marker ${idOrName}`));
    return this.playhead.travelTo(m.frameIndex, null);
  }

  /** Fast-travels to a room by marker name (case-insensitive); resolves on arrival, rejects when the tour has no such room. */
  goToRoom(name: string): Promise<void> {
    const m = findRoom(this.store.sortedMarkers.peek(), name);
    if (!m) return Promise.reject(new Error(`No room named ${name}`));
    return this.playhead.travelTo(m.frameIndex, null);
  }

  /** Loads the tour again from the server (the Refresh of the player dialogs). */
  refresh(): Promise<void> {
    return this.loader.reload();
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  private resizeObserver: ResizeObserver | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.resizeObserver = new ResizeObserver(() => this.canvas.layout());
    this.resizeObserver.observe(this);
    // State flowing down: the markers' 720p clips are fetched ahead (fast travel lands on the exact frame even on a
    // slow network), and the company's accent follows the tour.
    const store = this.store;
    const prefetch = effect(() => {
      const t = store.tour.value;
      if (t) this.decoder.setPrefetchFrames(t.markers.map((m) => m.frameIndex));
    });
    const branding = effect(() => this.applyBranding(store.tour.value));
    this.disposeEffects = () => {
      prefetch();
      branding();
    };
    if (this.hasUpdated) void this.loader.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
    this.disposeEffects?.();
    this.ctx.dispose();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('hiRes') && this.store.tour.peek()) this.decoder.setHighEnabled(this.hiRes);
    if (changed.has('unbranded')) this.applyBranding(this.store.tour.peek());
    if (changed.has('loading') && this.loading === 'eager' && this.store.deferred.peek()) this.loader.startDecoding();
  }

  /** The company's accent (tourAccentColor) as the default of --tour-player-accent; a page's own value still wins. */
  private applyBranding(tour: PlayerTour | null): void {
    const accent =
      !this.unbranded && tour?.tourAccentColor && /^#[0-9a-f]{6}$/i.test(tour.tourAccentColor)
        ? tour.tourAccentColor
        : '';
    if (accent) this.style.setProperty('--rw-company-accent', accent);
    else this.style.removeProperty('--rw-company-accent');
  }

  // ---- render -------------------------------------------------------------------------------

  private renderOverlay() {
    const s = this.store;
    const gate = s.gate.value;
    if (gate) {
      const signIn =
        this.mode === MODES.external || this.mode === MODES.agent
          ? `${this.ctx.config.apiBase.replace(/\/$/, '')}/login`
          : '';
      return this.gate.render(signIn, this.unbranded);
    }
    // A lead gate's form or waiting screen (controllers/lead-gate-controller.ts).
    const leadGate = this.leadGate.render(this.unbranded);
    if (leadGate !== nothing) return leadGate;
    const code = s.errorCode.value;
    if (code) {
      return renderErrorDialog(code, {
        unbranded: this.unbranded,
        homeUrl: this.homeUrl,
        dismissable: this.mode !== MODES.agent,
        showMore: s.showMore.value,
        detail: s.errorDetail.value,
        onRefresh: () => void this.refresh(),
        onClose: () => (s.errorCode.value = null),
        onToggleMore: () => (s.showMore.value = !s.showMore.value),
      });
    }
    // While the tour loads and until the first frame is on screen (not while a lazy player waits for the viewport).
    return s.deferred.value || s.status.value !== STATUSES.loading
      ? nothing
      : html`<div class="overlay loading" part="loading" role="progressbar" aria-label="Loading tour"><div class="spinner"></div></div>`;
  }

  protected override render() {
    const s = this.store;
    const t = s.tour.value;
    const frame = s.frame.value;
    const loaded = s.loadedFrames.value;
    const css = s.canvasCss.value;
    const disabled = new Set(
      this.disabledControls
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    );
    const markers = s.sortedMarkers.value;
    const current = roomAt(markers, frame);
    const max = s.totalFrames.value;
    const percent = max > 0 ? (frame / max) * 100 : 0;
    const [fadeFrom, fadeTo] = PLAYER.introLogoFadeRange;
    const desktop = s.layout.value === 'desktop';
    const editable = this.mode === MODES.edit;
    const showDrawer = !!t && !disabled.has('markers');
    const agent =
      this.mode === MODES.agent && t && !this.unbranded
        ? (d: boolean) => renderAgentInfo(t, d, s.agentCardOpen.value, () => (s.agentCardOpen.value = false))
        : () => nothing;
    const drag = this.input;
    const dialog = s.dialog.value;
    const notice = s.notice.value;
    // The call panel is laid out in the body beside the picture (never over it); the start button sits in the title bar
    // (it floats only when the page hides the bar), so it never covers the picture's corner.
    const live = this.liveViewing && !this.unbranded;
    // With a tour, the notice sits just above the joystick (never over it); before one, at the bottom of the player.
    const noticeEl = notice
      ? html`<div class="notice" part="notice" role="status" data-variant=${notice.variant}>${notice.message}</div>`
      : nothing;
    // The default height (.sizer) follows the tour's shape.
    return html`<div class="sizer" style="--r:${t?.videoInfo?.height ? t.videoInfo.height / t.videoInfo.width : 0.5625}"></div><div class="base" part="base">
      ${t?.thumbnailURL ? html`<div class="background" part="background" style="background-image:url(${JSON.stringify(t.thumbnailURL)})"></div>` : nothing}
      ${
        disabled.has('menu')
          ? nothing
          : html`<div class="top-bar" part="top-bar">
            <h1 class="title">${t?.title ?? ''}${editable ? ' (Edit Mode)' : ''}</h1>
            ${live && !this.live.open ? this.live.render() : nothing}
            ${showDrawer ? html`<button class="drawer-toggle" aria-expanded=${s.drawerOpen.value ? 'true' : 'false'} @click=${() => (s.drawerOpen.value = !s.drawerOpen.value)}>Fast Travel</button>` : nothing}
            ${this.unbranded ? nothing : html`<slot name="menu"><button class="drawer-toggle menu" aria-label="Menu" @click=${() => this.ctx.emit('tour-menu-request', {})}>☰</button></slot>`}
          </div>`
      }
      <div class="body">
        ${desktop ? agent(true) : nothing}
        <div class="stage" @wheel=${drag.onWheel}
          @pointerdown=${drag.onPointerDown} @pointermove=${drag.onPointerMove} @pointerup=${drag.onPointerUp} @pointercancel=${drag.onPointerUp}>
          <div class="frame">
            <canvas part="canvas" tabindex="0" role="slider"
              aria-label=${t ? `${t.title} tour` : 'Tour'}
              aria-roledescription="tour position"
              aria-orientation="horizontal"
              aria-valuemin="0" aria-valuemax=${max} aria-valuenow=${frame}
              aria-valuetext=${current ? current.name : `Frame ${frame + 1} of ${max + 1}`}
              style="width:min(${css.width}px,calc((100cqh - var(--joystick-room)) * ${css.width / css.height}),calc(100cqw - 16px));aspect-ratio:${css.width}/${css.height}"
              @keydown=${drag.onKeyDown}></canvas>
            ${drag.directionHint.value ? html`<div class="direction-hint" part="direction-hint" role="status"><span>${DIRECTION_HINT}</span></div>` : nothing}
            ${s.deferred.value && t?.thumbnailURL ? html`<img class="poster" part="poster" alt="" src=${t.thumbnailURL} />` : nothing}
            ${t?.tourIntroLogoURL && !this.unbranded ? html`<img class="intro-logo ${percent > fadeFrom && percent < fadeTo ? 'faded' : ''}" part="intro-logo" alt="" src=${t.tourIntroLogoURL} />` : nothing}
            <div class="buffer" part="buffer" role="progressbar" aria-label="Buffered" aria-valuemin="0" aria-valuemax=${max} aria-valuenow=${loaded}>
              <div class="buffer-bar" part="buffer-bar" style="width:${max ? (loaded / max) * 100 : 0}%"></div>
            </div>
          </div>
          ${
            t
              ? html`<div class="controls"><button class="joystick" part="joystick" aria-label="drag me to move through the tour">
                <span aria-hidden="true">⇔</span>${s.hintVisible.value ? html`<span class="hint" part="hint">drag me</span>` : nothing}</button>${noticeEl}</div>`
              : nothing
          }
        </div>
        ${showDrawer && s.drawerOpen.value ? renderDrawer(this.ctx, this.markers, this.playhead, { markers, frame, loaded, editable, superAdmin: this.superAdmin && editable }) : nothing}
        ${live && this.live.open ? this.live.render() : nothing}
      </div>
      ${desktop ? nothing : agent(false)}
      ${live ? html`<slot name="live"></slot>${this.live.open || !disabled.has('menu') ? nothing : this.live.render()}` : nothing}
      ${this.renderOverlay()}
      ${dialog ? renderDialog(dialog.title, dialog.body ?? '', html`<button class="close" @click=${() => (s.dialog.value = null)}>Close</button>`, 'info') : nothing}
      ${t ? nothing : noticeEl}
      ${this.debug ? html`<div class="debug">f ${frame}/${max} loaded ${loaded} ${s.painted.value?.rendition ?? '-'} ${activeMarkerAt(markers, frame)?.name ?? ''}</div>` : nothing}
      <slot></slot>
    </div>`;
  }
}
