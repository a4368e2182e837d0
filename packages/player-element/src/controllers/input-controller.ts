import type { ReactiveController } from 'lit';
import { PLAYER } from '@roomwalk/shared/constants';
import { maxScrollableIndex } from '../frame-math.js';
import type { PlayerContext } from '../store/player-context.js';
import type { PlayheadController } from './playhead-controller.js';

/** Frames moved per wheel pixel after the spec's 1.5 scale: one frame per 20 px (docs/decisions.md). */
const WHEEL_PX_PER_FRAME = 20;

/**
 * User input on the canvas and the joystick: wheel (×1.5, one frame per 20 px), keys (arrows step, Page Up / Page Down
 * travel to the next / previous marker, Home / End) and position-based drag or touch (one frame per 80 px, right or up
 * is forward). Each becomes a request to the playhead; the handlers are bound for the template.
 */
export class InputController implements ReactiveController {
  private wheelCarry = 0;
  private drag: { pointerId: number; x: number; y: number; startFrame: number; touch: boolean } | null = null;

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
        this.playhead.userMove(maxScrollableIndex(this.ctx.totalFrames), 'keyboard');
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

  readonly onPointerDown = (e: PointerEvent): void => {
    if (!this.ctx.store.tour.peek()) return;
    try {
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    } catch {
      /* synthetic or already released pointer */
    }
    this.drag = { pointerId: e.pointerId, x: e.clientX, y: e.clientY, startFrame: this.ctx.store.frame.peek(), touch: e.pointerType === 'touch' };
  };

  readonly onPointerMove = (e: PointerEvent): void => {
    const d = this.drag;
    if (!d || d.pointerId !== e.pointerId) return;
    const { store } = this.ctx;
    // Right or up moves forward: one frame per 80 px of drag (tours §9).
    const distance = e.clientX - d.x - (e.clientY - d.y);
    const frame = d.startFrame + Math.trunc(distance / PLAYER.joystickPixelsPerFrame);
    if (frame !== store.frame.peek()) this.playhead.userMove(frame, d.touch ? 'touch' : 'drag');
    if (store.hintVisible.peek() && store.frame.peek() >= PLAYER.joystickHintFrame) store.hintVisible.value = false;
  };

  readonly onPointerUp = (e: PointerEvent): void => {
    if (this.drag?.pointerId === e.pointerId) this.drag = null;
  };
}
