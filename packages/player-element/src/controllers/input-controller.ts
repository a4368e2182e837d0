import type { ReactiveController } from 'lit';
import { signal } from '@preact/signals-core';
import { PLAYER } from '@roomwalk/shared/constants';
import type { PlayerContext } from '../store/player-context.js';
import type { PlayheadController } from './playhead-controller.js';
import { furthestReady, joystickDelta } from '../input/joystick-rate.js';
import { SWIPE_STOP, type Sample, decay, fingerSpeed, releaseVelocity, scrubFrames } from '../input/swipe-momentum.js';

/** Frames moved per wheel pixel after the spec's 1.5 scale: one frame per 20 px (docs/decisions.md). */
const WHEEL_PX_PER_FRAME = 20;
/** The swipe-direction hint's text (the picture follows the finger). */
export const DIRECTION_HINT = 'Swipe left to go forward, right to go back';
/** How long the swipe-direction hint stays after the first touch. */
const DIRECTION_HINT_MS = 3500;

/**
 * Forward distance of a pointer's move from its start. The picture follows the finger, as a photo strip or a video's
 * filmstrip does: pull left (or up) to go on. The joystick is a stick, not content: push right (or up) to go on, as the
 * arrow keys do (docs/decisions.md "Swipe direction and reach").
 */
const forwardPx = (dx: number, dy: number, joystick: boolean): number => (joystick ? dx - dy : -dx - dy);

/** How far a finger off the picture moves before its direction is read (horizontal: the tour's; vertical: the page's). */
const PAGE_SLOP_PX = 10;

/**
 * User input on the stage: wheel (×1.5, one frame per 20 px), keys on the canvas (arrows step, Page Up / Page Down
 * travel to the next / previous marker, Home / End), the joystick (a rate control) and swipes or drags anywhere else on
 * the stage, picture or not (direct scrub, then momentum). Each becomes a request to the playhead; the handlers are
 * bound for the template.
 */
