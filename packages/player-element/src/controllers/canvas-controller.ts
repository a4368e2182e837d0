import type { ReactiveController } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { ERROR_CODES } from '../errors.js';
import { MODES, OUTGOING_MESSAGE_TYPES, STATUSES } from '../constants.js';
import type { Drawable, FrameSource } from '../frames/frame-source.js';
import type { DecodedFrame } from '../workers/decode-types.js';
import { PaintBridge, type BitmapWant } from '../paint/paint-bridge.js';
import type { PixelSink } from '../paint/pixel-sink.js';
import { canvasSize, joystickRoom } from '../frame-math.js';
import { DESKTOP_MIN_WIDTH, drawerBeside, drawerFitHeight, shouldOpenDrawer } from '../layout.js';
import type { PlayerContext } from '../store/player-context.js';
import type { HostBridgeController } from './host-bridge-controller.js';

const MENU_HEIGHT = 48;

/** The most frames a refresh's move skips that still counts as a swipe's step (more is a jump). */
const MAX_STEP = 8;

/** The paint worker's key of a decoded frame. */
const keyOf = (d: Drawable & { frame: object }): string => `${d.frame.rendition}:${d.tourFrame}`;

/** What a painted frame was: its rendition, or the kind of bitmap (a thumbnail, the `<video>` fallback's frame). */
const renditionOf = (d: Drawable): string => (d.frame ? d.frame.rendition : d.rendition);

/**
 * A frame's bitmap size: the canvas's backing size, or the frame's own when it is narrower (the canvas scales it up
 * for display, like a thumbnail; the paint worker then converts it without scaling).
 */
type Size = { width: number; height: number };
const sizeFor = (d: Drawable & { frame: object }, c: Size): [number, number] =>
  d.frame.width < c.width ? [d.frame.width, d.frame.height] : [c.width, c.height];

/**
 * Canvas painting and layout: shows the best decoded frame for the playhead once per refresh, reports the first frame
 * (status ready, `tour-ready`, the parent's ready notice), resolves "exact frame on screen" waiters, sizes the canvas
 * and decides once whether the drawer opens. Decoded frames are shown as ImageBitmaps the paint worker made
 * at the canvas's size (paint/paint-bridge.ts, owned here whole: started, fed, ended): on the main thread a paint is
 * one transferFromImageBitmap, and the bitmaps of the next frames in the direction of travel are asked for ahead. The
 * decoder hands its pixels in as a PixelSink. It reads the one FrameSource that plays (`ctx.frames`: the decoder's, or
 * the <video> fallback's, whose frames are bitmaps like a thumbnail).
 */
export class CanvasController implements ReactiveController, PixelSink {
  /** Paints, and main-thread time spent in paint() (all calls, also those that only asked for a bitmap): `stats()`. */
  paintCount = 0;
  drawMsMax = 0;
  drawMsTotal = 0;
  private lastFrame = 0;
  private dir = 1;
  /** Frames the playhead moved at its last move (a fast swipe skips frames: their bitmaps are not asked for). */
  private step = 1;
  private rafId = 0;
  /**
   * The canvas's backing size as chosen here. Not read back from the canvas: Firefox and WebKit give a 'bitmaprenderer'
   * canvas the size of each bitmap it is handed (Chromium keeps its own), so the next update would see a "resize",
   * blank the picture and ask for every bitmap again at that bitmap's size.
   */
  private backing: Size = { width: 300, height: 150 };
  /** The canvas element that backing size was given to (a new element starts at its default size). */
  private sized: HTMLCanvasElement | null = null;
  private waiters: { frame: number; resolve: () => void }[] = [];
  /**
   * What the last look-ahead asked the frames that play (`source`, at its `changes`) for the playhead's `frame`, and
   * their answer (the playhead's best frame, then the frames ahead): the paint that follows draws from it.
   */
  private ahead: { source: FrameSource; changes: number; frame: number; found: (Drawable | undefined)[] } | undefined;
  private drawerDecided = false;
  /** The paint worker's bridge: the decoded pixels go there, and the bitmaps shown come from it. */
  private readonly painter = new PaintBridge(() => this.scheduleDraw());

