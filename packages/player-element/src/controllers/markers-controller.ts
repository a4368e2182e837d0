import type { ReactiveController } from 'lit';
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import { safeLocalStorage } from '@roomwalk/shared/guarded-storage';
import { AI_STORAGE_KEY, MODES } from '../constants.js';
import type { Marker } from '../api/types.js';
import type { AddState, AIProgress } from '../markers/markers.js';
import type { SubscriptionHandle } from '../api/subscription.js';
import { editingModule, loadEditing } from '../editing/editing.js';
import type { PlayerContext } from '../store/player-context.js';
import type { MarkerEditingHost } from '../editing/host.js';

type EditingModule = typeof import('../editing/index.js');

/**
 * Marker add, rename and delete (edit mode), and AI marker generation (super admin). The state lives here; the work is
 * in the editing chunk (`editing/markers-editing.ts`), loaded as soon as the player is in edit mode and never for a
 * visitor, unless a super admin's generation of this tour is to be resumed.
 */
export class MarkersController implements ReactiveController, MarkerEditingHost {
  addState: AddState = 'idle';
  savingIds = new Set<string>();
  deletingIds = new Set<string>();
  ai: AIProgress = { active: false, progress: 0, added: [], removed: [] };
  /** The AI progress subscription and the pending timers, owned by the editing chunk, closed here. */
  sub: SubscriptionHandle | undefined;
  readonly timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    readonly ctx: PlayerContext,
    readonly refetchMarkers: () => Promise<void>,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {}

  /** In edit mode the editing chunk loads ahead, while the tour loads. */
  hostUpdate(): void {
    if (this.ctx.config.mode === MODES.edit) loadEditing().catch(() => undefined);
  }

  hostDisconnected(): void {
    this.sub?.close();
    this.sub = undefined;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /**
   * Runs `fn` on the editing chunk: at once when it is loaded (the drawer shows edit controls only then), else after
   * loading it.
   */
  private withEditing(fn: (e: EditingModule) => Promise<void>): Promise<void> {
    const loaded = editingModule();
    if (loaded) return fn(loaded);
    return loadEditing().then(fn, () => this.ctx.showNotice('Marker editing could not be loaded.', 'error'));
  }

  add(name: string, custom: boolean): Promise<void> {
    return this.withEditing((e) => e.add(this, name, custom));
  }

  rename(marker: Marker, name: string): Promise<void> {
    return this.withEditing((e) => e.rename(this, marker, name));
  }

  remove(marker: Marker): Promise<void> {
    return this.withEditing((e) => e.remove(this, marker));
  }

  generate(): Promise<void> {
    return this.withEditing((e) => e.generate(this));
  }

  /** The AI generation started on this device under 60 s ago, if any (an older one is dropped). */
  readActive(): { tourId: string; at: number } | null {
    try {
      const raw = safeLocalStorage().getItem(AI_STORAGE_KEY);
      if (!raw) return null;
      const v = JSON.parse(raw) as { tourId?: unknown; at?: unknown };
      if (typeof v.tourId !== 'string' || typeof v.at !== 'number') return null;
      if (Date.now() - v.at > TIMINGS_MS.aiGenerationResumeWindow) {
        safeLocalStorage().removeItem(AI_STORAGE_KEY);
        return null;
      }
      return { tourId: v.tourId, at: v.at };
    } catch {
      return null;
    }
  }

  writeActive(tourId: string | null): void {
    // Guarded: with storage blocked (privacy mode) the resume lives in memory for this page.
    if (tourId) safeLocalStorage().setItem(AI_STORAGE_KEY, JSON.stringify({ tourId, at: Date.now() }));
    else safeLocalStorage().removeItem(AI_STORAGE_KEY);
  }

  /** On load: resume a generation of this tour started under 60 s ago, otherwise drop it. */
  resumeIfActive(): void {
    const active = this.readActive();
    if (active && active.tourId === this.ctx.config.tourId && !this.ai.active)
      void this.withEditing((e) => (this.ai.active ? Promise.resolve() : e.listen(this)));
  }
}
