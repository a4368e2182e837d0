/** The reports screen: who may ask, and the two exports. */
import { graphql } from '../../graphql/graphql.js';

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
