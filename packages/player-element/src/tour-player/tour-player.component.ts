import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { PLAYER_ERROR_TEXTS as ERROR_TEXTS } from '@roomwalk/shared/player-texts';
import { PLAYER, SUPPORT_EMAIL, TIMINGS_MS } from '@roomwalk/shared/constants';
import { styles } from './tour-player.styles.js';
import { MODES, STATUSES, TOUR_ID_PATTERN, TRAVEL, OUTGOING_MESSAGE_TYPES, type PlayerMode, type PlayerStatus, type TravelStatus } from '../constants.js';
import { emit, type TourEventDetails } from '../events/events.js';
import { ERROR_CODES, TourPlayerError, type TourPlayerErrorCode } from '../errors.js';
import { graphqlRequest, GraphQLRequestError } from '../api/graphql.js';
import { PLAYER_TOUR_QUERY } from '../api/queries.js';
import { VisitBeacon } from '../api/visit-beacon.js';
import type { Marker, PlayerTour } from '../api/types.js';
import { DecodeController, type Drawable } from '../decode/decode-controller.js';
import { VideoFallback } from '../decode/video-fallback.js';
import { HostBridgeController } from '../controllers/host-bridge-controller.js';
import { MarkersController } from '../controllers/markers-controller.js';
import { LiveCallController, liveStyles } from '../controllers/live-call-controller.js';
import { activeMarkerAt, sortMarkers } from '../markers-drawer/markers-drawer.component.js';
import '../markers-drawer/markers-drawer.js';
import { canvasSize, clampFrame, maxScrollableIndex, travelPlan } from '../frame-math.js';
import { shouldOpenDrawer } from '../layout.js';

type Dialog = { title: string; body?: string } | null;
type FrameSource = TourEventDetails['tour-frame-change']['source'];

/** Frames moved per wheel pixel after the spec's 1.5 scale: one frame per 20 px (docs/decisions in NOTES). */
const WHEEL_PX_PER_FRAME = 20;
const DESKTOP_MIN_WIDTH = 900;

/** hi-res is on unless the attribute says "false" (the share pages map hiRes=false onto it). */
const hiResConverter = {
  fromAttribute: (v: string | null) => v === null || v.toLowerCase() !== 'false',
  toAttribute: (v: boolean) => (v ? null : 'false'),
};

/** The room at a frame: the last marker at or before it (within the active-marker tolerance). */
export function roomAt(sorted: readonly Marker[], frame: number): Marker | null {
  let room: Marker | null = null;
  for (const m of sorted) if (m.frameIndex <= frame + PLAYER.activeMarkerTolerance) room = m;
  return room;
}

/** A room by name, ignoring case and surrounding spaces. */
export function findRoom(sorted: readonly Marker[], name: string): Marker | undefined {
  const want = name.trim().toLowerCase();
  return want ? sorted.find((m) => m.name.trim().toLowerCase() === want) : undefined;
}

function readMetaApi(): string | undefined {
  return document.querySelector<HTMLMetaElement>('meta[name="roomwalk-api"]')?.content || undefined;
}

/** The origin of the script that defined the element, when it was loaded by a script tag. */
const scriptOrigin = (() => {
  try {
    const src = (document.currentScript as HTMLScriptElement | null)?.src || import.meta.url;
    return new URL(src).origin;
  } catch {
    return location.origin;
  }
})();

/**
 * `<tour-player>`: a scroll-driven property tour. Fetches the tour, decodes its clips in
 * workers and draws the frame for the current position.
 *
 * @tagname tour-player
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
 */
export class TourPlayer extends LitElement {
  static override styles = [styles, liveStyles];

  static override properties = {
    tourId: { type: String, attribute: 'tour-id' },
    api: { type: String },
    mode: { type: String },
    disabledControls: { type: String, attribute: 'disabled-controls' },
    hiRes: { attribute: 'hi-res', converter: hiResConverter },
    liveViewing: { type: Boolean, attribute: 'live-viewing' },
    liveSession: { type: String, attribute: 'live-session' },
    hostEvents: { type: Boolean, attribute: 'host-events' },
    debug: { type: Boolean },
    allowedOrigins: { type: String, attribute: 'allowed-origins' },
    superAdmin: { type: Boolean, attribute: 'super-admin' },
    startRoom: { type: String, attribute: 'start-room' },
    startFrame: { type: Number, attribute: 'start-frame' },
    unbranded: { type: Boolean },
    loading: { type: String },
    authToken: { attribute: false },
    homeUrl: { type: String, attribute: 'home-url' },
    loadingTimeoutMs: { attribute: false },
    tour: { state: true, attribute: false },
    frame: { state: true, attribute: false },
    loadedFrames: { state: true, attribute: false },
    status: { state: true, attribute: false },
    errorCode: { state: true, attribute: false },
    dialog: { state: true, attribute: false },
    drawerOpen: { state: true, attribute: false },
    travel: { state: true, attribute: false },
    hintVisible: { state: true, attribute: false },
    notice: { state: true, attribute: false },
    agentCardOpen: { state: true, attribute: false },
    showMore: { state: true, attribute: false },
    canvasCss: { state: true, attribute: false },
    deferred: { state: true, attribute: false },
  };

