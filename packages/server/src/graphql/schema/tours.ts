/** Tours, clips, markers, upload and processing progress. */
import { resolveCursorConnection, type ResolveCursorConnectionArgs } from '@pothos/plugin-relay';
import { ERROR_CODES, ERROR_TEXTS } from '@roomwalk/shared';
import type { TourRow } from '../../db/types.js';
import { UserRef } from './accounts.js';
import { builder, decodeId, SuccessRef } from '../builder.js';
import { AppError } from '../errors.js';
import { requireAuth } from '../guards.js';
import { PAGE_SIZES } from '../limits.js';
import { loadBatched } from '../loaders.js';
import { topics } from '../../events/event-bus.js';
import type { TourProgressEvent } from '../../core/events.js';
import { ClipRef, MarkerRef, TourRef } from './tour-refs.js';
import { deleteTour, reactivateTour, saveTour, updateThumbnail } from '../../services/tours.js';
import {
  setTourAccess,
  tourMediaUrl,
  tourMediaUrlById,
  unlockTour,
  viewTour,
} from '../../services/tour-access/tour-access.js';
import { createUploadUrl, submitUpload } from '../../services/uploads.js';
import { requestBranding } from '../../services/branding.js';
import { deleteMarker, saveMarker, updateMarker } from '../../services/markers.js';
import { usersByIds } from '../../services/account-reads.js';
import { linkViewOf, viewClips, viewMarkers, viewTourThroughLink } from '../../services/audience-links/link-view.js';
import { clipsForCaller, noteTourGrant } from '../../services/lead-gate/lead-gate.js';
import {
  agentProfiles,
  blurredClipIndexes,
  clipsOfTours,
  tourCompanyId,
  tourLogs,
  tourMarkers,
  toursPage,
} from '../../services/tour-reads.js';
import { serverNow } from '../../core/clock.js';

const TourStatusRef = builder.objectRef<{ status: string }>('TourStatus').implement({
  description:
    'UPLOADING, PROCESSING, PROCESSED, FAILED or DEACTIVATED; clients treat anything but PROCESSED and FAILED as processing.',
  fields: (t) => ({ status: t.exposeString('status') }),
});
const TourLogRef = builder.objectRef<{ status: string; error: string | null }>('TourLog').implement({
  fields: (t) => ({ status: t.exposeString('status'), error: t.exposeString('error', { nullable: true }) }),
});
const VideoInfoRef = builder
  .objectRef<{
    width: number;
    height: number;
    fullSize: number;
    mediumSize: number;
    smallSize: number;
    keptSeconds?: number;
    declaredSeconds?: number;
  }>('VideoInfo')
  .implement({
    fields: (t) => ({
      width: t.exposeInt('width'),
      height: t.exposeInt('height'),
      fullSize: t.exposeFloat('fullSize', { description: 'Bytes of the high-resolution clips.' }),
      mediumSize: t.exposeFloat('mediumSize', { description: 'Bytes of the low-resolution clips.' }),
      smallSize: t.exposeFloat('smallSize', { description: 'Bytes of the thumbnail.' }),
      keptSeconds: t.float({
        nullable: true,
        description:
          'A cut-off recording (the file ended before the length its index declares): the seconds the tour was made of; null for a whole file.',
        resolve: (v) => v.keptSeconds ?? null,
      }),
      declaredSeconds: t.float({
        nullable: true,
        description: "A cut-off recording: the seconds the file's index declares; null for a whole file.",
        resolve: (v) => v.declaredSeconds ?? null,
      }),
    }),
  });
const AgentProfileRef = builder
  .objectRef<{ fullname: string; contactNumber: string | null; email: string; profileImageURL: string | null }>(
    'AgentProfile',
  )
  .implement({
    fields: (t) => ({
      fullname: t.exposeString('fullname'),
      contactNumber: t.exposeString('contactNumber', { nullable: true }),
      email: t.exposeString('email'),
      profileImageURL: t.exposeString('profileImageURL', { nullable: true }),
    }),
  });

ClipRef.implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (c) => ({ type: 'Clip', id: c.id }) }),
    index: t.exposeInt('index'),
    frameCount: t.exposeInt('frame_count'),
    duration: t.exposeFloat('duration'),
    highURI: t.string({ resolve: (c, _a, ctx) => tourMediaUrlById(ctx.services, c.tour_id, c.high_key) }),
    lowURI: t.string({ resolve: (c, _a, ctx) => tourMediaUrlById(ctx.services, c.tour_id, c.low_key) }),
  }),
});

