/**
 * tourGenerateAIMarkers: the job (queue: jobs/ai-markers-job.ts) that proposes a marker at the start of each room
 * (services/ai/rooms.ts), publishing progress, ADD and REMOVE events on tourGenerateAIMarkersUpdated.
 *
 * One generation per user at a time: a RUNNING row in ai_marker_runs (unique per user). A run older than
 * RUN_STALE_MINUTES is taken as dead. Errors end the run FAILED at once (no automatic retry of a failing analysis); a
 * job whose worker died is delivered again by pg-boss after its expiry and reconciles. A retried job reconciles: AI
 * markers of an earlier, interrupted attempt that it agrees with (same name within a second) stay, others are removed
 * (REMOVE events), the missing ones are added.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { topics } from '../../events/event-bus.js';
import type { AIMarkerProgressEvent } from '../../core/events.js';
import type { Services } from '../services.js';
import { analyseRooms, type Room } from './rooms.js';
import { tourScopedWebhook } from '../developer/webhook-payloads.js';
import { progressReporter } from '../../jobs/progress-reporter.js';

/** The stage of the reporter's steps (the AI markers event carries no text). */
const ANALYSING = 'Finding rooms';

/** Frame index (clip frames) of a time in the source video. */
const frameAt = (t: number, fps: number, totalFrames: number) =>
  Math.max(0, Math.min(Math.max(0, totalFrames - 2), Math.round(t * fps)));

export interface AiMarkersDeps {
  analyse?: typeof analyseRooms;
}

type Publish = (e: Omit<AIMarkerProgressEvent, 'tourId'>) => Promise<void>;
type Proposed = { name: string; frameIndex: number };
type ExistingMarker = { id: string; name: string; frame_index: number; is_fast_travel: boolean; source: string };

export async function aiMarkersJob(services: Services, runId: string, deps: AiMarkersDeps = {}): Promise<void> {
  const db = services.db;
  const run = await db.selectFrom('ai_marker_runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!run || run.status !== 'RUNNING') return;
  const tourId = run.tour_id;
  const publish: Publish = (e) =>
    services.events.publish(topics.aiMarkers(tourId), { tourId, ...e } satisfies AIMarkerProgressEvent);
  // Only events: the run's row says running or done, the bar lives in the console.
  const progress = progressReporter(services, {
    logContext: { tourId, runId },
    async write(percent) {
      await publish({ marker: null, progressPercentage: percent, action: null });
      return true;
    },
  });
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-ai-markers-'));
  try {
    const tour = await db
      .selectFrom('tours')
      .select(['video_key', 'fps', 'deleted_at'])
      .where('id', '=', tourId)
      .executeTakeFirst();
    if (!tour || tour.deleted_at || !tour.video_key) throw new Error('tour is gone or has no source video');
    await progress.report(0, ANALYSING);
    const input = path.join(work, `source${path.extname(tour.video_key) || '.mp4'}`);
    await services.storage.download(tour.video_key, input);
    const rooms: Room[] = await (deps.analyse ?? analyseRooms)(input, {
      onProgress: (f) => void progress.report(5 + f * 80, ANALYSING),
    });
    // The marker events below carry their own percent after the last progress event.
    await progress.flush();
    const fps = tour.fps ?? 15;
    const proposed = await framesOfRooms(services, tourId, rooms, fps);
    const existing = await db
      .selectFrom('markers')
      .select(['id', 'name', 'frame_index', 'is_fast_travel', 'source'])
      .where('tour_id', '=', tourId)
      .execute();
    const { toAdd, toRemove } = markerChanges(existing, proposed, fps);
    await applyMarkerChanges(services, tourId, toAdd, toRemove, publish);
    await db
      .updateTable('ai_marker_runs')
      .set({ status: 'DONE', finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
    await publish({ marker: null, progressPercentage: 100, action: null });
    await tourScopedWebhook(services, 'markers.ai_completed', tourId, {
      markersAdded: toAdd.length,
      markersRemoved: toRemove.length,
    });
  } catch (err) {
    await progress.flush();
    services.log.warn({ err, tourId, runId }, 'AI marker generation failed');
    await db
      .updateTable('ai_marker_runs')
      .set({ status: 'FAILED', error: String((err as Error)?.message ?? err).slice(0, 500), finished_at: new Date() })
      .where('id', '=', runId)
      .execute();
    // The client clears its state at 100; a failure ends the same way (the markers list shows what exists).
    await publish({ marker: null, progressPercentage: 100, action: null });
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Each room found, at the tour frame where it starts (the clips' frames, the last reachable one at most). */
async function framesOfRooms(services: Services, tourId: string, rooms: Room[], fps: number): Promise<Proposed[]> {
  const clips = await services.db.selectFrom('clips').select(['frame_count']).where('tour_id', '=', tourId).execute();
  const totalFrames = clips.reduce((s, c) => s + c.frame_count, 0) - 1;
  return rooms.map((r) => ({ name: r.name, frameIndex: frameAt(r.start, fps, totalFrames) }));
}

/**
 * What changes (pure): a proposal near one of the owner's markers (within a second) is dropped, theirs wins; one
 * matching an earlier AI marker (same name, within a second) keeps it; the earlier AI markers not kept go.
 */
function markerChanges(
  existing: ExistingMarker[],
  proposed: Proposed[],
  fps: number,
): { toAdd: Proposed[]; toRemove: ExistingMarker[] } {
  const userFrames = existing.filter((m) => m.source === 'USER').map((m) => m.frame_index);
  const earlierAi = existing.filter((m) => m.source === 'AI');
  const near = (a: number, b: number) => Math.abs(a - b) <= fps;
  const agreed = new Set<string>();
  const toAdd = proposed.filter((p) => {
    // The owner already marked this spot: theirs wins.
    if (userFrames.some((f) => near(f, p.frameIndex))) return false;
    const same = earlierAi.find((m) => !agreed.has(m.id) && m.name === p.name && near(m.frame_index, p.frameIndex));
    if (same) {
      agreed.add(same.id);
      return false;
    }
    return true;
  });
  return { toAdd, toRemove: earlierAi.filter((m) => !agreed.has(m.id)) };
}

/** Removes, then adds, each with its event (REMOVE, ADD) and a percent from 85 up to 99. */
async function applyMarkerChanges(
  services: Services,
  tourId: string,
  toAdd: Proposed[],
  toRemove: ExistingMarker[],
  publish: Publish,
): Promise<void> {
  const db = services.db;
  const steps = toRemove.length + toAdd.length;
  let done = 0;
  const stepPercent = () => Math.min(99, Math.floor(85 + (14 * ++done) / Math.max(1, steps)));
  for (const m of toRemove) {
    await db.deleteFrom('markers').where('id', '=', m.id).execute();
    await publish({
      marker: { id: `marker_${m.id}`, isFastTravel: m.is_fast_travel, frameIndex: m.frame_index, name: m.name },
      progressPercentage: stepPercent(),
      action: 'REMOVE',
    });
  }
  for (const p of toAdd) {
    const row = await db
      .insertInto('markers')
      .values({ tour_id: tourId, name: p.name, frame_index: p.frameIndex, is_fast_travel: true, source: 'AI' })
      .returning(['id', 'is_fast_travel'])
      .executeTakeFirstOrThrow();
    await publish({
      marker: { id: `marker_${row.id}`, isFastTravel: row.is_fast_travel, frameIndex: p.frameIndex, name: p.name },
      progressPercentage: stepPercent(),
      action: 'ADD',
    });
  }
}