  declare tourId: string;
  declare api: string;
  declare mode: PlayerMode;
  declare disabledControls: string;
  declare hiRes: boolean;
  declare liveViewing: boolean;
  /** Viewing session id for a host joining from the agent's link (`session=`). */
  declare liveSession: string;
  declare hostEvents: boolean;
  declare debug: boolean;
  declare allowedOrigins: string;
  declare superAdmin: boolean;
  /** Opens at this room (marker name, case-insensitive); wins over `startFrame`. */
  declare startRoom: string;
  /** Opens at this frame (clamped). */
  declare startFrame: number | undefined;
  /** MLS mode: no intro logo, agent details, listing link, Whats Chat, live call, menu or any outbound link. */
  declare unbranded: boolean;
  /** `lazy` (default): only the tour query and its thumbnail poster until the element is near the viewport; `eager`: decode at once. */
  declare loading: 'lazy' | 'eager';
  /** Session token for edit-mode marker calls (sent as a Bearer token). */
  declare authToken: string | undefined;
  declare homeUrl: string;
  /** "This is taking a while..." delay; 30 s per spec, settable for tests. */
  declare loadingTimeoutMs: number;
  declare tour: PlayerTour | null;
  declare frame: number;
  declare loadedFrames: number;
  declare status: PlayerStatus;
  declare errorCode: TourPlayerErrorCode | null;
  declare dialog: Dialog;
  declare drawerOpen: boolean;
  declare travel: TravelStatus;
  declare hintVisible: boolean;
  declare notice: { message: string; variant: string } | null;
  declare agentCardOpen: boolean;
  declare showMore: boolean;
  declare canvasCss: { width: number; height: number };
  /** Lazy loading: the tour is known and its poster shown; clips wait until the element nears the viewport. */
  declare deferred: boolean;

  private decoder = new DecodeController(this);
  private fallback: VideoFallback | undefined;
  private bridge = new HostBridgeController(this);
  private markersCtl = new MarkersController(this);
  /** Live viewing: start button and the lazily loaded panel. */
  readonly live = new LiveCallController(this);
  private abort: AbortController | undefined;
  /** The visit beacon (external mode only): a view is one visitor's visit (issue 15). */
  private visit: VisitBeacon | undefined;
  private loadTimer: ReturnType<typeof setTimeout> | undefined;
  private travelTimer: ReturnType<typeof setTimeout> | undefined;
  private travelResetTimer: ReturnType<typeof setTimeout> | undefined;
  private noticeTimer: ReturnType<typeof setTimeout> | undefined;
  private rafId = 0;
  private painted: { frame: number; rendition: string; tourFrame: number } | null = null;
  private exactWaiters: { frame: number; resolve: () => void }[] = [];
  private firstFramePainted = false;
  private lastActiveMarkerId: string | null = null;
  private resizeObserver: ResizeObserver | undefined;
  private drag: { pointerId: number; x: number; y: number; startFrame: number; touch: boolean } | null = null;
  private wheelCarry = 0;
  private errorDetail = '';
  private agentCardShown = false;
  private lastRoom: string | null | undefined = undefined;
  private nearObserver: IntersectionObserver | undefined;
  /** Open VideoFrames on the main thread (created to draw, closed right after). */
  openMainFrames = 0;
  maxOpenMainFrames = 0;
  paintCount = 0;
  drawMsMax = 0;
  drawMsTotal = 0;

  constructor() {
    super();
    this.tourId = '';
    this.api = '';
    this.mode = MODES.external;
    this.disabledControls = '';
    this.hiRes = true;
    this.liveViewing = false;
    this.liveSession = '';
    this.hostEvents = false;
    this.debug = false;
    this.allowedOrigins = '';
    this.superAdmin = false;
    this.startRoom = '';
    this.startFrame = undefined;
    this.unbranded = false;
    this.loading = 'lazy';
    this.deferred = false;
    this.authToken = undefined;
    this.homeUrl = 'https://roomwalk.app';
    this.loadingTimeoutMs = TIMINGS_MS.playerLoadingTimeout;
    this.tour = null;
    this.frame = 0;
    this.loadedFrames = 0;
    this.status = STATUSES.idle;
    this.errorCode = null;
    this.dialog = null;
    this.drawerOpen = false;
    this.travel = TRAVEL.idle;
    this.hintVisible = true;
    this.notice = null;
    this.agentCardOpen = false;
    this.showMore = false;
    this.canvasCss = { width: 640, height: 360 };
  }

  // ---- read-only public state ------------------------------------------------------------

  /** The frame the player is at (or travelling to). */
  get currentFrame(): number {
    return this.frame;
  }
  /** Total frames per tours §9 (sum of clip frame counts minus 1). */
  get totalFrames(): number {
    return this.fallback?.total ?? this.decoder.total;
  }
  /** Frames whose clips are buffered (markers at or beyond are disabled). */
  get loadedFrameCount(): number {
    return this.loadedFrames;
  }
  get activeMarker(): Marker | null {
    return activeMarkerAt(this.sortedMarkers, this.frame);
  }
  /** The room the playhead is in: the last marker at or before it (null before the first). */
  get currentRoom(): Marker | null {
    return roomAt(this.sortedMarkers, this.frame);
  }
  get playerStatus(): PlayerStatus {
    return this.status;
  }
  get travelStatus(): TravelStatus {
    return this.travel;
  }
  /** Frame and rendition actually on the canvas. */
  get displayed(): { frame: number; rendition: string; exact: boolean } | null {
    return this.painted ? { frame: this.painted.tourFrame, rendition: this.painted.rendition, exact: this.painted.tourFrame === this.frame && this.decoder.isExact(this.frame) } : null;
  }
  /** Memory and frame counters for tests and the benchmark. */
  async stats() {
    const w = await this.decoder.workerStats().catch(() => ({ openFrames: 0, maxOpenFrames: 0, decodedFrames: 0, decodeMsPerFrame: 0, framesThroughDecoder: 0 }));
    return {
      cacheBytes: this.decoder.cache.totalBytes,
      cacheFrames: this.decoder.cache.size,
      peakCacheBytes: this.decoder.cache.peakBytes,
      peakDecodedBytes: this.decoder.peakDecodedBytes,
      thumbnailBytes: this.decoder.thumbBytes,
      workers: this.decoder.workers,
      openMainFrames: this.openMainFrames,
      maxOpenMainFrames: this.maxOpenMainFrames,
      workerOpenFrames: w.openFrames,
      workerMaxOpenFrames: w.maxOpenFrames,
      decodedFrames: w.decodedFrames,
      decodeMsPerFrame: w.decodeMsPerFrame,
      framesThroughDecoder: w.framesThroughDecoder,
      rejectedHostMessages: this.bridge.rejected,
      paints: this.paintCount,
      drawMsMax: this.drawMsMax,
      drawMsMean: this.paintCount ? this.drawMsTotal / this.paintCount : 0,
      cancelledDecodes: this.decoder.cancelledJobs,
    };
  }

