/** Plans, checkout, billing portal, licences, business reports and tour analytics. */
import type { TourRow, UserRow } from '../../db/types.js';
import { builder, decodeId, SuccessRef } from '../builder.js';
import { notFound } from '../errors.js';
import { requireAuth, requireCompanyAdmin, requireSameCompany, requireSuperAdmin } from '../guards.js';
import { LicenseRef, UserRef } from './accounts.js';
import { TourRef } from './tour-refs.js';
import { billingPortalSession, paymentCheckout } from '../../services/billing/checkout.js';
import { grantOfflineLicense } from '../../services/billing/licenses.js';
import { companyById } from '../../services/account-reads.js';
import type { PriceTier } from '../../services/billing/provider.js';
import { paymentProvider } from '../../services/billing/payment-provider.js';
import {
  NO_VISITS,
  analyticsByTour,
  canSeeAnalytics,
  parseVisitBeacon,
  recordTourView,
  tourAnalytics,
  type TourAnalytics,
} from '../../services/reports/analytics.js';
import { loadBatched } from '../loaders.js';
import { generateReport, REPORT_KINDS, type ReportKind } from '../../services/reports/generate-report.js';
import type { Context } from '../builder.js';
import { serverNow } from '../../core/clock.js';

const PriceTierRef = builder.objectRef<PriceTier>('PriceTier').implement({
  fields: (t) => ({
    priceId: t.exposeString('priceId'),
    flatAmount: t.exposeInt('flatAmount', { description: 'Price per month in minor currency units.' }),
    unitAmount: t.exposeInt('unitAmount'),
    upTo: t.exposeInt('upTo', { description: 'Active tours included.' }),
    currencyCode: t.exposeString('currencyCode'),
    currencySymbol: t.exposeString('currencySymbol'),
    tierName: t.exposeString('tierName'),
    description: t.exposeString('description'),
    features: t.exposeStringList('features'),
  }),
});

builder.queryField('priceTiers', (t) =>
  t.field({
    type: [PriceTierRef],
    description:
      'The plans on sale, cheapest first: from Stripe prices when Stripe is configured, else the local catalogue.',
    resolve: async (_r, _a, ctx) => (await paymentProvider(ctx.services)).priceTiers(),
  }),
);

const CheckoutRef = builder
  .objectRef<{ url: string | null; message: string | null; error: string | null }>('CheckoutResult')
  .implement({
    description:
      'Exactly one of url (go there to pay), message (a subscription exists: manage it instead) or error is set.',
    fields: (t) => ({
      url: t.exposeString('url', { nullable: true }),
      message: t.exposeString('message', { nullable: true }),
      error: t.exposeString('error', { nullable: true }),
    }),
  });
const PortalRef = builder.objectRef<{ url: string | null; error: string | null }>('BillingPortalResult').implement({
  fields: (t) => ({
    url: t.exposeString('url', { nullable: true }),
    error: t.exposeString('error', { nullable: true }),
  }),
});
const CheckoutInput = builder.inputType('PaymentCheckoutInput', {
  fields: (t) => ({ priceId: t.string({ required: true }), quantity: t.int() }),
});
const PortalInput = builder.inputType('BillingPortalSessionInput', {
  fields: (t) => ({
    returnStub: t.string({ description: 'Path under the public URL to come back to, e.g. account/subscriptions.' }),
  }),
});

const ExportTypeEnum = builder.enumType('ExportType', { values: ['csv', 'pdf'] as const });
const ReportInput = builder.inputType('ReportExportInput', {
  fields: (t) => ({
    companyId: t.id({ required: true }),
    exportType: t.field({ type: ExportTypeEnum, defaultValue: 'csv' }),
  }),
});
const ReportResultRef = builder
  .objectRef<{ fileContent: string; fileName: string; mimeType: string }>('ReportResult')
  .implement({
    fields: (t) => ({
      fileContent: t.exposeString('fileContent', { description: 'Base64.' }),
      fileName: t.exposeString('fileName'),
      mimeType: t.exposeString('mimeType'),
    }),
  });

const TourViewRecordInput = builder.inputType('TourViewRecordInput', {
  fields: (t) => ({
    tourId: t.id({ required: true }),
    visitorId: t.string({
      required: true,
      description: 'An anonymous id the player keeps per browser (8 to 64 of A-Z a-z 0-9 _ -).',
    }),
    secondsSpent: t.int({
      required: true,
      description: 'Seconds spent in the tour so far in this visit (0 to 21600).',
    }),
    roomsReached: t.int({ required: true, description: 'Rooms (markers) reached so far in this visit (0 to 500).' }),
    access: t.string({
      description: "A password tour's access grant (tourUnlock); a protected tour's visit is refused without it.",
    }),
  }),
});

