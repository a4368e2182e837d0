import type { ReactiveController } from 'lit';
import { PLAYER, TIMINGS_MS } from '@roomwalk/shared/constants';
import { MODES, OUTGOING_MESSAGE_TYPES, TRAVEL } from '../constants.js';
import type { TourEventDetails } from '../events/events.js';
import type { Marker } from '../api/types.js';
import { activeMarkerAt } from '../markers/markers.js';
import { clampFrame, travelPlan } from '../frame-math.js';
import type { PlayerContext } from '../store/player-context.js';
import type { CanvasController } from './canvas-controller.js';
import type { HostBridgeController } from './host-bridge-controller.js';

/** What moved the playhead (a `tour-frame-change`'s source): a kind of input. */
export type MoveSource = TourEventDetails['tour-frame-change']['source'];

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

/**
 * The playhead and fast travel: moves the frame, tells the decoder where to decode, fires
 * `tour-frame-change` (user input only), `tour-marker-change` and `tour-room-change`, animates marker jumps and blocks
 * other jumps while one runs, and opens the agent card at the end of an agent-mode tour.
 */
export class PlayheadController implements ReactiveController {
  private travelTimer: ReturnType<typeof setTimeout> | undefined;
  private travelResetTimer: ReturnType<typeof setTimeout> | undefined;
  private lastActiveMarkerId: string | null = null;
  private lastRoom: string | null | undefined = undefined;
  private agentCardShown = false;

  constructor(
    private readonly ctx: PlayerContext,
    private readonly canvas: CanvasController,
    private readonly bridge: HostBridgeController,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.stopTravel();
    clearTimeout(this.travelResetTimer);
  }

  /** A new tour: no travel, the first room shown is announced again. */
  reset(): void {
    this.stopTravel();
    clearTimeout(this.travelResetTimer);
    this.lastRoom = undefined;
  }

  /**
   * Moves the playhead; `source` null means code set it (no change event). Resolves when the exact frame is painted.
   */
  setFrame(frame: number, source: MoveSource | null): Promise<void> {
    const { store, config } = this.ctx;
    const changed = frame !== store.frame.peek();
    store.frame.value = frame;
    // The frames that play follow the playhead (decoding centres on it; the <video> fallback seeks).
    this.ctx.focus.setPosition(frame);
    const done = this.canvas.show(frame);
    if (changed && source) {
      this.ctx.emit('tour-frame-change', { frame, source });
      this.bridge.notifyParent(OUTGOING_MESSAGE_TYPES.frame, { frameIndex: frame });
    }
    const markers = store.sortedMarkers.peek();
    const active = activeMarkerAt(markers, frame);
    if ((active?.id ?? null) !== this.lastActiveMarkerId) {
      this.lastActiveMarkerId = active?.id ?? null;
      this.ctx.emit('tour-marker-change', { marker: active });
    }
    const room = roomAt(markers, frame);
    if ((room?.name ?? null) !== this.lastRoom) {
      this.lastRoom = room?.name ?? null;
      this.ctx.emit('tour-room-change', { room: room?.name ?? null, marker: room, frame });
    }
    const total = store.totalFrames.peek();
    // The agent card near the end: the config is read only there.
    if (!this.agentCardShown && total > 0 && frame + 2 >= total && config.mode === MODES.agent) {
      this.agentCardShown = true;
      store.agentCardOpen.value = true;
    }
    return done;
  }

  /** A step by user input (drag, wheel, touch, keyboard, host scroll): ignored while a fast travel animates. */
  userMove(frame: number, source: MoveSource): void {
    const { store } = this.ctx;
    if (!store.tour.peek() || this.travelTimer !== undefined) return;
    void this.setFrame(clampFrame(frame, store.totalFrames.peek()), source);
  }

  /** Shows frame n (clamped) without animation, stopping any fast travel. */
  jump(n: number): Promise<void> {
    const { store } = this.ctx;
    if (!store.tour.peek()) return Promise.resolve();
    this.stopTravel();
    return this.setFrame(clampFrame(n, store.totalFrames.peek()), null);
  }

  /** Fast travel; other jumps are blocked while travelling. Resolves on arrival. */
  travelTo(target: number, source: MoveSource | null): Promise<void> {
    const { store } = this.ctx;
    const decoder = this.ctx.focus;
    if (!store.tour.peek()) return Promise.resolve();
    if (this.travelTimer !== undefined) return Promise.reject(new Error('A jump is in progress'));
    const from = store.frame.peek();
    const to = clampFrame(target, store.totalFrames.peek());
    const { steps, stepMs } = travelPlan(from, to);
    if (!steps.length) return this.setFrame(to, null);
    store.travel.value = to > from ? TRAVEL.forward : TRAVEL.backward;
    decoder.setDestination(to);
    clearTimeout(this.travelResetTimer);
    this.ctx.emit('tour-status-change', { status: store.status.peek(), travel: store.travel.peek() });
    return new Promise<void>((resolve) => {
      let i = 0;
      const step = () => {
        const f = steps[i++]!;
        const last = i >= steps.length;
        const arrived = this.setFrame(f, last ? source : null);
        if (last) {
          this.setTravelTimer(undefined);
          decoder.setDestination(null);
          this.travelResetTimer = setTimeout(() => {
            store.travel.value = TRAVEL.idle;
            this.ctx.emit('tour-status-change', { status: store.status.peek(), travel: TRAVEL.idle });
          }, TIMINGS_MS.travelStatusReset);
          void arrived.then(resolve);
          return;
        }
        this.setTravelTimer(setTimeout(step, stepMs));
      };
      this.setTravelTimer(setTimeout(step, 0));
    });
  }

  /** Travels to a marker from user input (drawer, keyboard, host message); a blocked jump is dropped. */
  travelFromInput(frame: number, source: MoveSource): void {
    void this.travelTo(frame, source).catch(() => undefined);
  }

  private setTravelTimer(t: ReturnType<typeof setTimeout> | undefined): void {
    this.travelTimer = t;
    this.ctx.store.travelling.value = t !== undefined;
  }

  private stopTravel(): void {
    if (this.travelTimer === undefined) return;
    clearTimeout(this.travelTimer);
    this.setTravelTimer(undefined);
    this.ctx.focus.setDestination(null);
  }
}