  // ---- host-facing helpers for controllers -------------------------------------------------

  get apiBase(): string {
    return (this.api || readMetaApi() || scriptOrigin).replace(/\/$/, '');
  }
  get tourIdValue(): string {
    return this.tourId;
  }
  get hostMessagesEnabled(): boolean {
    return this.hostEvents || this.liveViewing;
  }
  get allowedOriginList(): string[] {
    return this.allowedOrigins.split(/[\s,]+/).map((s) => s.trim()).filter(Boolean);
  }
  private get disabledSet(): Set<string> {
    return new Set(this.disabledControls.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  }
  private get sortedMarkers(): Marker[] {
    return sortMarkers(this.tour?.markers ?? []);
  }
  private get maxFrame(): number {
    return maxScrollableIndex(this.totalFrames);
  }

  // ---- public methods -----------------------------------------------------------------------

  /** Shows frame n (clamped) without animation; resolves when the exact frame is on the canvas. Fires no change event. */
  goToFrame(n: number): Promise<void> {
    if (!this.tour) return Promise.resolve();
    this.stopTravel();
    return this.setFrame(clampFrame(n, this.totalFrames), null);
  }

  /** Fast-travels to a marker by id or name; resolves on arrival. */
  goToMarker(idOrName: string): Promise<void> {
    const m = this.sortedMarkers.find((x) => x.id === idOrName) ?? this.sortedMarkers.find((x) => x.name === idOrName);
    if (!m) return Promise.reject(new Error(`No marker ${idOrName}`));
    return this.travelTo(m.frameIndex, null);
  }

  /** Fast-travels to a room by marker name (case-insensitive); resolves on arrival, rejects when the tour has no such room. */
  goToRoom(name: string): Promise<void> {
    const m = findRoom(this.sortedMarkers, name);
    if (!m) return Promise.reject(new Error(`No room named ${name}`));
    return this.travelTo(m.frameIndex, null);
  }

  /** Loads the tour again from the server (the Refresh of the player dialogs). */
  refresh(): Promise<void> {
    return this.load();
  }

  // ---- lifecycle ------------------------------------------------------------------------------

  override connectedCallback(): void {
    super.connectedCallback();
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this);
    if (this.hasUpdated) void this.load();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver?.disconnect();
    this.nearObserver?.disconnect();
    this.nearObserver = undefined;
    this.abort?.abort();
    this.clearTimers();
    this.fallback?.dispose();
    cancelAnimationFrame(this.rafId);
    this.visit?.stop();
    this.visit = undefined;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The first update loads even without a tour id: a missing id is an Invalid Link.
    if ((!this.hasUpdated || changed.has('tourId') || changed.has('api')) && this.isConnected) void this.load();
    if (changed.has('hiRes') && this.tour) this.decoder.setHighEnabled(this.hiRes);
    // The markers' 720p clips are fetched ahead: fast travel lands on the exact frame even on a slow network.
    if (changed.has('tour') && this.tour) this.decoder.setPrefetchFrames(this.tour.markers.map((m) => m.frameIndex));
    if (changed.has('tour') || changed.has('unbranded')) this.applyBranding();
    if (changed.has('loading') && this.loading === 'eager' && this.deferred) this.startDecoding();
  }

  /** The company's accent (tourAccentColor) as the default of --tour-player-accent; a page's own value still wins. */
  private applyBranding(): void {
    const accent = !this.unbranded && this.tour?.tourAccentColor && /^#[0-9a-f]{6}$/i.test(this.tour.tourAccentColor) ? this.tour.tourAccentColor : '';
    if (accent) this.style.setProperty('--rw-company-accent', accent);
    else this.style.removeProperty('--rw-company-accent');
  }

  private clearTimers(): void {
    clearTimeout(this.loadTimer);
    clearTimeout(this.travelTimer);
    clearTimeout(this.travelResetTimer);
    clearTimeout(this.noticeTimer);
  }

  private setStatus(status: PlayerStatus): void {
    if (this.status === status) return;
    this.status = status;
    emit(this, 'tour-status-change', { status, travel: this.travel });
  }

  private fail(code: TourPlayerErrorCode, message: string): void {
    this.errorCode = code;
    this.errorDetail = message;
    clearTimeout(this.loadTimer);
    this.setStatus(STATUSES.error);
    emit(this, 'tour-error', { error: new TourPlayerError(code, message) });
  }