MarkerRef.implement({
  fields: (t) => ({
    id: t.globalID({ resolve: (m) => ({ type: 'Marker', id: m.id }) }),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    tourId: t.globalID({ resolve: (m) => ({ type: 'Tour', id: m.tour_id }) }),
    scrollPosition: t.exposeFloat('scroll_position'),
    frameIndex: t.exposeFloat('frame_index'),
    isFastTravel: t.exposeBoolean('is_fast_travel'),
  }),
});

TourRef.implement({
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'owner_id' in v && 'video_key' in v,
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    videoURL: t.string({
      nullable: true,
      resolve: (r, _a, ctx) =>
        r.video_key && ctx.auth?.companyId === r.company_id ? ctx.services.storage.publicUrl(r.video_key) : null,
    }),
    thumbnailURL: t.string({
      nullable: true,
      // A link that hides rooms shows no poster: the tour's may picture a hidden room.
      resolve: (r, _a, ctx) =>
        r.thumbnail_key && !linkViewOf(r)?.frames ? tourMediaUrl(ctx.services, r, r.thumbnail_key) : null,
    }),
    access: t.exposeString('access', {
      description:
        'Who sees the tour: PUBLIC (anyone with the link, the default), PASSWORD or COMPANY (signed-in members).',
    }),
    tourIntroLogoURL: t.string({
      nullable: true,
      description: "The tour's intro logo: its own, else the company logo while the plan has Custom Company Branding.",
      resolve: async (r, _a, ctx) => {
        if (linkViewOf(r)?.link.unbranded) return null;
        const key =
          r.intro_logo_key ??
          (await requestBranding(ctx, ctx.services.db, r.company_id, serverNow(ctx.services)))?.logoKey;
        return key ? ctx.services.storage.publicUrl(key) : null;
      },
    }),
    tourAccentColor: t.string({
      nullable: true,
      description: "The company's accent colour (#rrggbb) for the player while its plan has Custom Company Branding.",
      resolve: async (r, _a, ctx) =>
        linkViewOf(r)?.link.unbranded
          ? null
          : ((await requestBranding(ctx, ctx.services.db, r.company_id, serverNow(ctx.services)))?.accentColor ?? null),
    }),
    listingLink: t.string({ nullable: true, resolve: (r) => (linkViewOf(r)?.link.unbranded ? null : r.listing_link) }),
    views: t.exposeInt('views'),
    deactivatedViews: t.exposeInt('deactivated_views'),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.created_at }),
    progress: t.exposeInt('progress', { description: 'Processing progress in percent.' }),
    blurFaces: t.exposeBoolean('blur_faces', {
      description:
        'Faces are blurred in clips, reels and photos (owner switch, default on; changing it reprocesses the tour).',
    }),
    liveViewing: t.exposeBoolean('live_viewing', {
      description:
        'The owner offers live viewing: the links the console shares carry liveViewing=true (unbranded links never). Default off.',
    }),
    blurredClips: t.intList({
      nullable: true,
      description:
        "Indices of the clips in which faces were blurred, in order (the tour's company only; null for others).",
      resolve: async (r, _a, ctx) => {
        if (ctx.auth?.companyId !== r.company_id) return null;
        return blurredClipIndexes(ctx.services, r.id);
      },
    }),
    status: t.field({ type: TourStatusRef, resolve: (r) => ({ status: r.status }) }),
    failureReason: t.string({
      nullable: true,
      description: 'Why processing failed, in words the owner can act on (FAILED tours only).',
      resolve: (r) => (r.status === 'FAILED' ? r.progress_text : null),
    }),
    logs: t.field({
      type: [TourLogRef],
      resolve: (r, _a, ctx) => tourLogs(ctx.services, r.id),
    }),
    clips: t.field({
      type: [ClipRef],
      resolve: async (r, _a, ctx) => {
        const view = linkViewOf(r);
        // A visitor not through the tour's lead gate gets the clips up to its room only (services/lead-gate/).
        // Batched per request: aliases of one tour read its clips once.
        const all = await loadBatched(ctx, 'tourClips', (ids) => clipsOfTours(ctx.services, ids), r.id, []);
        const clips = await clipsForCaller(ctx.services, ctx.auth, r, all);
        return view ? viewClips(view, clips) : clips;
      },
    }),
    markers: t.field({
      type: [MarkerRef],
      resolve: async (r, _a, ctx) => {
        const view = linkViewOf(r);
        const markers = await tourMarkers(ctx.services, r.id);
        return view ? viewMarkers(view, markers) : markers;
      },
    }),
    videoInfo: t.field({ type: VideoInfoRef, nullable: true, resolve: (r) => r.video_info ?? null }),
    agentProfile: t.field({
      type: AgentProfileRef,
      nullable: true,
      resolve: (r, _a, ctx) =>
        linkViewOf(r)?.link.unbranded
          ? null
          : loadBatched(ctx, 'agent profiles', (ids) => agentProfiles(ctx.services, ids), r.owner_id, null),
    }),
    owner: t.field({
      type: UserRef,
      nullable: true,
      description: 'The owner, visible to members of the same company.',
      resolve: (r, _a, ctx) =>
        ctx.auth?.companyId === r.company_id
          ? loadBatched(ctx, 'users', (ids) => usersByIds(ctx.services, ids), r.owner_id, null)
          : null,
    }),
  }),
});

