/**
 * Seller reports (docs/api.md): a tour's shareable read-only links, its scheduled digest and PDF runs, for
 * whoever may edit the tour on a plan with Tour Analytics; and the public report a link opens (no login).
 */
import { assertSellerReportAllowed } from '../../services/tour-access/visit-gate.js';
import { builder } from '../builder.js';
import { encodeTypedId } from '../../core/ids.js';
import { audienceLinkNames, audienceLinkOfTour } from '../../services/audience-links/audience-links.js';
import { requireAuth } from '../guards.js';
import { createLink, encodeLinkId, linkByToken, listLinks, revokeLink } from '../../services/seller-reports/links.js';
import { deleteDigest, getDigest, saveDigest } from '../../services/seller-reports/digests.js';
import { readSellerFigures, readSubject } from '../../services/seller-reports/figures-source.js';
import { encodeRunId, getRun, lastDigestRun, startDownload } from '../../services/seller-reports/runs.js';
import type { SellerDigestRow, SellerLinkRow, SellerRunRow } from '../../db/tables/seller-reports.js';
import { DIGEST_FREQUENCIES } from '../../services/seller-reports/schedule.js';
import type { TourRoomAnalytics } from '../../services/reports/room-analytics.js';
import { serverNow } from '../../core/clock.js';

const SellerReportLinkRef = builder.objectRef<SellerLinkRow>('SellerReportLink').implement({
  description:
    "A read-only link to a tour's seller report; the link itself is answered once, by sellerReportLinkCreate.",
  fields: (t) => ({
    id: t.id({ resolve: (l) => encodeLinkId(l.id) }),
    prefix: t.exposeString('prefix', {
      description: 'The first characters of the token, to recognise the link (e.g. rws_AbCdEf).',
    }),
    days: t.exposeInt('days', {
      description: 'The period the report shows: the last 7, 30 or 90 days up to when it is opened.',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (l) => l.created_at }),
    expiresAt: t.field({ type: 'DateTime', resolve: (l) => l.expires_at }),
  }),
});

const SellerReportLinkCreatePayload = builder
  .objectRef<{ link: SellerLinkRow; url: string }>('SellerReportLinkCreatePayload')
  .implement({
    fields: (t) => ({
      link: t.field({ type: SellerReportLinkRef, resolve: (p) => p.link }),
      url: t.exposeString('url', {
        description: 'The link to send the seller. Shown only here: only a hash of it is kept.',
      }),
    }),
  });

const FrequencyEnum = builder.enumType('SellerDigestFrequency', { values: DIGEST_FREQUENCIES });

const SellerReportDigestRef = builder.objectRef<SellerDigestRow>('SellerReportDigest').implement({
  description:
    'The scheduled e-mail with the seller report as a PDF: weekly (day 1 = Monday … 7 = Sunday) or monthly (day 1–28), at 07:00 in its time zone.',
  fields: (t) => ({
    frequency: t.field({ type: FrequencyEnum, resolve: (d) => d.frequency }),
    day: t.exposeInt('day'),
    recipients: t.exposeStringList('recipients'),
    timeZone: t.exposeString('time_zone', {
      description: 'IANA time zone of the 07:00 sending, e.g. Africa/Johannesburg.',
    }),
    nextSendAt: t.field({ type: 'DateTime', resolve: (d) => d.next_send_at }),
    lastSentAt: t.field({ type: 'DateTime', nullable: true, resolve: (d) => d.last_sent_at }),
  }),
});

const RunStatusEnum = builder.enumType('SellerReportRunStatus', {
  values: ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] as const,
});

