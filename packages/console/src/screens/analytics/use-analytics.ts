/**
 * Tour Analytics' data: who may see the page (the tour and the company's plan), the chosen period, and the figures
 * for that period. The page and its parts render what these return.
 */
import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { ERROR_CODES } from '@roomwalk/shared';
import { readFragment } from '../../graphql/graphql.js';
import { failureCode } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { basicOrHigher } from '../billing/plan-access.js';
import { AnalyticsAccessQuery, AnalyticsFields, TourAnalyticsQuery } from './analytics-operations.js';
import { AudienceLinksQuery } from '../tours/audience-link-operations.js';
import { ALL_VISITS } from './audience-link-filter.js';
import { DEFAULT_PERIOD, periodRange, type Period } from './analytics-rules.js';

/** The page's access query and period: `allowed` is false below Basic (the page shows the plan gate). */
export function useAnalytics(tourId: string) {
  const { roles } = useSession();
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const [{ data, error }, refetch] = useQuery({
    query: AnalyticsAccessQuery,
    variables: { tourId },
    requestPolicy: 'cache-and-network',
  });
  const allowed = basicOrHigher(roles, data?.me.user.company?.license?.planName);
  // Visits from one audience link, or all (the default): the tour's links to choose from.
  const [linkId, setLinkId] = useState(ALL_VISITS);
  const [links] = useQuery({ query: AudienceLinksQuery, variables: { tourId }, pause: !data || !allowed });
  return {
    links: links.data?.audienceLinks ?? [],
    linkId,
    setLinkId,
    loaded: !!data,
    error: data ? undefined : error,
    retry: () => refetch({ requestPolicy: 'network-only' }),
    allowed,
    title: data?.tour.title?.trim() || 'Untitled tour',
    period,
    setPeriod,
  };
}

/**
 * The figures of one period (of one audience link's visits when `audienceLinkId` is set); `planRequired` when the
 * server says the plan does not include them.
 */
export function useAnalyticsFigures(tourId: string, period: Period, audienceLinkId = '') {
  const range = useMemo(() => periodRange(period), [period]);
  const [{ data, error, fetching }, refetch] = useQuery({
    query: TourAnalyticsQuery,
    variables: { tourId, ...range, audienceLinkId: audienceLinkId || null },
    requestPolicy: 'cache-and-network',
  });
  return {
    figures: data ? readFragment(AnalyticsFields, data.tourAnalytics) : null,
    planRequired: !data && failureCode(error) === ERROR_CODES.PLAN_REQUIRED,
    error: data ? undefined : error,
    fetching,
    retry: () => refetch({ requestPolicy: 'network-only' }),
  };
}
