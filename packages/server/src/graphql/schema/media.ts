/** Reels, professional photos and AI markers: jobs in src/jobs/{reel,shots,ai-markers}.ts. */
import { tourMediaUrlById } from '../../services/tour-access/tour-access.js';
import { DEFAULT_STAGING_PROMPT } from '@roomwalk/shared';
import { builder, decodeId } from '../builder.js';
import { AppError } from '../errors.js';
import { requireAuth, requireSuperAdmin } from '../guards.js';
import { topics } from '../../events/event-bus.js';
import type { AIMarkerProgressEvent, ReelProgressEvent } from '../../core/events.js';
import { MarkerRef, TourRef } from './tour-refs.js';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { Services } from '../../services/services.js';
import type { ReelRow, ShotRow } from '../../db/tables/ai.js';
import { reelCompanyId, shotTour, tourReels, tourShots } from '../../services/media-reads.js';
import { assertCanEdit, loadEditableTour } from '../../services/tours.js';
import { tourById, tourCompanyId, tourMarkers } from '../../services/tour-reads.js';
import { startReel } from '../../services/reels/start-reel.js';
import { shotsGenerating, startShots, startShotWork } from '../../services/shots/start-shots.js';
import { startAiMarkers } from '../../services/ai/start-ai-markers.js';

export interface ReelModel {
  id: string;
  key: string;
  progress: number;
  seed: number;
  provider: string;
  highURI: string | null;
  thumbnailURL: string | null;
  status: string;
}
export interface ShotModel {
  id: string;
  shotType: string;
  shotStatus: string;
  roomType: string | null;
  frameScore: number | null;
  sourceClipIndex: number | null;
  sourceFramePosition: number | null;
  originalImageURI: string | null;
  enhancedImageURI: string | null;
  stagedImageURI: string | null;
  createdAt: Date | string;
  errorMessage: string | null;
}

const ReelStatusRef = builder.objectRef<{ status: string }>('ReelStatus').implement({
  fields: (t) => ({ status: t.exposeString('status', { description: 'PROCESSING, FAILED or CREATED.' }) }),
});

export const ReelRef = builder.objectRef<ReelModel>('Reel').implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (r) => ({ type: 'Reel', id: r.id }) }),
    key: t.exposeString('key'),
    progress: t.exposeInt('progress'),
    seed: t.exposeInt('seed'),
    provider: t.exposeString('provider'),
    highURI: t.exposeString('highURI', { nullable: true }),
    thumbnailURL: t.exposeString('thumbnailURL', { nullable: true }),
    status: t.field({ type: ReelStatusRef, resolve: (r) => ({ status: r.status }) }),
  }),
});

const ShotStatusEnum = builder.enumType('ShotStatus', { values: ['COMPLETED', 'PROCESSING', 'FAILED'] as const });

export const ShotRef = builder.objectRef<ShotModel>('Shot').implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (s) => ({ type: 'Shot', id: s.id }) }),
    shotType: t.exposeString('shotType'),
    shotStatus: t.field({
      type: ShotStatusEnum,
      resolve: (s) => s.shotStatus as 'COMPLETED' | 'PROCESSING' | 'FAILED',
    }),
    roomType: t.exposeString('roomType', { nullable: true }),
    frameScore: t.exposeFloat('frameScore', { nullable: true }),
    sourceClipIndex: t.exposeInt('sourceClipIndex', { nullable: true }),
    sourceFramePosition: t.exposeFloat('sourceFramePosition', { nullable: true }),
    originalImageURI: t.exposeString('originalImageURI', { nullable: true }),
    enhancedImageURI: t.exposeString('enhancedImageURI', { nullable: true }),
    stagedImageURI: t.exposeString('stagedImageURI', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
    errorMessage: t.exposeString('errorMessage', { nullable: true }),
  }),
});

/** A reel as the console sees it; its files signed while the tour is protected (services/tour-access/). */
export async function toReelModel(services: Services, r: ReelRow): Promise<ReelModel> {
  const url = (k: string | null) => (k ? tourMediaUrlById(services, r.tour_id, k) : null);
  return {
    id: r.id,
    key: r.key,
    progress: r.progress,
    seed: r.seed,
    provider: r.provider,
    status: r.status,
    highURI: await url(r.video_key),
    thumbnailURL: await url(r.thumbnail_key),
  };
}

