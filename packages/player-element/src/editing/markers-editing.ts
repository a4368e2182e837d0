import { PLAYER_ERROR_TEXTS as ERROR_TEXTS, PLAYER_NOTICES as NOTICES } from '@roomwalk/shared/player-texts';
import { TIMINGS_MS } from '@roomwalk/shared/constants';
import type { ErrorCode } from '@roomwalk/shared/error-codes';
import { graphqlRequest, GraphQLRequestError } from '../api/graphql.js';
import {
  AI_MARKERS_SUBSCRIPTION,
  MARKER_DELETE,
  MARKER_SAVE,
  MARKER_UPDATE,
  TOUR_GENERATE_AI_MARKERS,
} from '../api/queries.js';
import type { AIMarkerEvent, Marker } from '../api/types.js';
import type { AIProgress } from '../markers/markers.js';
import { loadSubscription } from '../api/load-subscription.js';
import type { MarkerEditingHost } from './host.js';

// Marker add, rename and delete (edit mode) and AI marker generation (super admin), on the state of the player's
// MarkersController (controllers/markers-controller.ts), which calls these once the editing chunk is loaded.

const ALREADY_CREATED: ErrorCode = 'AI_ALREADY_CREATED';
const ALREADY_GENERATING: ErrorCode = 'AI_ALREADY_GENERATING';

function later(c: MarkerEditingHost, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    c.timers.delete(t);
    fn();
  }, ms);
  c.timers.add(t);
}

function call<T>(c: MarkerEditingHost, query: string, variables: Record<string, unknown>): Promise<T> {
  return graphqlRequest<T>(c.ctx.config.apiBase, query, variables, { token: c.ctx.config.authToken });
}

export async function add(c: MarkerEditingHost, name: string, custom: boolean): Promise<void> {
  if (c.addState !== 'idle') return;
  c.addState = custom ? 'addingCustom' : 'adding';
  c.ctx.host.requestUpdate();
  try {
    await call(c, MARKER_SAVE, {
      input: {
        name,
        description: '',
        tourId: c.ctx.config.tourId,
        scrollPosition: 0,
        isFastTravel: true,
        frameIndex: c.ctx.store.frame.peek(),
      },
    });
  } catch (e) {
    c.ctx.showNotice((e as Error).message, 'error');
  }
  await c.refetchMarkers().catch(() => undefined);
  c.addState = 'idle';
  c.ctx.host.requestUpdate();
}

export async function rename(c: MarkerEditingHost, marker: Marker, name: string): Promise<void> {
  c.savingIds = new Set(c.savingIds).add(marker.id);
  c.ctx.host.requestUpdate();
  try {
    await call(c, MARKER_UPDATE, {
      input: { id: marker.id, name, description: '', isFastTravel: marker.isFastTravel ?? true },
    });
    c.ctx.showNotice(NOTICES.markerUpdated, 'success');
  } catch (e) {
    c.ctx.showNotice((e instanceof GraphQLRequestError && e.message) || NOTICES.markerUpdateFailed, 'error');
  }
  await c.refetchMarkers().catch(() => undefined);
  c.savingIds = new Set([...c.savingIds].filter((id) => id !== marker.id));
  c.ctx.host.requestUpdate();
}

export async function remove(c: MarkerEditingHost, marker: Marker): Promise<void> {
  c.deletingIds = new Set(c.deletingIds).add(marker.id);
  c.ctx.host.requestUpdate();
  let ok = false;
  try {
    await call(c, MARKER_DELETE, { markerId: marker.id });
    ok = true;
  } catch (e) {
    c.ctx.showNotice((e instanceof GraphQLRequestError && e.message) || NOTICES.markerDeleteFailed, 'error');
  }
  if (ok) await c.refetchMarkers().catch(() => undefined);
  c.deletingIds = new Set([...c.deletingIds].filter((id) => id !== marker.id));
  c.ctx.host.requestUpdate();
}

export async function generate(c: MarkerEditingHost): Promise<void> {
  if (c.ai.active) return;
  const active = c.readActive();
  if (active && active.tourId !== c.ctx.config.tourId) {
    c.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyGenerating };
    return;
  }
  c.writeActive(c.ctx.config.tourId);
  await listen(c);
  try {
    await call(c, TOUR_GENERATE_AI_MARKERS, { tourId: c.ctx.config.tourId });
    later(c, 1000, () => void c.refetchMarkers().catch(() => undefined));
  } catch (e) {
    const err = e as GraphQLRequestError;
    stop(c);
    const body = `${ERROR_TEXTS.aiFailedPrefix}${err.message}`;
    // By code, as the server answers (services/ai/start-ai-markers.ts): a run of this user on another tab or device
    // is the spec's "already generating" dialog, AI markers already on the tour its "already created" one.
    if (err.code === ALREADY_CREATED) c.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyCreated, body };
    else if (err.code === ALREADY_GENERATING) c.ctx.store.dialog.value = { title: ERROR_TEXTS.aiAlreadyGenerating };
    else c.ctx.showNotice(body, 'error');
  }
}

export async function listen(c: MarkerEditingHost): Promise<void> {
  c.ai = { active: true, progress: 0, added: [], removed: [] };
  c.ctx.host.requestUpdate();
  const { subscribe } = await loadSubscription();
  c.sub?.close();
  c.sub = subscribe<{ tourGenerateAIMarkersUpdated: AIMarkerEvent }>(
    c.ctx.config.apiBase,
    AI_MARKERS_SUBSCRIPTION,
    { tourId: c.ctx.config.tourId },
    c.ctx.config.authToken,
    {
      next: (data) => onProgress(c, data.tourGenerateAIMarkersUpdated),
      error: (message) => {
        stop(c);
        c.ctx.showNotice(`${ERROR_TEXTS.aiFailedPrefix}${message}`, 'error');
      },
      complete: () => undefined,
    },
  );
}

function onProgress(c: MarkerEditingHost, ev: AIMarkerEvent): void {
  if (!c.ai.active) return;
  const next: AIProgress = { ...c.ai, progress: ev.progressPercentage ?? c.ai.progress };
  if (ev.marker) {
    const m: Marker = {
      id: ev.marker.id,
      name: ev.marker.name,
      frameIndex: ev.marker.frameIndex,
      isFastTravel: ev.marker.isFastTravel ?? true,
    };
    if (ev.action === 'ADD') next.added = [...next.added, m];
    else if (ev.action === 'REMOVE') next.removed = [...next.removed, m];
  }
  c.ai = next;
  c.ctx.host.requestUpdate();
  if (next.progress >= 100) {
    later(c, TIMINGS_MS.aiCompletionCleanup, () => {
      stop(c);
      void c.refetchMarkers().catch(() => undefined);
    });
  }
}

function stop(c: MarkerEditingHost): void {
  c.sub?.close();
  c.sub = undefined;
  c.writeActive(null);
  c.ai = { active: false, progress: 0, added: [], removed: [] };
  c.ctx.host.requestUpdate();
}
