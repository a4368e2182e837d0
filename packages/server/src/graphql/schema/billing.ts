/** Plans, checkout, billing portal and business reports (accounts §3, §7). */
import { CURRENCY, PLANS } from '@roomwalk/shared';
import { builder } from '../builder.js';
import { notAvailableYet } from '../errors.js';
import { requireAuth } from '../guards.js';

export interface PriceTierModel {
  priceId: string; flatAmount: number; unitAmount: number; upTo: number; currencyCode: string; currencySymbol: string; tierName: string;
  description: string; features: readonly string[];
}

export const PriceTierRef = builder.objectRef<PriceTierModel>('PriceTier').implement({
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

/** The local catalogue's tiers; the payment issue replaces this with the provider's products. */
export function localPriceTiers(): PriceTierModel[] {
  return PLANS.filter((p) => p.sold).map((p) => ({
    priceId: `price_${p.id}`, flatAmount: p.flatAmount, unitAmount: p.unitAmount, upTo: p.upTo,
    currencyCode: CURRENCY.code, currencySymbol: CURRENCY.symbol, tierName: p.tierName, description: p.description, features: p.features,
  }));
}

builder.queryField('priceTiers', (t) =>
  t.field({ type: [PriceTierRef], description: 'The plans on sale, cheapest first.', resolve: () => localPriceTiers() }),
);

const CheckoutRef = builder.objectRef<{ url: string | null; message: string | null; error: string | null }>('CheckoutResult').implement({
  fields: (t) => ({ url: t.exposeString('url', { nullable: true }), message: t.exposeString('message', { nullable: true }), error: t.exposeString('error', { nullable: true }) }),
});
const PortalRef = builder.objectRef<{ url: string | null; error: string | null }>('BillingPortalResult').implement({
  fields: (t) => ({ url: t.exposeString('url', { nullable: true }), error: t.exposeString('error', { nullable: true }) }),
});
const CheckoutInput = builder.inputType('PaymentCheckoutInput', { fields: (t) => ({ priceId: t.string({ required: true }), quantity: t.int() }) });
const PortalInput = builder.inputType('BillingPortalSessionInput', { fields: (t) => ({ returnStub: t.string() }) });

export const ExportTypeEnum = builder.enumType('ExportType', { values: ['csv', 'pdf'] as const });
const ReportInput = builder.inputType('ReportExportInput', {
  fields: (t) => ({ companyId: t.id({ required: true }), exportType: t.field({ type: ExportTypeEnum, defaultValue: 'csv' }) }),
});
export const ReportResultRef = builder.objectRef<{ fileContent: string; fileName: string; mimeType: string }>('ReportResult').implement({
  fields: (t) => ({ fileContent: t.exposeString('fileContent', { description: 'Base64.' }), fileName: t.exposeString('fileName'), mimeType: t.exposeString('mimeType') }),
});

const stub = (_r: unknown, _a: unknown, ctx: Parameters<typeof requireAuth>[0]) => {
  requireAuth(ctx);
  throw notAvailableYet();
};

builder.mutationFields((t) => ({
  paymentCheckout: t.field({ type: CheckoutRef, args: { input: t.arg({ type: CheckoutInput, required: true }) }, resolve: stub }),
  billingPortalSession: t.field({ type: PortalRef, args: { input: t.arg({ type: PortalInput, required: true }) }, resolve: stub }),
  generateTourByCompanyReport: t.field({ type: ReportResultRef, args: { input: t.arg({ type: ReportInput, required: true }) }, resolve: stub }),
  generateSummaryByUserReport: t.field({ type: ReportResultRef, args: { input: t.arg({ type: ReportInput, required: true }) }, resolve: stub }),
}));
