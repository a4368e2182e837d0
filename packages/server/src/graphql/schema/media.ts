/** Reels, professional photos and AI markers (tours §3, §7). Behaviour lands with the AI and media issue. */
import { DEFAULT_STAGING_PROMPT } from '@roomwalk/shared';
import { builder, decodeId } from '../builder.js';
import { AppError, notAvailableYet } from '../errors.js';
import { requireAuth } from '../guards.js';
import { topics } from '../../events/event-bus.js';
import { MarkerRef, TourRef } from './tour-refs.js';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';

export interface ReelModel {
  id: string; key: string; progress: number; seed: number; provider: string; highURI: string | null; thumbnailURL: string | null; status: string;
}
export interface ShotModel {
  id: string; shotType: string; shotStatus: string; roomType: string | null; frameScore: number | null; sourceClipIndex: number | null;
  sourceFramePosition: number | null; originalImageURI: string | null; enhancedImageURI: string | null; stagedImageURI: string | null;
  createdAt: Date | string; errorMessage: string | null;
}

const ReelStatusRef = builder.objectRef<{ status: string }>('ReelStatus').implement({ fields: (t) => ({ status: t.exposeString('status', { description: 'PROCESSING, FAILED or CREATED.' }) }) });

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

export const ShotStatusEnum = builder.enumType('ShotStatus', { values: ['COMPLETED', 'PROCESSING', 'FAILED'] as const });

export const ShotRef = builder.objectRef<ShotModel>('Shot').implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (s) => ({ type: 'Shot', id: s.id }) }),
    shotType: t.exposeString('shotType'),
    shotStatus: t.field({ type: ShotStatusEnum, resolve: (s) => s.shotStatus as 'COMPLETED' | 'PROCESSING' | 'FAILED' }),
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

/** Until the AI and media issue lands, tours have no reels or shots. */
builder.objectFields(TourRef, (t) => ({
  reels: t.field({ type: [ReelRef], resolve: () => [] }),
  shots: t.field({ type: [ShotRef], resolve: () => [] }),
}));

export const AIMarkerActionEnum = builder.enumType('AIMarkerAction', { values: ['ADD', 'REMOVE'] as const });
export interface AIMarkerProgressEvent {
  tourId: string;
  marker: { id: string; isFastTravel: boolean; frameIndex: number; name: string } | null;
  progressPercentage: number;
  action: 'ADD' | 'REMOVE' | null;
}
const AIMarkerEventMarkerRef = builder.objectRef<NonNullable<AIMarkerProgressEvent['marker']>>('AIMarkerEventMarker').implement({
  fields: (t) => ({ id: t.exposeID('id'), isFastTravel: t.exposeBoolean('isFastTravel'), frameIndex: t.exposeFloat('frameIndex'), name: t.exposeString('name') }),
});
const AIMarkerProgressRef = builder.objectRef<AIMarkerProgressEvent>('AIMarkerProgress').implement({
  fields: (t) => ({
    tourId: t.exposeID('tourId'),
    marker: t.field({ type: AIMarkerEventMarkerRef, nullable: true, resolve: (e) => e.marker }),
    progressPercentage: t.exposeFloat('progressPercentage'),
    action: t.field({ type: AIMarkerActionEnum, nullable: true, resolve: (e) => e.action }),
  }),
});

export interface ReelProgressEvent { progress: number; status: string; text: string | null; thumbnailURL: string | null }
const ReelProgressRef = builder.objectRef<ReelProgressEvent>('ReelProgress').implement({
  fields: (t) => ({
    progress: t.exposeInt('progress'),
    status: t.exposeString('status'),
    text: t.exposeString('text', { nullable: true }),
    thumbnailURL: t.exposeString('thumbnailURL', { nullable: true }),
  }),
});

const stub = () => {
  throw notAvailableYet();
};

builder.mutationFields((t) => ({
  tourGenerateReel: t.field({ type: ReelRef, args: { tourId: t.arg.id({ required: true }) }, resolve: stub }),
  tourGenerateAIMarkers: t.field({ type: [MarkerRef], args: { tourId: t.arg.id({ required: true }) }, resolve: stub }),
  generateTourShots: t.field({ type: TourRef, args: { tourId: t.arg.id({ required: true }) }, resolve: stub }),
  regenerateShot: t.field({ type: ShotRef, args: { shotId: t.arg.id({ required: true }) }, resolve: stub }),
  generateStagedShot: t.field({
    type: ShotRef,
    args: { shotId: t.arg.id({ required: true }), stagingPrompt: t.arg.string({ defaultValue: DEFAULT_STAGING_PROMPT }) },
    resolve: stub,
  }),
}));

async function ownTourId(ctx: Parameters<typeof requireAuth>[0], globalId: string): Promise<string> {
  const auth = requireAuth(ctx);
  const id = decodeId('Tour', globalId);
  const tour = await ctx.services.db.selectFrom('tours').select(['company_id']).where('id', '=', id).executeTakeFirst();
  if (!tour || tour.company_id !== auth.companyId) throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
  return id;
}

builder.subscriptionFields((t) => ({
  tourGenerateAIMarkersUpdated: t.field({
    type: AIMarkerProgressRef,
    args: { tourId: t.arg.id({ required: true }) },
    subscribe: async (_r, args, ctx) => ctx.services.events.subscribe<AIMarkerProgressEvent>(topics.aiMarkers(await ownTourId(ctx, args.tourId))),
    resolve: (e) => e,
  }),
  reelProgressUpdated: t.field({
    type: ReelProgressRef,
    args: { reelId: t.arg.id({ required: true }) },
    subscribe: () => {
      throw notAvailableYet();
    },
    resolve: (e: ReelProgressEvent) => e,
  }),
}));