const TourAnalyticsRef = builder.objectRef<TourAnalytics>('TourAnalytics').implement({
  description: 'Visits recorded by the player (plans with Tour Analytics: Basic, Pro, Offline License).',
  fields: (t) => ({
    visits: t.exposeInt('visits', {
      description: 'Visitor visits; calls from one visitor less than 30 minutes apart are one visit.',
    }),
    uniqueVisitors: t.exposeInt('uniqueVisitors'),
    totalSecondsSpent: t.exposeInt('totalSecondsSpent'),
    averageSecondsSpent: t.exposeFloat('averageSecondsSpent'),
    averageRoomsReached: t.exposeFloat('averageRoomsReached'),
  }),
});

/** Analytics only for members of the object's company whose plan has Tour Analytics; others get null (counts only). */
const mayReadAnalytics = (ctx: Context, companyId: string) =>
  !!ctx.auth && ctx.auth.companyId === companyId && canSeeAnalytics(ctx.auth.roles);

builder.objectField(UserRef, 'tourAnalytics', (t) =>
  t.field({
    type: TourAnalyticsRef,
    nullable: true,
    description: "Visits of this user's tours; null when the plan has no Tour Analytics (Free, Entry).",
    args: { since: t.arg({ type: 'DateTime' }) },
    resolve: (u: UserRow, args, ctx) =>
      mayReadAnalytics(ctx, u.company_id)
        ? tourAnalytics(ctx.services.db, { ownerId: u.id, since: args.since ?? null })
        : null,
  }),
);

builder.objectField(TourRef, 'analytics', (t) =>
  t.field({
    type: TourAnalyticsRef,
    nullable: true,
    description: 'Visits of this tour; null for visitors and when the plan has no Tour Analytics (Free, Entry).',
    args: { since: t.arg({ type: 'DateTime' }) },
    // A page of tours reads the visits of all its tours in one statement.
    resolve: (tour: TourRow, args, ctx) => {
      if (!mayReadAnalytics(ctx, tour.company_id)) return null;
      const since = args.since ?? null;
      return loadBatched(
        ctx,
        `tour analytics since ${since?.toISOString() ?? 'ever'}`,
        (ids) => analyticsByTour(ctx.services.db, ids, since),
        tour.id,
        NO_VISITS,
      );
    },
  }),
);

function reportResolver(kind: ReportKind) {
  return async (
    _r: unknown,
    args: { input: { companyId: string; exportType?: 'csv' | 'pdf' | null } },
    ctx: Context,
  ) => {
    requireAuth(ctx);
    const companyId = decodeId('Company', args.input.companyId);
    requireSameCompany(ctx, companyId);
    const auth = requireCompanyAdmin(ctx);
    return generateReport(ctx.services, {
      kind,
      companyId,
      exportType: args.input.exportType ?? 'csv',
      analytics: canSeeAnalytics(auth.roles),
    });
  };
}

builder.mutationFields((t) => ({
  paymentCheckout: t.field({
    type: CheckoutRef,
    description: 'Starts buying a plan (company admins only).',
    args: { input: t.arg({ type: CheckoutInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      paymentCheckout(ctx.services, requireCompanyAdmin(ctx), { priceId: input.priceId, quantity: input.quantity }),
  }),
  billingPortalSession: t.field({
    type: PortalRef,
    description: 'Opens the billing portal to change or cancel the plan (company admins only).',
    args: { input: t.arg({ type: PortalInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      billingPortalSession(ctx.services, requireCompanyAdmin(ctx), { returnStub: input.returnStub }),
  }),
  generateTourByCompanyReport: t.field({
    type: ReportResultRef,
    description:
      'Every tour of the company with owner, status, created date and views (company admins of that company).',
    args: { input: t.arg({ type: ReportInput, required: true }) },
    resolve: reportResolver(REPORT_KINDS.toursByCompany),
  }),
  generateSummaryByUserReport: t.field({
    type: ReportResultRef,
    description: 'Per member: monthly active and uploaded tours, views and top tours (company admins of that company).',
    args: { input: t.arg({ type: ReportInput, required: true }) },
    resolve: reportResolver(REPORT_KINDS.userSummary),
  }),
  licenseGrantOffline: t.field({
    type: LicenseRef,
    description: 'Gives a company the Offline License (super admins only); tours beyond its allowance are deactivated.',
    args: { companyId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => {
      requireSuperAdmin(ctx);
      const companyId = decodeId('Company', args.companyId);
      const company = await companyById(ctx.services, companyId);
      if (!company) throw notFound();
      const { license } = await grantOfflineLicense(ctx.services.db, company.id, serverNow(ctx.services));
      ctx.services.log.info({ companyId, by: ctx.auth?.userId }, 'offline licence granted');
      return license;
    },
  }),
  tourViewRecord: t.field({
    type: SuccessRef,
    description: 'Records a visit to a tour from the player (public; rate limited per IP).',
    args: { input: t.arg({ type: TourViewRecordInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      await recordTourView(ctx.services, parseVisitBeacon(input), { ip: ctx.ip });
      return { success: true };
    },
  }),
}));
