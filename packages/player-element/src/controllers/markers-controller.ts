import type { ReactiveController } from 'lit';
import { PLAYER_ERROR_TEXTS as ERROR_TEXTS, PLAYER_NOTICES as NOTICES } from '@roomwalk/shared/player-texts';
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import { safeLocalStorage } from '@roomwalk/shared/guarded-storage';
import type { ErrorCode } from '@roomwalk/shared/error-codes';
import { AI_STORAGE_KEY } from '../constants.js';

const ALREADY_CREATED: ErrorCode = 'AI_ALREADY_CREATED';
const ALREADY_GENERATING: ErrorCode = 'AI_ALREADY_GENERATING';
import { graphqlRequest, GraphQLRequestError } from '../api/graphql.js';
import { AI_MARKERS_SUBSCRIPTION, MARKER_DELETE, MARKER_SAVE, MARKER_UPDATE, TOUR_GENERATE_AI_MARKERS } from '../api/queries.js';
import type { AIMarkerEvent, Marker } from '../api/types.js';
import type { AddState, AIProgress } from '../markers-drawer/markers-drawer.component.js';
import type { SubscriptionHandle } from '../api/subscription.js';
import { loadSubscription } from '../api/load-subscription.js';
import type { PlayerContext } from '../store/player-context.js';

/** Marker add, rename and delete (edit mode), and AI marker generation (super admin). */
export class MarkersController implements ReactiveController {
  addState: AddState = 'idle';
  savingIds = new Set<string>();
  deletingIds = new Set<string>();
  ai: AIProgress = { active: false, progress: 0, added: [], removed: [] };
  private sub: SubscriptionHandle | undefined;
  private timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(
    private readonly ctx: PlayerContext,
    private readonly refetchMarkers: () => Promise<void>,
  ) {
    ctx.host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.sub?.close();
    this.sub = undefined;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private call<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    return graphqlRequest<T>(this.ctx.config.apiBase, query, variables, { token: this.ctx.config.authToken });
  }

  async add(name: string, custom: boolean): Promise<void> {
    if (this.addState !== 'idle') return;
    this.addState = custom ? 'addingCustom' : 'adding';
    this.ctx.host.requestUpdate();
    try {
      await this.call(MARKER_SAVE, {
        input: { name, description: '', tourId: this.ctx.config.tourId, scrollPosition: 0, isFastTravel: true, frameIndex: this.ctx.store.frame.peek() },
      });
    } catch (e) {
      this.ctx.showNotice((e as Error).message, 'error');
    }
    await this.refetchMarkers().catch(() => undefined);
    this.addState = 'idle';
    this.ctx.host.requestUpdate();
  }

  async rename(marker: Marker, name: string): Promise<void> {
    this.savingIds = new Set(this.savingIds).add(marker.id);
    this.ctx.host.requestUpdate();
    try {
      await this.call(MARKER_UPDATE, { input: { id: marker.id, name, description: '', isFastTravel: marker.isFastTravel ?? true } });
      this.ctx.showNotice(NOTICES.markerUpdated, 'success');
    } catch (e) {
      this.ctx.showNotice((e instanceof GraphQLRequestError && e.message) || NOTICES.markerUpdateFailed, 'error');
    }
    await this.refetchMarkers().catch(() => undefined);
    this.savingIds = new Set([...this.savingIds].filter((id) => id !== marker.id));
    this.ctx.host.requestUpdate();
  }

  async remove(marker: Marker): Promise<void> {
    this.deletingIds = new Set(this.deletingIds).add(marker.id);
    this.ctx.host.requestUpdate();
    let ok = false;
    try {
      await this.call(MARKER_DELETE, { markerId: marker.id });
      ok = true;
    } catch (e) {
      this.ctx.showNotice((e instanceof GraphQLRequestError && e.message) || NOTICES.markerDeleteFailed, 'error');
    }
    if (ok) await this.refetchMarkers().catch(() => undefined);
    this.deletingIds = new Set([...this.deletingIds].filter((id) => id !== marker.id));
    this.ctx.host.requestUpdate();
  }

  private readActive(): { tourId: string; at: number } | null {
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

  private writeActive(tourId: string | null): void {
    // Guarded: with storage blocked (privacy mode) the resume lives in memory for this page.
    if (tourId) safeLocalStorage().setItem(AI_STORAGE_KEY, JSON.stringify({ tourId, at: Date.now() }));
    else safeLocalStorage().removeItem(AI_STORAGE_KEY);
  }

  /** On load: resume a generation of this tour started under 60 s ago, otherwise drop it. */
  resumeIfActive(): void {
    const active = this.readActive();
    if (active && active.tourId === this.ctx.config.tourId && !this.ai.active) void this.listen();
  }

  async generate(): Promise<void> {
    if (this.ai.active) return;
    const active = this.readActive();
    if (active && active.tourId !== this.ctx.config.tourId) {
      this.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyGenerating };
      return;
    }
    this.writeActive(this.ctx.config.tourId);
    await this.listen();
    try {
      await this.call(TOUR_GENERATE_AI_MARKERS, { tourId: this.ctx.config.tourId });
      this.later(1000, () => void this.refetchMarkers().catch(() => undefined));
    } catch (e) {
      const err = e as GraphQLRequestError;
      this.stop();
      const body = `${ERROR_TEXTS.aiFailedPrefix}${err.message}`;
      // By code, as the server answers (services/ai/start-ai-markers.ts): a run of this user on another tab or device
      // is the spec's "already generating" dialog, AI markers already on the tour its "already created" one.
      if (err.code === ALREADY_CREATED) this.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyCreated, body };
      else if (err.code === ALREADY_GENERATING) this.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyGenerating };
      else this.ctx.showNotice(body, 'error');
    }
  }

  private async listen(): Promise<void> {
    this.ai = { active: true, progress: 0, added: [], removed: [] };
    this.ctx.host.requestUpdate();
    const { subscribe } = await loadSubscription();
    this.sub?.close();
    this.sub = subscribe<{ tourGenerateAIMarkersUpdated: AIMarkerEvent }>(this.ctx.config.apiBase, AI_MARKERS_SUBSCRIPTION, { tourId: this.ctx.config.tourId }, this.ctx.config.authToken, {
      next: (data) => this.onProgress(data.tourGenerateAIMarkersUpdated),
      error: (message) => {
        this.stop();
        this.ctx.showNotice(`${ERROR_TEXTS.aiFailedPrefix}${message}`, 'error');
      },
      complete: () => undefined,
    });
  }

  private onProgress(ev: AIMarkerEvent): void {
    if (!this.ai.active) return;
    const next: AIProgress = { ...this.ai, progress: ev.progressPercentage ?? this.ai.progress };
    if (ev.marker) {
      const m: Marker = { id: ev.marker.id, name: ev.marker.name, frameIndex: ev.marker.frameIndex, isFastTravel: ev.marker.isFastTravel ?? true };
      if (ev.action === 'ADD') next.added = [...next.added, m];
      else if (ev.action === 'REMOVE') next.removed = [...next.removed, m];
    }
    this.ai = next;
    this.ctx.host.requestUpdate();
    if (next.progress >= 100) {
      this.later(TIMINGS_MS.aiCompletionCleanup, () => {
        this.stop();
        void this.refetchMarkers().catch(() => undefined);
      });
    }
  }

  private stop(): void {
    this.sub?.close();
    this.sub = undefined;
    this.writeActive(null);
    this.ai = { active: false, progress: 0, added: [], removed: [] };
    this.ctx.host.requestUpdate();
  }
}
