/** Tour Analytics: the figures of one tour over a period, its seller report links, digest and PDF runs. */
import { graphql } from '../../graphql/graphql.js';

export const AnalyticsFields = graphql(`
  fragment AnalyticsFields on TourRoomAnalytics {
    from
    to
    visits
    uniqueVisitors
    averageSeconds
    completionRate
    rooms { name seconds visits }
    exits { name visits }
    daily { date visits uniqueVisitors }
    devices { name visits }
  }
`);

/** The plan gate reads the licence (the token's roles may predate an upgrade) and the tour's title. */
export const AnalyticsAccessQuery = graphql(`
  query AnalyticsAccess($tourId: ID!) {
    me { user { id company { id license { planName } } } }
    tour(tourID: $tourId) { id title }
  }
`);

export const TourAnalyticsQuery = graphql(
  `
  query TourAnalytics($tourId: ID!, $from: DateTime, $to: DateTime, $audienceLinkId: ID) {
    tourAnalytics(tourId: $tourId, from: $from, to: $to, audienceLinkId: $audienceLinkId) { ...AnalyticsFields }
  }
`,
  [AnalyticsFields],
);

export const SellerReportQuery = graphql(`
  query SellerReport($tourId: ID!) {
    sellerReport(tourId: $tourId) {
      links { id prefix days createdAt expiresAt }
      digest { frequency day recipients timeZone nextSendAt lastSentAt lastRun { status progress progressText error } }
    }
  }
`);

export const SellerLinkCreateMutation = graphql(`
  mutation SellerLinkCreate($input: SellerReportLinkCreateInput!) {
    sellerReportLinkCreate(input: $input) { url link { id prefix days createdAt expiresAt } }
  }
`);

export const SellerLinkRevokeMutation = graphql(`
  mutation SellerLinkRevoke($id: ID!) {
    sellerReportLinkRevoke(id: $id) { id }
  }
`);

export const SellerDigestSaveMutation = graphql(`
  mutation SellerDigestSave($input: SellerReportDigestInput!) {
    sellerReportDigestSave(input: $input) { frequency day recipients timeZone nextSendAt lastSentAt }
  }
`);

export const SellerDigestDeleteMutation = graphql(`
  mutation SellerDigestDelete($tourId: ID!) {
    sellerReportDigestDelete(tourId: $tourId)
  }
`);

export const SellerPdfCreateMutation = graphql(`
  mutation SellerPdfCreate($input: SellerReportPdfInput!) {
    sellerReportPdfCreate(input: $input) { id status progress progressText }
  }
`);

export const SellerRunQuery = graphql(`
  query SellerRun($id: ID!) {
    sellerReportRun(id: $id) { id status progress progressText error fileName mimeType fileContent }
  }
`);

export const SharedSellerReportQuery = graphql(
  `
  query SharedSellerReport($token: String!, $audienceLinkId: ID) {
    sharedSellerReport(token: $token, audienceLinkId: $audienceLinkId) {
      audienceLinks { id label }
      tourTitle
      companyName
      agentName
      days
      expiresAt
      analytics { ...AnalyticsFields }
    }
  }
`,
  [AnalyticsFields],
);