export class InputController implements ReactiveController {
  private wheelCarry = 0;
  /** The swipe-direction hint: shown once, on the first swipe of the stage, then it hides itself. */
  readonly directionHint = signal(false);
  private hinted = false;
  private hintTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The pointer gesture: id, start point, forward distance, frames scrubbed, the element moved (joystick) or captured,
   * samples [ms, px]; `page`: a finger on the stage off the picture, whose vertical moves are the page's (`dead` once
   * it went vertical: the tour does not move).
   */
  private g: {
    id: number;
    x: number;
    y: number;
    d: number;
    f: number;
    el: HTMLElement;
    joy: boolean;
    page: boolean;
    dead: boolean;
    start: number;
    s: Sample[];
  } | null = null;
  /**
   * Wanted position (fractional frame) of the joystick; `target`: the finger's frame while scrubbing, then coasting.
   */
  private pos = 0;
  private target: number | null = null;
  /** The frame this controller last showed. */
  private shown = 0;
  /** Coasting velocity, frames per ms. */
  private v = 0;
  private touch = false;
  private raf = 0;
  private last = 0;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly playhead: PlayheadController,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {}

  readonly onWheel = (e: WheelEvent): void => {
    if (!this.ctx.store.tour.peek()) return;
    e.preventDefault();
    const px = (e.deltaMode === 1 ? e.deltaY * 40 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY) * PLAYER.wheelScale;
    this.wheelCarry += px / WHEEL_PX_PER_FRAME;
    const whole = Math.trunc(this.wheelCarry);
    if (!whole) return;
    this.wheelCarry -= whole;
    this.playhead.userMove(this.ctx.store.frame.peek() + whole, 'wheel');
  };

  readonly onKeyDown = (e: KeyboardEvent): void => {
    const { store } = this.ctx;
    if (!store.tour.peek()) return;
    const markers = store.sortedMarkers.peek();
    const frame = store.frame.peek();
    const tolerance = PLAYER.activeMarkerTolerance;
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowUp':
        this.playhead.userMove(frame + 1, 'keyboard');
        break;
      case 'ArrowLeft':
      case 'ArrowDown':
        this.playhead.userMove(frame - 1, 'keyboard');
        break;
      case 'Home':
        this.playhead.userMove(0, 'keyboard');
        break;
      case 'End':
        this.playhead.userMove(store.totalFrames.peek(), 'keyboard');
        break;
      case 'PageUp': {
        const next = markers.find((m) => m.frameIndex > frame + tolerance && m.frameIndex < store.loadedFrames.peek());
        if (next) this.playhead.travelFromInput(next.frameIndex, 'keyboard');
        break;
      }
      case 'PageDown': {
        const prev = [...markers].reverse().find((m) => m.frameIndex < frame - tolerance);
        if (prev) this.playhead.travelFromInput(prev.frameIndex, 'keyboard');
        break;
      }
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  };

  /**
   * Pointer gestures on the stage (docs/decisions.md "Touch that walks through a tour", "Swipe direction and reach").
   * The joystick is a rate control: held off centre it moves every refresh, faster the further it is pushed
   * (joystick-rate.ts). Anywhere else on the stage a swipe scrubs directly, then coasts (swipe-momentum.ts), the
   * picture following the finger. Each refresh the playhead goes only as far towards the wanted position as frames are
   * decoded, so neither outruns decoding nor shows a stale frame.
   */
  readonly onPointerDown = (e: PointerEvent): void => {
    const { store } = this.ctx;
    if (!store.tour.peek() || this.g || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const stage = e.currentTarget as HTMLElement;
    const joystick = e
      .composedPath()
      .find((n): n is HTMLElement => n instanceof HTMLElement && n.classList.contains('joystick'));
    const el = joystick ?? stage;
    try {
      el.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic or already released pointer */
    }
    if (!joystick) this.showDirectionHint();
    const shown = store.frame.peek();
    const onPicture = e.composedPath().some((n) => n instanceof HTMLCanvasElement);
    this.g = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      d: 0,
      f: 0,
      el,
      joy: !!joystick,
      // Around the picture the stage lets the page pan vertically (touch-action: pan-y): only sideways is the tour's.
      page: !joystick && !onPicture && e.pointerType === 'touch',
      dead: false,
      start: shown,
      s: [[e.timeStamp, 0]],
    };
    this.touch = e.pointerType === 'touch';
    this.v = 0;
    this.target = null;
    this.pos = this.shown = shown;
    this.run();
  };

  readonly onPointerMove = (e: PointerEvent): void => {
    const g = this.g;
    if (g?.id !== e.pointerId) return;
    const dx = e.clientX - g.x;
    const dy = e.clientY - g.y;
    if (g.joy) {
      g.d = forwardPx(dx, dy, true);
      const c = (n: number) => Math.max(-40, Math.min(40, n));
      g.el.style.translate = `${c(dx)}px ${c(dy)}px`;
    } else {
      if (g.dead) return;
      if (g.page && g.s.length === 1 && g.d === 0) {
        // Off the picture the first moves decide: vertical is the page's scroll, and the tour stays where it is.
        if (Math.abs(dx) + Math.abs(dy) < PAGE_SLOP_PX) return;
        if (Math.abs(dy) > Math.abs(dx)) {
          g.dead = true;
          return;
        }
      }
      const d = g.page ? -dx : forwardPx(dx, dy, false);
      // Paced by the finger's speed so far: a careful drag 4 px a frame, a deliberate one up to 1 px a frame.
      g.f += scrubFrames(d - g.d, fingerSpeed(g.s));
      g.d = d;
      g.s.push([e.timeStamp, g.d]);
      if (g.s.length > 32) g.s.shift();
      this.target = g.start + g.f;
    }
    this.run();
  };

  readonly onPointerUp = (e: PointerEvent): void => {
    const g = this.g;
    if (g?.id !== e.pointerId) return;
    this.g = null;
    g.el.style.translate = '';
    if (g.joy || g.dead || this.target === null) return;
    g.s.push([e.timeStamp, g.d]);
    // A fling coasts on from the finger's frame; otherwise the playhead settles there.
    this.v = e.type === 'pointerup' ? releaseVelocity(g.s, e.timeStamp) : 0;
    this.run();
  };

  hostDisconnected(): void {
    cancelAnimationFrame(this.raf);
    this.raf = 0;
    clearTimeout(this.hintTimer);
  }

  /** The first swipe of the stage shows which way is forward, once; the hint goes by itself. */
  private showDirectionHint(): void {
    if (this.hinted) return;
    this.hinted = true;
    this.directionHint.value = true;
    this.hintTimer = setTimeout(() => (this.directionHint.value = false), DIRECTION_HINT_MS);
  }

  private run(): void {
    if (this.raf) return;
    this.last = performance.now();
    this.raf = requestAnimationFrame(this.tick);
  }

  private readonly tick = (now: number): void => {
    this.raf = 0;
    const { store } = this.ctx;
    const dt = Math.min(Math.max(now - this.last, 0), 100);
    this.last = now;
    const g = this.g;
    const shown = store.frame.peek();
    if (shown !== this.shown) {
      // Something else (a key, a jump, a host message) moved the playhead: go on from there, stop coasting.
      this.pos = shown;
      if (!g) this.target = null;
    }
    if (g?.joy) this.pos += joystickDelta(g.d, dt);
    else if (this.v && this.target !== null) {
      this.target += this.v * dt;
      this.v = decay(this.v, dt);
      if (Math.abs(this.v) < SWIPE_STOP) this.v = 0;
    }
    const pos = Math.min(Math.max(this.target ?? this.pos, 0), store.totalFrames.peek());
    const want = pos > shown ? Math.floor(pos) : Math.ceil(pos);
    // A swipe or the joystick goes on only as far as the frames that play are there to show.
    const got = furthestReady(shown, want, (f) => this.ctx.frames.has(f));
    // The joystick never runs ahead of what is shown by more than a fraction of a frame.
    this.pos = got === want ? pos : got;
    this.shown = got;
    if (got !== shown) this.playhead.userMove(got, this.touch ? 'touch' : 'drag');
    if (store.hintVisible.peek() && got >= PLAYER.joystickHintFrame) store.hintVisible.value = false;
    if (got !== want || g?.joy || this.v) this.run();
    else if (!g) this.target = null;
  };
}