  constructor(
    private readonly ctx: PlayerContext,
    private readonly bridge: HostBridgeController,
  ) {
    ctx.host.addController(this);
  }

  decodingStarts(): void {
    this.painter.start();
  }

  framePixels(key: string, tourFrame: number, frame: DecodedFrame): void {
    const { format, width, height, data, colorSpace } = frame;
    this.painter.op({ put: key, format, width, height, data, ...(colorSpace ? { colorSpace } : {}) }, data);
    if (frame.bitmap) this.painter.addReady(key, tourFrame, frame.bitmap);
  }

  frameDropped(key: string): void {
    this.painter.op({ drop: key });
  }

  decodingEnded(final: boolean): void {
    this.painter.dispose(!final);
  }

  get bitmapSize(): Size | undefined {
    return this.painter.canvas;
  }

  /** Bytes of the bitmaps made and not shown yet, and their peak (the painter's own count). */
  get bitmapBytes(): { now: number; peak: number } {
    return { now: this.painter.bitmapBytes, peak: this.painter.peakBitmapBytes };
  }

  /** The paint worker's counters (`stats()`): bitmaps made and its time making them. */
  get paintStats(): { made: number; workerMsTotal: number } {
    return { made: this.painter.made, workerMsTotal: this.painter.workerMsTotal };
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    cancelAnimationFrame(this.rafId);
    this.rafId = 0;
  }

  /** The canvas's backing size: the size a frame's bitmap is made at. */
  get size(): Size {
    return { ...this.backing };
  }

  /** Sizes the canvas's backing store to its CSS size × DPR, never above the video's own width. */
  hostUpdated(): void {
    const c = this.canvas;
    if (!c) return;
    const css = this.ctx.store.canvasCss.peek();
    const dpr = window.devicePixelRatio || 1;
    const nativeW = this.ctx.store.tour.peek()?.videoInfo?.width || 1280;
    const w = Math.min(Math.round(css.width * dpr), nativeW);
    const h = Math.round((w * css.height) / css.width);
    if (w > 0 && h > 0) this.painter.canvas = { width: w, height: h };
    if (this.sized !== c || this.backing.width !== w || this.backing.height !== h) {
      this.sized = c;
      this.backing = { width: w, height: h };
      c.width = w;
      c.height = h;
      this.repaint();
    }
  }

  /** A new tour: nothing painted yet (the drawer's open rule stays decided for the element's life). */
  reset(): void {
    this.ctx.store.painted.value = null;
    this.ctx.store.firstFramePainted.value = false;
  }

  /**
   * The playhead moved to `frame`: paints at the next refresh (scheduleDraw). Resolves when the exact frame is on the
   * canvas, or once the playhead has moved elsewhere.
   */
  show(frame: number): Promise<void> {
    const done = new Promise<void>((resolve) => this.waiters.push({ frame, resolve }));
    this.scheduleDraw();
    return done;
  }

  /** Paints at the next refresh; the bitmaps it will need are asked for now (a key press, a decoded frame). */
  scheduleDraw(): void {
    this.timed(() => this.askAhead());
    if (this.rafId) return;
    this.rafId = requestAnimationFrame(() => {
      this.rafId = 0;
      this.timed(() => this.paint());
    });
  }

  private repaint(): void {
    this.ctx.store.painted.value = null;
    this.scheduleDraw();
  }

  private timed(f: () => void): void {
    const t0 = performance.now();
    f();
    const dt = performance.now() - t0;
    this.drawMsMax = Math.max(this.drawMsMax, dt);
    this.drawMsTotal += dt;
  }

  private get canvas(): HTMLCanvasElement | null {
    return this.ctx.host.renderRoot.querySelector('canvas');
  }