/** A photo as the console sees it; its files signed while the tour is protected. */
export async function toShotModel(services: Services, s: ShotRow): Promise<ShotModel> {
  const url = (k: string | null) => (k ? tourMediaUrlById(services, s.tour_id, k) : null);
  return {
    id: s.id,
    shotType: s.shot_type,
    shotStatus: s.status,
    roomType: s.room_type,
    frameScore: s.frame_score,
    sourceClipIndex: s.source_clip_index,
    sourceFramePosition: s.source_frame_position,
    originalImageURI: await url(s.original_key),
    enhancedImageURI: await url(s.enhanced_key),
    stagedImageURI: await url(s.staged_key),
    createdAt: s.created_at,
    errorMessage: s.error_message,
  };
}

/** Reels and shots are the owner's company's only: the public players never see them. */
builder.objectFields(TourRef, (t) => ({
  reels: t.field({
    type: [ReelRef],
    resolve: async (tour, _a, ctx) => {
      if (!ctx.auth || ctx.auth.companyId !== (tour as { company_id?: string }).company_id) return [];
      const rows = await tourReels(ctx.services, (tour as { id: string }).id);
      return Promise.all(rows.map((r) => toReelModel(ctx.services, r)));
    },
  }),
  shots: t.field({
    type: [ShotRef],
    resolve: async (tour, _a, ctx) => {
      if (!ctx.auth || ctx.auth.companyId !== (tour as { company_id?: string }).company_id) return [];
      const rows = await tourShots(ctx.services, (tour as { id: string }).id);
      return Promise.all(rows.map((s) => toShotModel(ctx.services, s)));
    },
  }),
  shotsGenerating: t.boolean({
    description:
      'True while a professional-photo generation of this tour is queued or running (owner only; false for others).',
    resolve: async (tour, _a, ctx) => {
      if (!ctx.auth || ctx.auth.companyId !== (tour as { company_id?: string }).company_id) return false;
      return shotsGenerating(ctx.services, (tour as { id: string }).id);
    },
  }),
  stagingAvailable: t.boolean({
    description:
      'Whether Stage can run: false when the server has no AI image service (AI_WORKER_URL); the console then disables Stage and says why.',
    resolve: (_tour, _a, ctx) => !!ctx.services.config.AI_WORKER_URL,
  }),
}));

const AIMarkerActionEnum = builder.enumType('AIMarkerAction', { values: ['ADD', 'REMOVE'] as const });
const AIMarkerEventMarkerRef = builder
  .objectRef<NonNullable<AIMarkerProgressEvent['marker']>>('AIMarkerEventMarker')
  .implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      isFastTravel: t.exposeBoolean('isFastTravel'),
      frameIndex: t.exposeFloat('frameIndex'),
      name: t.exposeString('name'),
    }),
  });
const AIMarkerProgressRef = builder.objectRef<AIMarkerProgressEvent>('AIMarkerProgress').implement({
  fields: (t) => ({
    tourId: t.exposeID('tourId'),
    marker: t.field({ type: AIMarkerEventMarkerRef, nullable: true, resolve: (e) => e.marker }),
    progressPercentage: t.exposeFloat('progressPercentage'),
    action: t.field({ type: AIMarkerActionEnum, nullable: true, resolve: (e) => e.action }),
  }),
});

const ReelProgressRef = builder.objectRef<ReelProgressEvent>('ReelProgress').implement({
  fields: (t) => ({
    progress: t.exposeInt('progress'),
    status: t.exposeString('status'),
    text: t.exposeString('text', { nullable: true }),
    thumbnailURL: t.exposeString('thumbnailURL', { nullable: true }),
  }),
});

/** A shot of the caller's company (raw id), or NOT_FOUND. */
/** A shot of a tour the caller may edit (its owner or a company admin): starting paid AI work is editing the tour. */
async function editableShotId(ctx: Parameters<typeof requireAuth>[0], globalId: string): Promise<string> {
  const auth = requireAuth(ctx);
  const id = decodeId('Shot', globalId);
  const tour = await shotTour(ctx.services, id);
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  assertCanEdit(auth, tour);
  return id;
}