  private async load(): Promise<void> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.clearTimers();
    this.decoder.dispose();
    this.fallback?.dispose();
    this.fallback = undefined;
    this.tour = null;
    this.errorCode = null;
    this.dialog = null;
    this.painted = null;
    this.firstFramePainted = false;
    this.frame = 0;
    this.loadedFrames = 0;
    this.deferred = false;
    this.setStatus(STATUSES.loading);
    const id = (this.tourId || '').trim();
    if (!TOUR_ID_PATTERN.test(id)) {
      this.fail(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
      return;
    }
    let tour: PlayerTour | null;
    try {
      const data = await graphqlRequest<{ tour: PlayerTour | null }>(this.apiBase, PLAYER_TOUR_QUERY, { tourID: id }, { token: this.authToken, signal: abort.signal, get: true });
      tour = data.tour;
    } catch (e) {
      if (abort.signal.aborted) return;
      const code = e instanceof GraphQLRequestError ? e.code : undefined;
      if (code === 'TOUR_REMOVED') this.fail(ERROR_CODES.TOUR_REMOVED, ERROR_TEXTS.tourRemoved);
      else if (code === 'NOT_FOUND' || code === 'INVALID_TOUR_ID') this.fail(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
      else this.fail(ERROR_CODES.QUERY_FAILED, (e as Error).message);
      return;
    }
    if (abort.signal.aborted) return;
    if (!tour) {
      this.fail(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
      return;
    }
    this.tour = tour;
    this.startVisit(id);
    this.layout();
    this.lastRoom = undefined;
    this.nearObserver?.disconnect();
    this.nearObserver = undefined;
    if (this.loading !== 'eager' && typeof IntersectionObserver !== 'undefined') {
      // Lazy: the poster is the thumbnail; no clip, worker or frame until the element is within a screen of the viewport.
      this.deferred = true;
      const io = new IntersectionObserver((entries) => {
        if (!entries.some((e) => e.isIntersecting) || this.nearObserver !== io) return;
        io.disconnect();
        this.nearObserver = undefined;
        if (this.tour === tour && !abort.signal.aborted) this.startDecoding();
      }, { rootMargin: '100% 0px' });
      this.nearObserver = io;
      io.observe(this);
      return;
    }
    this.startDecoding();
  }

  /** Starts decoding the loaded tour at its start position (room, frame or 0). */
  private startDecoding(): void {
    const tour = this.tour;
    if (!tour) return;
    this.deferred = false;
    this.nearObserver?.disconnect();
    this.nearObserver = undefined;
    this.loadTimer = setTimeout(() => {
      if (!this.firstFramePainted && this.status === STATUSES.loading) {
        this.errorCode = ERROR_CODES.LOAD_TIMEOUT;
        emit(this, 'tour-error', { error: new TourPlayerError(ERROR_CODES.LOAD_TIMEOUT, ERROR_TEXTS.takingAWhile) });
      }
    }, this.loadingTimeoutMs);
    if (typeof VideoDecoder === 'undefined') {
      // No WebCodecs: seek a <video> element instead of showing a blank player.
      this.fallback = new VideoFallback(tour.clips, (frame, source) => this.paintSource(frame, source), (m) => this.onDecodeError(m));
      this.loadedFrames = this.fallback.total;
    } else {
      const vi = tour.videoInfo;
      this.decoder.load(tour.clips, { hiRes: this.hiRes, aspect: vi && vi.width && vi.height ? vi.width / vi.height : 16 / 9 });
    }
    const room = this.startRoom ? findRoom(sortMarkers(tour.markers), this.startRoom) : undefined;
    const start = room ? room.frameIndex : Number.isFinite(this.startFrame) ? Number(this.startFrame) : 0;
    void this.setFrame(clampFrame(start, this.totalFrames), null);
    if (this.fallback) void this.fallback.show(this.frame);
    this.markersCtl.resumeIfActive();
  }

  /** Reports a visitor's visit: only the external player counts (preview, edit and agent players are the team's own looks). */
  private startVisit(tourId: string): void {
    this.visit?.stop();
    this.visit = undefined;
    if (this.mode !== MODES.external) return;
    const markers = () => this.tour?.markers.filter((m) => m.frameIndex <= this.frame + PLAYER.activeMarkerTolerance).length ?? 0;
    this.visit = new VisitBeacon(this.apiBase, tourId, markers);
    this.visit.start();
  }

  /** Refetches the tour's markers only (after marker calls). */
  async refetchMarkers(): Promise<void> {
    if (!this.tour) return;
    const data = await graphqlRequest<{ tour: PlayerTour | null }>(this.apiBase, PLAYER_TOUR_QUERY, { tourID: this.tourId }, { token: this.authToken });
    if (data.tour && this.tour) this.tour = { ...this.tour, markers: data.tour.markers };
  }

  // ---- decode host ----------------------------------------------------------------------------

  onFramesArrived(): void {
    this.scheduleDraw();
  }

  onDecodeError(message: string): void {
    if (this.status === STATUSES.error) return;
    console.warn('[tour-player] decode error:', message);
    this.fail(ERROR_CODES.DECODE_FAILED, message);
  }

  onLoadedFramesChange(loaded: number): void {
    this.loadedFrames = loaded;
  }

  // ---- drawing -----------------------------------------------------------------------------

  private get canvas(): HTMLCanvasElement | null {
    return this.renderRoot.querySelector('canvas');
  }

  private scheduleDraw(): void {
    if (this.rafId) return;
    this.rafId = requestAnimationFrame(() => {
      this.rafId = 0;
      this.paint();
    });
  }

  private paint(): void {
    if (this.fallback) {
      void this.fallback.show(this.frame);
      return;
    }
    const d = this.decoder.drawable(this.frame);
    if (!d) return;
    const p = this.painted;
    if (p && p.tourFrame === d.tourFrame && p.rendition === (d.frame?.rendition ?? 'thumbnail')) {
      this.resolveWaiters();
      return;
    }
    this.drawDecoded(d);
  }

  private drawDecoded(d: Drawable): void {
    const canvas = this.canvas;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    if (d.bitmap) {
      ctx.drawImage(d.bitmap, 0, 0, canvas.width, canvas.height);
      this.painted = { frame: this.frame, rendition: 'thumbnail', tourFrame: d.tourFrame };
      this.afterPaint();
      return;
    }
    const f = d.frame;
    let vf: VideoFrame | undefined;
    try {
      vf = new VideoFrame(new Uint8Array(f.data), { format: 'I420', codedWidth: f.width, codedHeight: f.height, timestamp: 0 });
      this.openMainFrames++;
      this.maxOpenMainFrames = Math.max(this.maxOpenMainFrames, this.openMainFrames);
      const t0 = performance.now();
      ctx.drawImage(vf, 0, 0, canvas.width, canvas.height);
      const dt = performance.now() - t0;
      this.drawMsMax = Math.max(this.drawMsMax, dt);
      this.drawMsTotal += dt;
    } catch (e) {
      console.warn('Failed to draw frame as image', e);
      return;
    } finally {
      if (vf) {
        vf.close();
        this.openMainFrames--;
      }
    }
    this.painted = { frame: this.frame, rendition: f.rendition, tourFrame: d.tourFrame };
    this.afterPaint();
  }

  /** Fallback path: draws a <video> element that has been seeked to the frame. */
  private paintSource(frame: number, source: CanvasImageSource): void {
    const canvas = this.canvas;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
    this.painted = { frame, rendition: 'video', tourFrame: frame };
    this.afterPaint();
  }

  private afterPaint(): void {
    this.paintCount++;
    if (!this.firstFramePainted) {
      this.firstFramePainted = true;
      clearTimeout(this.loadTimer);
      if (this.errorCode === ERROR_CODES.LOAD_TIMEOUT) this.errorCode = null;
      this.setStatus(STATUSES.ready);
      // The parent hears "ready" before anything a tour-ready listener may cause.
      this.bridge.notifyParent(OUTGOING_MESSAGE_TYPES.ready, { totalFrames: this.totalFrames });
      emit(this, 'tour-ready', { totalFrames: this.totalFrames });
      this.layout();
    }
    this.resolveWaiters();
  }

  private resolveWaiters(): void {
    if (!this.exactWaiters.length) return;
    const exact = this.painted && this.painted.tourFrame === this.frame && (this.fallback ? true : this.decoder.isExact(this.frame) && this.painted.rendition === (this.decoder.drawable(this.frame)?.frame?.rendition ?? ''));
    const keep: typeof this.exactWaiters = [];
    for (const w of this.exactWaiters) {
      if (w.frame !== this.frame) w.resolve();
      else if (exact) w.resolve();
      else keep.push(w);
    }
    this.exactWaiters = keep;
  }

  // ---- position -------------------------------------------------------------------------------

  /** Moves the playhead; `source` null means code set it (no change event). */
  private setFrame(frame: number, source: FrameSource | null): Promise<void> {
    const changed = frame !== this.frame;
    this.frame = frame;
    this.decoder.setPosition(frame);
    const done = new Promise<void>((resolve) => this.exactWaiters.push({ frame, resolve }));
    this.scheduleDraw();
    if (changed && source) {
      emit(this, 'tour-frame-change', { frame, source });
      this.bridge.notifyParent(OUTGOING_MESSAGE_TYPES.frame, { frameIndex: frame });
    }
    const active = activeMarkerAt(this.sortedMarkers, frame);
    if ((active?.id ?? null) !== this.lastActiveMarkerId) {
      this.lastActiveMarkerId = active?.id ?? null;
      emit(this, 'tour-marker-change', { marker: active });
    }
    const room = roomAt(this.sortedMarkers, frame);
    if ((room?.name ?? null) !== this.lastRoom) {
      this.lastRoom = room?.name ?? null;
      emit(this, 'tour-room-change', { room: room?.name ?? null, marker: room, frame });
    }
    if (this.mode === MODES.agent && !this.agentCardShown && frame + 2 >= this.totalFrames && this.totalFrames > 0) {
      this.agentCardShown = true;
      this.agentCardOpen = true;
    }
    return done;
  }

  private userMove(frame: number, source: FrameSource): void {
    if (!this.tour || this.travel !== TRAVEL.idle && this.travelTimer !== undefined) return;
    void this.setFrame(clampFrame(frame, this.totalFrames), source);
  }

  /** Fast travel per tours §4; other jumps are blocked while travelling. */
  private travelTo(target: number, source: FrameSource | null): Promise<void> {
    if (!this.tour) return Promise.resolve();
    if (this.travelTimer !== undefined) return Promise.reject(new Error('A jump is in progress'));
    const to = clampFrame(target, this.totalFrames);
    const { steps, stepMs } = travelPlan(this.frame, to);
    if (!steps.length) return this.setFrame(to, null);
    this.travel = to > this.frame ? TRAVEL.forward : TRAVEL.backward;
    this.decoder.setDestination(to);
    clearTimeout(this.travelResetTimer);
    emit(this, 'tour-status-change', { status: this.status, travel: this.travel });
    return new Promise<void>((resolve) => {
      let i = 0;
      const step = () => {
        const f = steps[i++]!;
        const last = i >= steps.length;
        const arrived = this.setFrame(f, last ? source : null);
        if (last) {
          this.travelTimer = undefined;
          this.decoder.setDestination(null);
          this.travelResetTimer = setTimeout(() => {
            this.travel = TRAVEL.idle;
            emit(this, 'tour-status-change', { status: this.status, travel: this.travel });
          }, TIMINGS_MS.travelStatusReset);
          void arrived.then(resolve);
          return;
        }
        this.travelTimer = setTimeout(step, stepMs);
      };
      this.travelTimer = setTimeout(step, 0);
    });
  }

  private stopTravel(): void {
    if (this.travelTimer !== undefined) {
      clearTimeout(this.travelTimer);
      this.travelTimer = undefined;
      this.decoder.setDestination(null);
    }
  }

  // ---- host bridge ------------------------------------------------------------------------

  onHostScroll(frameIndex: number): void {
    this.userMove(frameIndex, 'host');
  }

  onHostMarker(frameIndex: number): void {
    void this.travelTo(frameIndex, 'host').catch(() => undefined);
  }

  // ---- notices and dialogs ----------------------------------------------------------------

  showNotice(message: string, variant: 'success' | 'warning' | 'error' | 'info'): void {
    emit(this, 'tour-notice', { message, variant });
    this.notice = { message, variant };
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => (this.notice = null), TIMINGS_MS.snackbarAutoHide);
  }

  showDialog(d: Dialog): void {
    this.dialog = d;
  }

  // ---- input --------------------------------------------------------------------------------

  private onWheel = (e: WheelEvent): void => {
    if (!this.tour) return;
    e.preventDefault();
    const px = (e.deltaMode === 1 ? e.deltaY * 40 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY) * PLAYER.wheelScale;
    this.wheelCarry += px / WHEEL_PX_PER_FRAME;
    const whole = Math.trunc(this.wheelCarry);
    if (!whole) return;
    this.wheelCarry -= whole;
    this.userMove(this.frame + whole, 'wheel');
  };

  private onKeyDown = (e: KeyboardEvent): void => {
    if (!this.tour) return;
    const markers = this.sortedMarkers;
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowUp':
        this.userMove(this.frame + 1, 'keyboard');
        break;
      case 'ArrowLeft':
      case 'ArrowDown':
        this.userMove(this.frame - 1, 'keyboard');
        break;
      case 'Home':
        this.userMove(0, 'keyboard');
        break;
      case 'End':
        this.userMove(this.maxFrame, 'keyboard');
        break;
      case 'PageUp': {
        const next = markers.find((m) => m.frameIndex > this.frame + PLAYER.activeMarkerTolerance && m.frameIndex < this.loadedFrames);
        if (next) void this.travelTo(next.frameIndex, 'keyboard').catch(() => undefined);
        break;
      }
      case 'PageDown': {
        const prev = [...markers].reverse().find((m) => m.frameIndex < this.frame - PLAYER.activeMarkerTolerance);
        if (prev) void this.travelTo(prev.frameIndex, 'keyboard').catch(() => undefined);
        break;
      }
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  private onPointerDown = (e: PointerEvent): void => {
    if (!this.tour) return;
    try {
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    } catch {
      /* synthetic or already released pointer */
    }
    this.drag = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, startFrame: this.frame, touch: e.pointerType === 'touch' };
  };

  private onPointerMove = (e: PointerEvent): void => {
    const d = this.drag;
    if (!d || d.pointerId !== e.pointerId) return;
    // Right or up moves forward: one frame per 80 px of drag (tours §9).
    const distance = e.clientX - d.x - (e.clientY - d.y);
    const frame = d.startFrame + Math.trunc(distance / PLAYER.joystickPixelsPerFrame);
    if (frame !== this.frame) this.userMove(frame, d.touch ? 'touch' : 'drag');
    if (this.hintVisible && this.frame >= PLAYER.joystickHintFrame) this.hintVisible = false;
  };

  private onPointerUp = (e: PointerEvent): void => {
    if (this.drag?.pointerId === e.pointerId) this.drag = null;
  };

  // ---- layout ------------------------------------------------------------------------------

  private layout(): void {
    const rect = this.getBoundingClientRect();
    const desktop = rect.width >= DESKTOP_MIN_WIDTH;
    this.dataset.layout = desktop ? 'desktop' : 'mobile';
    const video = { width: this.tour?.videoInfo?.width || 1280, height: this.tour?.videoInfo?.height || 720 };
    const menuH = 48;
    const infoW = this.mode === MODES.agent && desktop ? 280 : 0;
    const css = canvasSize(video, { width: Math.max(1, rect.width - infoW - 16), height: Math.max(1, rect.height - menuH - 16) }, desktop);
    if (css.width !== this.canvasCss.width || css.height !== this.canvasCss.height) {
      this.canvasCss = css;
      this.painted = null;
      this.scheduleDraw();
    }
    if (this.tour && !this.drawerDecided) {
      this.drawerDecided = true;
      this.drawerOpen = shouldOpenDrawer({
        viewportWidth: window.innerWidth,
        hostWidth: rect.width,
        hostHeight: rect.height,
        canvasWidth: css.width,
        canvasHeight: css.height,
        menuHeight: menuH,
        portrait: video.height > video.width,
        liveViewing: this.liveViewing,
      });
    }
  }
  private drawerDecided = false;

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('canvasCss') || changed.has('tour')) {
      const c = this.canvas;
      if (c) {
        const dpr = window.devicePixelRatio || 1;
        const nativeW = this.tour?.videoInfo?.width || 1280;
        const w = Math.min(Math.round(this.canvasCss.width * dpr), nativeW);
        const h = Math.round((w * this.canvasCss.height) / this.canvasCss.width);
        if (c.width !== w || c.height !== h) {
          c.width = w;
          c.height = h;
          this.painted = null;
          this.scheduleDraw();
        }
      }
    }
  }

  // ---- drawer requests ------------------------------------------------------------------------

  private onJumpRequest = (e: CustomEvent<{ marker: Marker }>): void => {
    e.stopPropagation();
    const m = e.detail.marker;
    if (m.frameIndex >= this.loadedFrames || this.travelTimer !== undefined) return;
    void this.travelTo(m.frameIndex, 'marker').catch(() => undefined);
  };

  private onNoticeFromDrawer = (e: CustomEvent<{ message: string; variant: 'success' | 'warning' | 'error' | 'info' }>): void => {
    if (e.target === this) return;
    e.stopPropagation();
    this.showNotice(e.detail.message, e.detail.variant);
  };

  // ---- render -------------------------------------------------------------------------------

  private renderOverlay() {
    const code = this.errorCode;
    if (this.status === STATUSES.loading && !code) {
      if (this.deferred) return nothing;
      return html`<div class="overlay loading" part="loading" role="progressbar" aria-label="Loading tour"><div class="spinner"></div></div>`;
    }
    if (!code) return nothing;
    const refresh = html`<button class="refresh" @click=${() => this.refresh()}>Refresh</button>`;
    switch (code) {
      case ERROR_CODES.LOAD_TIMEOUT:
        return this.renderDialog(ERROR_TEXTS.takingAWhileTitle, ERROR_TEXTS.takingAWhile, refresh, 'timeout');
      case ERROR_CODES.DECODE_FAILED:
        return this.renderDialog(ERROR_TEXTS.failedToLoadTitle, ERROR_TEXTS.failedToLoad, refresh, 'failed');
      case ERROR_CODES.TOUR_REMOVED:
        return this.renderDialog(
          ERROR_TEXTS.tourRemovedTitle,
          ERROR_TEXTS.tourRemoved,
          this.unbranded ? nothing : html`<a class="button" href=${this.homeUrl} target="_top">Close</a>`,
          'removed',
          this.unbranded ? nothing : html`<p>${ERROR_TEXTS.contactForMore} <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></p>`,
        );
      case ERROR_CODES.INVALID_LINK:
        return this.renderDialog(ERROR_TEXTS.invalidLinkTitle, ERROR_TEXTS.invalidLink, this.unbranded ? nothing : html`<a class="button" href=${this.homeUrl} target="_top">Go Home</a>`, 'invalid');
      default: {
        const dismissable = this.mode !== MODES.agent;
        return this.renderDialog(
          ERROR_TEXTS.dataLoadError,
          '',
          html`${dismissable ? html`<button class="secondary close" @click=${() => (this.errorCode = null)}>Close</button>` : nothing}
            <button class="retry" @click=${() => this.refresh()}>Retry</button>`,
          'query-error',
          html`<button class="secondary more" @click=${() => (this.showMore = !this.showMore)}>${this.showMore ? 'Show Less Information' : 'Show More Information'}</button>
            ${this.showMore ? html`<pre>${this.errorDetail}</pre>` : nothing}`,
        );
      }
    }
  }

  private renderDialog(title: string, body: string, actions: unknown, kind: string, extra: unknown = nothing) {
    return html`<div class="overlay" part="dialog-overlay">
      <div class="dialog" part="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dlg-title" data-kind=${kind}>
        <h2 id="dlg-title">${title}</h2>
        ${body ? html`<p>${body}</p>` : nothing}
        ${extra}
        <div class="actions">${actions}</div>
      </div>
    </div>`;
  }

  private renderAgent(desktop: boolean) {
    if (this.mode !== MODES.agent || !this.tour || this.unbranded) return nothing;
    const a = this.tour.agentProfile;
    const card = html`<h2>Agent Details</h2>
      <p>Name: ${a?.fullname ?? ''}</p>
      <p>Contact Number: ${a?.contactNumber ?? ''}</p>
      <div class="actions">
        ${this.tour.listingLink ? html`<a class="button" href=${this.tour.listingLink} target="_blank" rel="noopener">Listing Link</a>` : nothing}
        ${a?.contactNumber ? html`<a class="button" href="https://wa.me/${a.contactNumber.replace(/\D/g, '')}" target="_blank" rel="noopener">Whats Chat</a>` : nothing}
      </div>`;
    return html`${desktop
        ? html`<aside class="info-panel" part="info-panel" aria-label="Tour Info"><h2>Tour Info</h2>
            <p>${this.tour.description || 'No description provided.'}</p>${card}</aside>`
        : nothing}
      ${this.agentCardOpen
        ? html`<div class="overlay" @click=${(e: Event) => e.target === e.currentTarget && (this.agentCardOpen = false)}>
            <div class="dialog agent-card" part="dialog" role="dialog" aria-label="Agent Details">${card}
              <button class="secondary close" @click=${() => (this.agentCardOpen = false)}>Close</button></div></div>`
        : nothing}`;
  }

  protected override render() {
    const t = this.tour;
    const disabled = this.disabledSet;
    const markers = this.sortedMarkers;
    const active = activeMarkerAt(markers, this.frame);
    const current = [...markers].reverse().find((m) => m.frameIndex <= this.frame + PLAYER.activeMarkerTolerance);
    const total = this.totalFrames;
    const max = maxScrollableIndex(total);
    const percent = max > 0 ? (this.frame / max) * 100 : 0;
    const [fadeFrom, fadeTo] = PLAYER.introLogoFadeRange;
    const desktop = this.dataset.layout === 'desktop';
    const editable = this.mode === MODES.edit;
    const showDrawer = !!t && !disabled.has('markers');
    return html`<div class="base" part="base">
      ${t?.thumbnailURL ? html`<div class="background" part="background" style="background-image:url(${JSON.stringify(t.thumbnailURL)})"></div>` : nothing}
      ${disabled.has('menu')
        ? nothing
        : html`<div class="top-bar" part="top-bar">
            <h1 class="title">${t?.title ?? ''}${editable ? ' (Edit Mode)' : ''}</h1>
            ${showDrawer ? html`<button class="drawer-toggle" aria-expanded=${this.drawerOpen ? 'true' : 'false'} @click=${() => (this.drawerOpen = !this.drawerOpen)}>Fast Travel</button>` : nothing}
            ${this.unbranded ? nothing : html`<slot name="menu"><button class="drawer-toggle menu" aria-label="Menu" @click=${() => emit(this, 'tour-menu-request', {})}>☰</button></slot>`}
          </div>`}
      <div class="body">
        ${desktop ? this.renderAgent(true) : nothing}
        <div class="stage" @wheel=${this.onWheel}>
          <div class="frame" style="width:${this.canvasCss.width}px;height:${this.canvasCss.height}px">
            <canvas part="canvas" tabindex="0" role="slider"
              aria-label=${t ? `${t.title} tour` : 'Tour'}
              aria-roledescription="tour position"
              aria-orientation="horizontal"
              aria-valuemin="0" aria-valuemax=${max} aria-valuenow=${this.frame}
              aria-valuetext=${current ? current.name : `Frame ${this.frame + 1} of ${max + 1}`}
              style="width:${this.canvasCss.width}px;height:${this.canvasCss.height}px"
              @keydown=${this.onKeyDown}
              @pointerdown=${this.onPointerDown} @pointermove=${this.onPointerMove} @pointerup=${this.onPointerUp} @pointercancel=${this.onPointerUp}></canvas>
            ${this.deferred && t?.thumbnailURL ? html`<img class="poster" part="poster" alt="" src=${t.thumbnailURL} />` : nothing}
            ${t?.tourIntroLogoURL && !this.unbranded ? html`<img class="intro-logo ${percent > fadeFrom && percent < fadeTo ? 'faded' : ''}" part="intro-logo" alt="" src=${t.tourIntroLogoURL} />` : nothing}
            <div class="buffer" part="buffer" role="progressbar" aria-label="Buffered" aria-valuemin="0" aria-valuemax=${total} aria-valuenow=${this.loadedFrames}>
              <div class="buffer-bar" part="buffer-bar" style="width:${total ? (this.loadedFrames / total) * 100 : 0}%"></div>
            </div>
          </div>
          ${t
            ? html`<button class="joystick" part="joystick" aria-label="drag me to move through the tour"
                @pointerdown=${this.onPointerDown} @pointermove=${this.onPointerMove} @pointerup=${this.onPointerUp} @pointercancel=${this.onPointerUp}>
                <span aria-hidden="true">⇔</span>${this.hintVisible ? html`<span class="hint" part="hint">drag me</span>` : nothing}</button>`
            : nothing}
        </div>
        ${showDrawer && this.drawerOpen
          ? html`<tour-markers-drawer part="drawer" .markers=${markers} .frame=${this.frame} .loadedFrames=${this.loadedFrames}
              .travelling=${this.travelTimer !== undefined} .editable=${editable} .superAdmin=${this.superAdmin && editable}
              .savingIds=${this.markersCtl.savingIds} .deletingIds=${this.markersCtl.deletingIds}
              .addState=${this.markersCtl.addState} .ai=${this.markersCtl.ai}
              @tour-marker-jump-request=${this.onJumpRequest}
              @tour-marker-add-request=${(e: CustomEvent<{ name: string; custom: boolean }>) => void this.markersCtl.add(e.detail.name, e.detail.custom)}
              @tour-marker-rename-request=${(e: CustomEvent<{ marker: Marker; name: string }>) => void this.markersCtl.rename(e.detail.marker, e.detail.name)}
              @tour-marker-delete-request=${(e: CustomEvent<{ marker: Marker }>) => void this.markersCtl.remove(e.detail.marker)}
              @tour-ai-markers-request=${() => void this.markersCtl.generate()}
              @tour-notice=${this.onNoticeFromDrawer}></tour-markers-drawer>`
          : nothing}
      </div>
      ${desktop ? nothing : this.renderAgent(false)}
      ${this.liveViewing && !this.unbranded ? html`<slot name="live"></slot>${this.live.render()}` : nothing}
      ${this.renderOverlay()}
      ${this.dialog
        ? this.renderDialog(this.dialog.title, this.dialog.body ?? '', html`<button class="close" @click=${() => (this.dialog = null)}>Close</button>`, 'info')
        : nothing}
      ${this.notice ? html`<div class="notice" part="notice" role="status" data-variant=${this.notice.variant}>${this.notice.message}</div>` : nothing}
      ${this.debug ? html`<div class="debug">f ${this.frame}/${max} loaded ${this.loadedFrames} ${this.painted?.rendition ?? '-'} ${active?.name ?? ''}</div>` : nothing}
      <slot></slot>
    </div>`;
  }
}