builder.queryFields((t) => ({
  tour: t.field({
    type: TourRef,
    description:
      "A tour by id, for the players: public unless the tour's access says otherwise (TOUR_PASSWORD_REQUIRED, TOUR_MEMBERS_ONLY).",
    args: {
      tourID: t.arg.id({ required: true }),
      access: t.arg.string({
        description:
          'The access grant tourUnlock answered (password tours) and any lead gate passes, space-separated. Players send it in the X-Roomwalk-Access header instead (never in a URL).',
      }),
      link: t.arg.string({
        description:
          "An audience link's token (the share URL's link=): the tour as that link shows it. AUDIENCE_LINK_UNAVAILABLE once it expired or was revoked. Players send it in the X-Roomwalk-Link header instead (never in a URL).",
      }),
    },
    resolve: async (_r, args, ctx) => {
      // The capabilities come in the request's headers (CAPABILITY_HEADERS) unless the document names them.
      const access = args.access ?? ctx.capabilities?.access;
      const link = args.link ?? ctx.capabilities?.link;
      // The grant is remembered with the row: a lead gate's pass decides the clips and leadGate.open.
      return noteTourGrant(
        await (link != null
          ? viewTourThroughLink(ctx.services, ctx.auth, args.tourID, access, link)
          : viewTour(ctx.services, ctx.auth, args.tourID, access)),
        access,
      );
    },
  }),
  tours: t.connection(
    {
      type: TourRef,
      description: "The signed-in user's own tours, newest first; with an API key, every tour of its company.",
      resolve: (_r, args, ctx) => {
        const auth = requireAuth(ctx);
        return resolveCursorConnection(
          { args, ...PAGE_SIZES['Query.tours'], toCursor: (r: TourRow) => r.id },
          // An API key acts as its company: all of the company's tours; a signed-in user sees their own. The cursor is
          // the tour id (services/tour-reads.ts reads its place back in SQL).
          (page: ResolveCursorConnectionArgs) =>
            toursPage(ctx.services, auth.apiKeyId ? { companyId: auth.companyId } : { ownerId: auth.userId }, page),
        );
      },
    },
    { name: 'TourConnection' },
    { name: 'TourEdge' },
  ),
}));

// ---- Mutations ------------------------------------------------------------------------------

const TourSaveInput = builder.inputType('TourSaveInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    title: t.string(),
    description: t.string(),
    videoURL: t.string(),
    listingLink: t.string(),
    blurFaces: t.boolean({
      description:
        'Blur faces in clips, reels and photos (default on). A change reprocesses a processed tour (status PROCESSING until its new clips are ready).',
    }),
    liveViewing: t.boolean({
      description:
        'Offer live viewing on the shared links (liveViewing=true). Omitted or null keeps the current value.',
    }),
  }),
});
const TourUpdateThumbnailInput = builder.inputType('TourUpdateThumbnailInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    thumbnailURL: t.field({ type: 'Upload', required: true, description: 'The image file (.jpg, .jpeg, .png).' }),
  }),
});
const MarkerSaveInput = builder.inputType('MarkerSaveInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    tourId: t.id({ required: true }),
    scrollPosition: t.float(),
    isFastTravel: t.boolean(),
    frameIndex: t.float({ required: true }),
  }),
});
const MarkerUpdateInput = builder.inputType('MarkerUpdateInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    name: t.string({ required: true }),
    description: t.string(),
    isFastTravel: t.boolean(),
  }),
});
const FileSubmitInput = builder.inputType('FileSubmitPreSignedUploadInput', {
  fields: (t) => ({ key: t.string({ required: true }) }),
});

