/** Plans, checkout and reports (accounts §2, §7). */
import { graphql } from '../../graphql/graphql.js';

export const SubscriptionsQuery = graphql(`
  query Subscriptions {
    priceTiers { priceId flatAmount unitAmount upTo currencyCode currencySymbol tierName description features }
    me { user { id company { id license { planName quantity } } } }
  }
`);

export const PaymentCheckoutMutation = graphql(`
  mutation PaymentCheckout($input: PaymentCheckoutInput!) {
    paymentCheckout(input: $input) { url message error }
  }
`);

export const ReportsQuery = graphql(`
  query Reports {
    me { user { id isAdmin company { id } } }
  }
`);

export const TourByCompanyReportMutation = graphql(`
  mutation GenerateTourByCompanyReport($input: ReportExportInput!) {
    generateTourByCompanyReport(input: $input) { fileContent fileName mimeType }
  }
`);

export const SummaryByUserReportMutation = graphql(`
  mutation GenerateSummaryByUserReport($input: ReportExportInput!) {
    generateSummaryByUserReport(input: $input) { fileContent fileName mimeType }
  }
`);