  /**
   * Paints the playhead's best frame as the look-ahead found it (the frames are asked again only when they changed
   * since, or the playhead moved without a draw asked for), and hands it to the waiters.
   */
  private paint(): void {
    const { store, frames } = this.ctx;
    const frame = store.frame.peek();
    const a = this.ahead;
    const found =
      a?.source === frames && a.changes === frames.state.changes && a.frame === frame ? a.found : this.askAhead();
    const playhead = found?.[0];
    const { lead } = this.painter;
    const leading = lead.frames;
    const canvas = this.canvas;
    if (!playhead || !canvas) return;
    if (this.shows(playhead)) this.resolveWaiters(playhead);
    else {
      let d = playhead;
      let bitmap = d.bitmap ? frames.takeBitmap(d.bitmap) : this.painter.take(keyOf(d), ...sizeFor(d, this.backing));
      // The playhead's own frame is decoded but its bitmap is not made yet: the paint worker needs more lead here.
      if (d.frame && d.tourFrame === frame) lead.note(!bitmap);
      // After a jump, until the bitmap of a decoded frame there comes, its clip's thumbnail (at once, as before).
      const t =
        !bitmap && Math.abs((store.painted.peek()?.tourFrame ?? -1e9) - frame) > PLAYER.defaultClipFrameCount
          ? frames.thumbnail(frame)
          : undefined;
      if (t?.bitmap) {
        bitmap = frames.takeBitmap(t.bitmap);
        if (bitmap) d = t;
      }
      if (bitmap) {
        canvas.getContext('bitmaprenderer')?.transferFromImageBitmap(bitmap);
        this.afterPaint({ frame, rendition: renditionOf(d), tourFrame: d.tourFrame }, playhead);
      }
    }
    // The playhead's bitmap came late and the paint lead grew: the frames now within it are asked for at once.
    if (lead.frames > leading) this.askAhead();
  }

  private shows(d: Drawable): boolean {
    const p = this.ctx.store.painted.peek();
    return !!p && p.tourFrame === d.tourFrame && p.rendition === renditionOf(d);
  }

  /**
   * Asks the frames once for the playhead's best frame and the next ones in the direction of travel, at the
   * playhead's last step (the frames a fast swipe will show, not the ones it skips), as far ahead as the paint lead
   * says (paint/paint-lead.ts: four frames, 66 ms at one frame a refresh, more where bitmaps come late); keeps the
   * answer for the paint; and asks the paint bridge in one go for their bitmaps (the frame to show first, unless shown:
   * painted when it comes, the bridge schedules a draw), which drops what the playhead has left.
   */
  private askAhead(): (Drawable | undefined)[] | undefined {
    const { store, frames } = this.ctx;
    if (!this.canvas) return;
    const frame = store.frame.peek();
    if (frame !== this.lastFrame) {
      this.dir = frame < this.lastFrame ? -1 : 1;
      // More than a swipe's step is a jump: from there the frames ahead are the next ones.
      const moved = Math.abs(frame - this.lastFrame);
      this.step = moved <= MAX_STEP ? moved : 1;
    }
    this.lastFrame = frame;
    this.painter.canvas = { ...this.backing };
    const lead = this.painter.lead.frames;
    const want: number[] = [];
    for (let k = 0; k <= lead; k++) want.push(frame + this.dir * k * this.step);
    const found = frames.drawables(want);
    this.ahead = { source: frames, changes: frames.state.changes, frame, found };
    const bitmaps: BitmapWant[] = [];
    found.forEach((d, k) => {
      // Ahead, only a frame's own decoded frame is there (drawables); the playhead's unless it is on the canvas.
      if (d?.frame && (k || !this.shows(d))) bitmaps.push([keyOf(d), want[k]!, ...sizeFor(d, this.backing), !k]);
    });
    this.painter.ask(bitmaps, frame, (lead + 1) * this.step, this.dir);
    return found;
  }

