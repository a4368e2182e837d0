import type { SubscriptionHandle } from '../api/subscription.js';
import type { AddState, AIProgress } from '../markers/markers.js';
import type { PlayerContext } from '../store/player-context.js';

/**
 * What the editing chunk's marker work (markers-editing.ts) reads and sets on the player: the state the markers
 * controller (controllers/markers-controller.ts) keeps and renders. The chunk depends on this, not on the controller.
 */
export interface MarkerEditingHost {
  readonly ctx: PlayerContext;
  addState: AddState;
  savingIds: Set<string>;
  deletingIds: Set<string>;
  ai: AIProgress;
  /** The AI progress subscription and the pending timers, owned by the editing chunk, closed by the host. */
  sub: SubscriptionHandle | undefined;
  readonly timers: Set<ReturnType<typeof setTimeout>>;
  refetchMarkers(): Promise<void>;
  /** The AI generation started on this device under 60 s ago, if any. */
  readActive(): { tourId: string; at: number } | null;
  writeActive(tourId: string | null): void;
}