/** A tour the caller may edit: reels and photos are made only by whoever may change the tour. */
const editableTourId = async (ctx: Parameters<typeof requireAuth>[0], globalId: string) =>
  (await loadEditableTour(ctx.services, requireAuth(ctx), globalId)).id;

async function loadTour(ctx: Parameters<typeof requireAuth>[0], id: string) {
  const tour = await tourById(ctx.services, id);
  if (!tour) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  return tour;
}

builder.mutationFields((t) => ({
  tourGenerateReel: t.field({
    type: ReelRef,
    description: 'Starts a reel; at most 5 non-failed per tour. Retry of a failed reel calls this again (a new reel).',
    args: { tourId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const tourId = await editableTourId(ctx, args.tourId);
      return toReelModel(ctx.services, await startReel(ctx.services, ctx.auth!.userId, tourId));
    },
  }),
  tourGenerateAIMarkers: t.field({
    type: [MarkerRef],
    description:
      'Super admin: proposes AI markers in a background job (events on tourGenerateAIMarkersUpdated); answers the current markers.',
    args: { tourId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const auth = requireSuperAdmin(ctx);
      const id = decodeId('Tour', args.tourId);
      await startAiMarkers(ctx.services, auth.userId, id);
      return tourMarkers(ctx.services, id);
    },
  }),
  generateTourShots: t.field({
    type: TourRef,
    args: { tourId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const tourId = await editableTourId(ctx, args.tourId);
      await startShots(ctx.services, tourId);
      return loadTour(ctx, tourId);
    },
  }),
  regenerateShot: t.field({
    type: ShotRef,
    args: { shotId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) =>
      toShotModel(ctx.services, await startShotWork(ctx.services, await editableShotId(ctx, args.shotId), 'enhance')),
  }),
  generateStagedShot: t.field({
    type: ShotRef,
    args: {
      shotId: t.arg.id({ required: true }),
      stagingPrompt: t.arg.string({ defaultValue: DEFAULT_STAGING_PROMPT }),
    },
    resolve: async (_r, args, ctx) => {
      const prompt = (args.stagingPrompt ?? DEFAULT_STAGING_PROMPT).trim().slice(0, 500) || DEFAULT_STAGING_PROMPT;
      return toShotModel(
        ctx.services,
        await startShotWork(ctx.services, await editableShotId(ctx, args.shotId), 'stage', prompt),
      );
    },
  }),
}));

async function ownTourId(ctx: Parameters<typeof requireAuth>[0], globalId: string): Promise<string> {
  const auth = requireAuth(ctx);
  const id = decodeId('Tour', globalId);
  if ((await tourCompanyId(ctx.services, id)) !== auth.companyId)
    throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  return id;
}

builder.subscriptionFields((t) => ({
  tourGenerateAIMarkersUpdated: t.field({
    type: AIMarkerProgressRef,
    args: { tourId: t.arg.id({ required: true }) },
    // Super admins generate AI markers on any company's tour, so they may follow any tour's generation.
    subscribe: async (_r, args, ctx) =>
      ctx.services.events.subscribe<AIMarkerProgressEvent>(
        topics.aiMarkers(
          requireAuth(ctx).isSuperAdmin ? decodeId('Tour', args.tourId) : await ownTourId(ctx, args.tourId),
        ),
      ),
    resolve: (e) => e,
  }),
  reelProgressUpdated: t.field({
    type: ReelProgressRef,
    args: { reelId: t.arg.id({ required: true }) },
    subscribe: async (_r, args, ctx) => {
      const auth = requireAuth(ctx);
      const id = decodeId('Reel', args.reelId);
      if ((await reelCompanyId(ctx.services, id)) !== auth.companyId)
        throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
      return ctx.services.events.subscribe<ReelProgressEvent>(topics.reelProgress(id));
    },
    resolve: (e: ReelProgressEvent) => e,
  }),
}));
