import type { ReactiveController } from 'lit';
import { PLAYER_ERROR_TEXTS as ERROR_TEXTS } from '@roomwalk/shared/player-texts';
import { PLAYER } from '@roomwalk/shared/constants';
import { MODES, STATUSES, TOUR_ID_PATTERN } from '../constants.js';
import { ERROR_CODES, TourPlayerError } from '../errors.js';
import { graphqlRequest, GraphQLRequestError } from '../api/graphql.js';
import { PLAYER_TOUR_QUERY } from '../api/queries.js';
import { fetchPlayerTour, TourGateError } from '../api/tour-access.js';
import { VisitBeacon } from '../api/visit-beacon.js';
import type { PlayerTour } from '../api/types.js';
import { loadVideoFallback } from '../frames/load-video-fallback.js';
import { clampFrame } from '../frame-math.js';
import type { DecodeController } from '../decode/decode-controller.js';
import type { VideoFallback } from '../frames/video-fallback.js';
import type { PlayerContext } from '../store/player-context.js';
import type { CanvasController } from './canvas-controller.js';
import { findRoom, type PlayheadController } from './playhead-controller.js';

/** The tour query's error codes that mean the link is wrong, and the one that means the tour was removed. */
const INVALID_CODES = new Set(['NOT_FOUND', 'INVALID_TOUR_ID']);

/**
 * Tour loading: one run per (tour id, api) with its AbortSignal (a newer run or disconnecting aborts it). A run resets
 * the player, fetches the tour (typed errors → the error-dialog table), reports the visit (external mode), then waits
 * for the viewport (`loading="lazy"`) or starts decoding at the start room / frame, with the "taking a while" timer.
 */
