/** The public seller report's data: the report a link opens (no login), or the code of its refusal. */
import { useQuery } from 'urql';
import { readFragment } from '../../graphql/graphql.js';
import { failureCode } from '../../graphql/errors.js';
import { AnalyticsFields, SharedSellerReportQuery } from './analytics-operations.js';

/** `audienceLinkId`: only the visits through that audience link ('' for all). */
export function useSharedReport(token: string, audienceLinkId = '') {
  const [{ data, error }, refetch] = useQuery({
    query: SharedSellerReportQuery,
    variables: { token, audienceLinkId: audienceLinkId || null },
    requestPolicy: 'network-only',
  });
  const report = data?.sharedSellerReport ?? null;
  return {
    /** Why the server refused the link (NOT_FOUND, TOUR_MEMBERS_ONLY, …), null when it answered. */
    refusal: data ? null : failureCode(error),
    error: data ? undefined : error,
    retry: () => refetch({ requestPolicy: 'network-only' }),
    report,
    figures: report ? readFragment(AnalyticsFields, report.analytics) : null,
  };
}