const SellerReportRunRef = builder.objectRef<SellerRunRow>('SellerReportRun').implement({
  description: 'A seller report PDF being made in the job queue; poll it until status is DONE or FAILED.',
  fields: (t) => ({
    id: t.id({ resolve: (r) => encodeRunId(r.id) }),
    status: t.field({ type: RunStatusEnum, resolve: (r) => r.status }),
    progress: t.exposeInt('progress', { description: '0–100.' }),
    progressText: t.exposeString('progress_text'),
    error: t.exposeString('error', { nullable: true }),
    fileName: t.exposeString('file_name', { nullable: true }),
    mimeType: t.string({ resolve: () => 'application/pdf' }),
    fileContent: t.string({
      nullable: true,
      description: 'The PDF, base64, once DONE (kept for a day).',
      resolve: (r) => (r.pdf ? Buffer.from(r.pdf).toString('base64') : null),
    }),
  }),
});

builder.objectField(SellerReportDigestRef, 'lastRun', (t) =>
  t.field({
    type: SellerReportRunRef,
    nullable: true,
    description: 'The newest sending of this digest: its progress, or why it failed.',
    resolve: (d, _a, ctx) => lastDigestRun(ctx.services, d.id),
  }),
);

const SellerReportSettingsRef = builder.objectRef<{ tourId: string }>('SellerReportSettings').implement({
  fields: (t) => ({
    links: t.field({
      type: [SellerReportLinkRef],
      description: 'Links not revoked and not expired, newest first.',
      resolve: (s, _a, ctx) => listLinks(ctx.services, requireAuth(ctx), s.tourId),
    }),
    digest: t.field({
      type: SellerReportDigestRef,
      nullable: true,
      resolve: (s, _a, ctx) => getDigest(ctx.services, requireAuth(ctx), s.tourId),
    }),
  }),
});

interface SharedReport {
  /** The tour's audience links by name, for the report's filter. */
  audienceLinks: Array<{ id: string; label: string }>;
  tourTitle: string;
  companyName: string;
  agentName: string;
  days: number;
  expiresAt: Date;
  analytics: TourRoomAnalytics;
}
const SharedAudienceLinkRef = builder.objectRef<{ id: string; label: string }>('SharedAudienceLink').implement({
  description: 'An audience link as a seller report shows it: its name only.',
  fields: (t) => ({ id: t.exposeID('id'), label: t.exposeString('label') }),
});
const SharedSellerReportRef = builder.objectRef<SharedReport>('SharedSellerReport').implement({
  description:
    'What a seller report link shows, without login: the tour, who sends it, and the same figures as tourAnalytics.',
  fields: (t) => ({
    tourTitle: t.exposeString('tourTitle'),
    companyName: t.exposeString('companyName'),
    agentName: t.exposeString('agentName'),
    days: t.exposeInt('days'),
    expiresAt: t.field({ type: 'DateTime', resolve: (r) => r.expiresAt }),
    // The tourAnalytics type (graphql/schema/analytics.ts), named so both answers are one type.
    analytics: t.field({ type: 'TourRoomAnalytics' as never, resolve: (r) => r.analytics as never }),
    audienceLinks: t.field({
      type: [SharedAudienceLinkRef],
      description:
        "The tour's audience links by name: the report can show one link's visits (sharedSellerReport(audienceLinkId)).",
      resolve: (r) => r.audienceLinks,
    }),
  }),
});

const LinkCreateInput = builder.inputType('SellerReportLinkCreateInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    days: t.int({ description: 'The period the report shows: 7, 30 (default) or 90 days.' }),
    expiresInDays: t.int({ description: 'How long the link works: 1–90 days (default 30).' }),
  }),
});
const DigestInput = builder.inputType('SellerReportDigestInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    frequency: t.field({ type: FrequencyEnum, required: true }),
    day: t.int({ required: true, description: 'Weekly: 1 = Monday … 7 = Sunday. Monthly: 1–28.' }),
    recipients: t.stringList({ required: true, description: 'Up to 10 e-mail addresses.' }),
    timeZone: t.string({
      description: 'IANA time zone the 07:00 sending is in, e.g. Africa/Johannesburg (default UTC).',
    }),
  }),
});
const PdfInput = builder.inputType('SellerReportPdfInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    days: t.int({ description: '7, 30 (default) or 90 days.' }),
    audienceLinkId: t.id({
      description: "Only the visits through one of the tour's audience links, as the report filtered by it shows them.",
    }),
  }),
});