export class TourLoaderController implements ReactiveController {
  private key: string | undefined;
  private abort: AbortController | undefined;
  private visit: VisitBeacon | undefined;
  private nearObserver: IntersectionObserver | undefined;
  /** This run's element is near the viewport (or eager): its tour decodes as soon as it is loaded. */
  private near = false;
  private loadTimer: ReturnType<typeof setTimeout> | undefined;
  /** This run's tour went to the `<video>` fallback (an error after that is final). */
  private fellBack = false;
  /** This run's `<video>` fallback, once it plays. */
  private fallback: VideoFallback | undefined;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly canvas: CanvasController,
    private readonly playhead: PlayheadController,
    private readonly onDecoding: () => void,
    /** The tour's decoding: started, warmed ahead, ended (the one controller that drives it as a whole). */
    private readonly decoder: DecodeController,
  ) {
    ctx.host.addController(this);
  }

  /** Before each render: a new tour id or api loads (the first update too: a missing id is an Invalid Link). */
  hostUpdate(): void {
    const { tourId, apiBase, audienceLink } = this.ctx.config;
    const key = `${tourId} ${apiBase} ${audienceLink}`;
    if (key === this.key) return;
    this.key = key;
    void this.reload();
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.abort?.abort();
    this.stopWatching();
    clearTimeout(this.loadTimer);
    this.fallback?.dispose();
    this.visit?.stop();
    this.visit = undefined;
  }

  /** Loads the tour again (Refresh, Retry, reconnection); resolves when this run ends. */
  async reload(): Promise<void> {
    this.abort?.abort();
    const ac = new AbortController();
    this.abort = ac;
    try {
      await this.load(this.ctx.config.tourId, ac.signal);
    } catch (e) {
      if (ac.signal.aborted) return;
      const err = e instanceof TourPlayerError ? e : new TourPlayerError(ERROR_CODES.QUERY_FAILED, String(e));
      this.ctx.fail(err.code, err.message);
    }
  }

  private async load(tourId: string, signal: AbortSignal): Promise<void> {
    const { store, config } = this.ctx;
    const { decoder } = this;
    clearTimeout(this.loadTimer);
    this.playhead.reset();
    decoder.dispose();
    this.fallback?.dispose();
    this.fallback = undefined;
    this.ctx.play(decoder.frames, decoder.scheduler);
    this.fellBack = false;
    this.canvas.reset();
    store.tour.value = null;
    store.errorCode.value = null;
    store.dialog.value = null;
    store.frame.value = 0;
    store.loadedFrames.value = 0;
    store.totalFrames.value = 0;
    store.deferred.value = false;
    store.gate.value = null;
    this.ctx.setStatus(STATUSES.loading);
    const id = (tourId || '').trim();
    if (!TOUR_ID_PATTERN.test(id)) throw new TourPlayerError(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
    this.watchNearness();
    let tour: PlayerTour | null;
    try {
      tour = await fetchPlayerTour(config.apiBase, id, config.authToken, signal, config.audienceLink.trim());
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof TourGateError) {
        // A protected tour: its gate, in the company's branding; nothing of the tour is fetched until it opens.
        store.gate.value = { ...e.gate, error: '', busy: false };
        this.ctx.setStatus(STATUSES.idle);
        return;
      }
      const code = e instanceof GraphQLRequestError ? e.code : undefined;
      if (code === 'TOUR_REMOVED') throw new TourPlayerError(ERROR_CODES.TOUR_REMOVED, ERROR_TEXTS.tourRemoved);
      if (code && INVALID_CODES.has(code)) throw new TourPlayerError(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
      throw new TourPlayerError(ERROR_CODES.QUERY_FAILED, (e as Error).message);
    }
    if (signal.aborted) return;
    if (!tour) throw new TourPlayerError(ERROR_CODES.INVALID_LINK, ERROR_TEXTS.invalidLink);
    store.tour.value = tour;
    this.startVisit(id);
    this.canvas.layout();
    // Lazy and not yet near: the poster is the thumbnail until the element nears the viewport (watchNearness).
    if (this.near) this.startDecoding();
    else store.deferred.value = true;
  }

  /**
   * Whether the element is near enough to decode: at once with `loading="eager"`; with `lazy`, once it is within a
   * screen of the viewport (no clip, worker or frame before). Watched from the start of a run, so the workers start
   * (decoder.prewarm) while the tour query is in flight; a tour already loaded and waiting (deferred) starts decoding.
   */
  private watchNearness(): void {
    const { config, store } = this.ctx;
    const { decoder } = this;
    this.stopWatching();
    this.near = config.loading === 'eager' || typeof IntersectionObserver === 'undefined';
    if (this.near) {
      decoder.prewarm();
      return;
    }
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting) || this.nearObserver !== io) return;
        this.stopWatching();
        this.near = true;
        decoder.prewarm();
        if (store.deferred.peek()) this.startDecoding();
      },
      { rootMargin: '100% 0px' },
    );
    this.nearObserver = io;
    io.observe(this.ctx.host);
  }

  private stopWatching(): void {
    this.nearObserver?.disconnect();
    this.nearObserver = undefined;
  }

  /** Starts decoding the loaded tour at its start position (room, frame or 0); `loading="eager"` calls it at once. */
  startDecoding(): void {
    const { store, config } = this.ctx;
    const { decoder } = this;
    const tour = store.tour.peek();
    if (!tour) return;
    store.deferred.value = false;
    this.stopWatching();
    this.loadTimer = setTimeout(() => {
      if (!store.firstFramePainted.peek() && store.status.peek() === STATUSES.loading) {
        store.errorCode.value = ERROR_CODES.LOAD_TIMEOUT;
        this.ctx.emit('tour-error', { error: new TourPlayerError(ERROR_CODES.LOAD_TIMEOUT, ERROR_TEXTS.takingAWhile) });
      }
    }, config.loadingTimeoutMs);
    if (typeof VideoDecoder === 'undefined') {
      this.startFallback(tour, 'no WebCodecs in this browser');
      return;
    }
    const vi = tour.videoInfo;
    decoder.load(tour.clips, { hiRes: config.hiRes, aspect: vi?.width && vi.height ? vi.width / vi.height : 16 / 9 });
    this.start();
  }

  /**
   * Plays the tour by seeking a `<video>` element: without WebCodecs, or once the decoder failed on it (an error from
   * VideoDecoder, a configuration or frame it cannot handle). Its code loads only here (a chunk of its own in the
   * script-tag build). Where the tour already plays, it goes on at the frame shown.
   */
  private startFallback(tour: PlayerTour, reason: string): void {
    const { store } = this.ctx;
    console.warn(`[tour-player] playing through <video>: ${reason}`);
    this.fellBack = true;
    const resume = store.totalFrames.peek() > 0;
    loadVideoFallback().then(
      ({ VideoFallback }) => {
        if (store.tour.peek() !== tour || !this.ctx.host.isConnected) return;
        const fallback = new VideoFallback(
          tour.clips,
          () => this.canvas.size,
          () => this.canvas.scheduleDraw(),
          (m) => this.onDecodeError(m),
        );
        this.fallback = fallback;
        // From now on the <video> frames play: the canvas, the input and the playhead go on as they were.
        this.ctx.play(fallback, fallback);
        store.loadedFrames.value = fallback.state.total;
        if (!resume) return this.start();
        store.totalFrames.value = fallback.state.total;
        fallback.setPosition(store.frame.peek());
      },
      (e: unknown) => this.onDecodeError(e instanceof Error ? e.message : String(e)),
    );
  }

  /** Moves to the start position (room, frame or 0) once the frame source (decoder or fallback) has the tour. */
  private start(): void {
    const { store, config } = this.ctx;
    const total = this.ctx.frames.state.total;
    store.totalFrames.value = total;
    const room = config.startRoom ? findRoom(store.sortedMarkers.peek(), config.startRoom) : undefined;
    const start = room ? room.frameIndex : Number.isFinite(config.startFrame) ? Number(config.startFrame) : 0;
    void this.playhead.setFrame(clampFrame(start, total), null);
    this.onDecoding();
  }

  /**
   * A clip could not be fetched or decoded. From the decoder: the tour goes on through `<video>` (a visitor never sees
   * "Failed to Load" for a tour a `<video>` element can play); from the `<video>` fallback: no path can play it,
   * "Failed to Load" (once).
   */
  onDecodeError(message: string): void {
    const { store } = this.ctx;
    const { decoder } = this;
    if (store.status.peek() === STATUSES.error) return;
    const tour = store.tour.peek();
    if (!this.fellBack && tour) {
      decoder.dispose();
      this.startFallback(tour, `the decoder failed (${message})`);
      return;
    }
    console.warn('[tour-player] decode error:', message);
    this.ctx.fail(ERROR_CODES.DECODE_FAILED, message);
  }

  /**
   * Reports a visitor's visit: only the external player counts (preview, edit and agent players are the team's own
   * looks).
   */
  private startVisit(tourId: string): void {
    this.visit?.stop();
    this.visit = undefined;
    if (this.ctx.config.mode !== MODES.external) return;
    const { store } = this.ctx;
    const markers = () =>
      store.tour.peek()?.markers.filter((m) => m.frameIndex <= store.frame.peek() + PLAYER.activeMarkerTolerance)
        .length ?? 0;
    this.visit = new VisitBeacon(this.ctx.config.apiBase, tourId, markers, this.ctx.config.audienceLink.trim());
    this.visit.start();
  }

  /** Refetches the tour's markers only (after marker calls). */
  async refetchMarkers(): Promise<void> {
    const { store, config } = this.ctx;
    if (!store.tour.peek()) return;
    const data = await graphqlRequest<{ tour: PlayerTour | null }>(
      config.apiBase,
      PLAYER_TOUR_QUERY,
      { tourID: config.tourId },
      { token: config.authToken },
    );
    const tour = store.tour.peek();
    if (data.tour && tour) store.tour.value = { ...tour, markers: data.tour.markers };
  }
}