  private afterPaint(painted: { frame: number; rendition: string; tourFrame: number }, playhead: Drawable): void {
    const { store } = this.ctx;
    store.painted.value = painted;
    this.paintCount++;
    if (!store.firstFramePainted.peek()) {
      store.firstFramePainted.value = true;
      if (store.errorCode.peek() === ERROR_CODES.LOAD_TIMEOUT) store.errorCode.value = null;
      this.ctx.setStatus(STATUSES.ready);
      // The parent hears "ready" before anything a tour-ready listener may cause.
      const totalFrames = store.totalFrames.peek();
      this.bridge.notifyParent(OUTGOING_MESSAGE_TYPES.ready, { totalFrames });
      this.ctx.emit('tour-ready', { totalFrames });
      this.layout();
    }
    this.resolveWaiters(playhead);
  }

  /**
   * `playhead`: the playhead's best frame, as paint() found it; it says itself whether it is the exact one (pickDrawable),
   * so the frames are not asked again.
   */
  private resolveWaiters(playhead: Drawable): void {
    if (!this.waiters.length) return;
    const { store } = this.ctx;
    const frame = store.frame.peek();
    const p = store.painted.peek();
    const exact = !!p && p.tourFrame === frame && playhead.exact && p.rendition === renditionOf(playhead);
    const keep: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.frame !== frame || exact) w.resolve();
      else keep.push(w);
    }
    this.waiters = keep;
  }

  /**
   * Desktop or mobile layout, the canvas size for the element's box, and (once, for the first tour) the drawer's open
   * rule.
   */
  layout(): void {
    const { host, store, config } = this.ctx;
    const rect = host.getBoundingClientRect();
    const desktop = rect.width >= DESKTOP_MIN_WIDTH;
    host.dataset.layout = desktop ? 'desktop' : 'mobile';
    host.toggleAttribute('data-drawer-beside', drawerBeside(rect.width, rect.height));
    store.layout.value = desktop ? 'desktop' : 'mobile';
    const tour = store.tour.peek();
    const video = { width: tour?.videoInfo?.width || 1280, height: tour?.videoInfo?.height || 720 };
    const infoW = config.mode === MODES.agent && desktop ? 280 : 0;
    const css = canvasSize(
      video,
      { width: Math.max(1, rect.width - infoW - 16), height: Math.max(1, rect.height - MENU_HEIGHT - 16) },
      desktop,
      undefined,
      pictureMaxWidth(host),
    );
    host.style.setProperty(
      '--tour-player-drawer-fit',
      `${drawerFitHeight({ hostHeight: rect.height, menuHeight: MENU_HEIGHT, canvasHeight: css.height, joystickRoom: joystickRoom() })}px`,
    );
    const now = store.canvasCss.peek();
    if (css.width !== now.width || css.height !== now.height) {
      store.canvasCss.value = css;
      this.repaint();
    }
    if (tour && !this.drawerDecided) {
      this.drawerDecided = true;
      store.drawerOpen.value = shouldOpenDrawer({
        viewportWidth: window.innerWidth,
        hostWidth: rect.width,
        hostHeight: rect.height,
        canvasWidth: css.width,
        canvasHeight: css.height,
        menuHeight: MENU_HEIGHT,
        portrait: video.height > video.width,
        // In a call (a host opened from Join, with its session) the call panel takes the room; live viewing merely
        // offered (Talk to Agent not pressed yet) leaves the drawer's rule as for any tour.
        liveViewing: config.liveViewing && !!config.liveSession,
      });
    }
  }
}

/**
 * The picture's largest width: `--tour-player-picture-max-width` (`none`: the room the page gives, letterboxed to the
 * tour's shape, as the share page sets it; a length in px), else the spec's 650 px (an embed keeps its host's size).
 */
function pictureMaxWidth(host: HTMLElement): number | undefined {
  const v = getComputedStyle(host).getPropertyValue('--tour-player-picture-max-width').trim();
  if (v === 'none') return Number.POSITIVE_INFINITY;
  const px = /^(\d+(?:\.\d+)?)px$/.exec(v);
  return px ? Number(px[1]) : undefined;
}