builder.queryFields((t) => ({
  sellerReport: t.field({
    type: SellerReportSettingsRef,
    description:
      "A tour's seller report links and digest. The tour's owner or a company admin, on Basic or Pro (PLAN_REQUIRED otherwise).",
    args: { tourId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await listLinks(ctx.services, requireAuth(ctx), String(args.tourId));
      return { tourId: String(args.tourId) };
    },
  }),
  sellerReportRun: t.field({
    type: SellerReportRunRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => getRun(ctx.services, requireAuth(ctx), String(args.id)),
  }),
  sharedSellerReport: t.field({
    type: SharedSellerReportRef,
    description:
      "The report a seller link opens; no login. NOT_FOUND when the link is unknown, expired or revoked; TOUR_MEMBERS_ONLY for a company-only tour's report asked without a member's session.",
    args: {
      token: t.arg.string({ required: true }),
      audienceLinkId: t.arg.id({
        description: "Only the visits through one of the tour's audience links (audienceLinks).",
      }),
    },
    resolve: async (_r, args, ctx) => {
      const link = await linkByToken(ctx.services, args.token);
      await assertSellerReportAllowed(ctx.services, ctx.auth, link.tour_id, link.company_id);
      const byLink = args.audienceLinkId
        ? await audienceLinkOfTour(ctx.services, link.tour_id, String(args.audienceLinkId))
        : null;
      const { figures, from, to } = await readSellerFigures(
        ctx.services,
        link.tour_id,
        link.days,
        serverNow(ctx.services),
        byLink,
      );
      const s = await readSubject(ctx.services, link.tour_id, { from, to });
      const audienceLinks = (await audienceLinkNames(ctx.services, link.tour_id)).map((l) => ({
        id: encodeTypedId('AudienceLink', l.id),
        label: l.label,
      }));
      return {
        audienceLinks,
        tourTitle: s.tourTitle,
        companyName: s.companyName,
        agentName: s.agentName,
        days: link.days,
        expiresAt: link.expires_at,
        analytics: figures,
      };
    },
  }),
}));

builder.mutationFields((t) => ({
  sellerReportLinkCreate: t.field({
    type: SellerReportLinkCreatePayload,
    args: { input: t.arg({ type: LinkCreateInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      createLink(ctx.services, requireAuth(ctx), {
        tourId: String(input.tourId),
        days: input.days ?? null,
        expiresInDays: input.expiresInDays ?? null,
      }),
  }),
  sellerReportLinkRevoke: t.field({
    type: SellerReportLinkRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => revokeLink(ctx.services, requireAuth(ctx), String(args.id)),
  }),
  sellerReportDigestSave: t.field({
    type: SellerReportDigestRef,
    description: "Creates or replaces the tour's digest; the next sending time is worked out from now.",
    args: { input: t.arg({ type: DigestInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      saveDigest(ctx.services, requireAuth(ctx), {
        tourId: String(input.tourId),
        frequency: input.frequency,
        day: input.day,
        recipients: input.recipients,
        timeZone: input.timeZone ?? null,
      }),
  }),
  sellerReportDigestDelete: t.boolean({
    description: "Stops the tour's digest; false when it had none.",
    args: { tourId: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => deleteDigest(ctx.services, requireAuth(ctx), String(args.tourId)),
  }),
  sellerReportPdfCreate: t.field({
    type: SellerReportRunRef,
    description: 'Queues the seller report PDF; poll sellerReportRun for its progress and, once DONE, the file.',
    args: { input: t.arg({ type: PdfInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      startDownload(ctx.services, requireAuth(ctx), {
        tourId: String(input.tourId),
        days: input.days ?? null,
        audienceLinkId: input.audienceLinkId != null ? String(input.audienceLinkId) : null,
      }),
  }),
}));