export const HeaderRef = builder.objectRef<{ key: string; value: string }>('Header').implement({
  fields: (t) => ({ key: t.exposeString('key'), value: t.exposeString('value') }),
});
const PreSignedUploadRef = builder
  .objectRef<{
    uploadURL: string | null;
    key: string | null;
    headers: Array<{ key: string; value: string }>;
    error: string | null;
    message: string | null;
  }>('PreSignedUpload')
  .implement({
    fields: (t) => ({
      uploadURL: t.exposeString('uploadURL', { nullable: true }),
      key: t.exposeString('key', { nullable: true }),
      headers: t.field({ type: [HeaderRef], resolve: (p) => p.headers }),
      error: t.exposeString('error', { nullable: true }),
      message: t.exposeString('message', { nullable: true }),
    }),
  });
const SubmitUploadRef = builder.objectRef<{ bucketURL: string; tourId: string }>('SubmittedUpload').implement({
  fields: (t) => ({ bucketURL: t.exposeString('bucketURL'), tourId: t.exposeID('tourId') }),
});

builder.mutationFields((t) => ({
  tourSave: t.field({
    type: TourRef,
    args: { input: t.arg({ type: TourSaveInput, required: true }) },
    resolve: (_r, { input }, ctx) => saveTour(ctx.services, requireAuth(ctx), input),
  }),
  tourUpdateThumbnailURL: t.field({
    type: TourRef,
    args: { input: t.arg({ type: TourUpdateThumbnailInput, required: true }) },
    resolve: (_r, { input }, ctx) => updateThumbnail(ctx.services, requireAuth(ctx), input),
  }),
  tourDelete: t.field({
    type: SuccessRef,
    args: { tourId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteTour(ctx.services, requireAuth(ctx), args.tourId);
      return { success: true };
    },
  }),
  tourReactivate: t.field({
    type: TourRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => reactivateTour(ctx.services, requireAuth(ctx), args.id),
  }),
  fileGetPreSignedUrl: t.field({
    type: PreSignedUploadRef,
    description: 'A signed, expiring PUT URL for one video; refusals come back in error (a code) and message.',
    args: { input: t.arg.string({ required: true, description: 'The file extension, e.g. mp4.' }) },
    resolve: (_r, args, ctx) => createUploadUrl(ctx.services, requireAuth(ctx), args.input),
  }),
  fileSubmitPreSignedUpload: t.field({
    type: SubmitUploadRef,
    description: 'Creates the tour from an uploaded video and starts processing; passes the quota gates first.',
    args: { input: t.arg({ type: FileSubmitInput, required: true }) },
    resolve: (_r, { input }, ctx) => submitUpload(ctx.services, requireAuth(ctx), input.key),
  }),
  markerSave: t.field({
    type: MarkerRef,
    args: { input: t.arg({ type: MarkerSaveInput, required: true }) },
    resolve: (_r, { input }, ctx) => saveMarker(ctx.services, requireAuth(ctx), input),
  }),
  markerUpdate: t.field({
    type: MarkerRef,
    args: { input: t.arg({ type: MarkerUpdateInput, required: true }) },
    resolve: (_r, { input }, ctx) => updateMarker(ctx.services, requireAuth(ctx), input),
  }),
  markerDelete: t.field({
    type: SuccessRef,
    args: { markerId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await deleteMarker(ctx.services, requireAuth(ctx), args.markerId);
      return { success: true };
    },
  }),
}));

// ---- Subscriptions --------------------------------------------------------------------------------------

const TourProgressRef = builder.objectRef<TourProgressEvent>('TourProgress').implement({
  fields: (t) => ({
    progress: t.exposeInt('progress'),
    status: t.exposeString('status'),
    text: t.exposeString('text', { nullable: true }),
    thumbnailURL: t.exposeString('thumbnailURL', { nullable: true }),
  }),
});

builder.subscriptionField('tourProgressUpdated', (t) =>
  t.field({
    type: TourProgressRef,
    args: { tourId: t.arg.id({ required: true }) },
    subscribe: async (_r, args, ctx) => {
      const auth = requireAuth(ctx);
      const id = decodeId('Tour', args.tourId);
      if ((await tourCompanyId(ctx.services, id)) !== auth.companyId)
        throw new AppError(ERROR_CODES.NOT_FOUND, ERROR_TEXTS.notFound);
      return ctx.services.events.subscribe<TourProgressEvent>(topics.tourProgress(id));
    },
    resolve: (e) => e,
  }),
);
