/**
 * /tour/{tourId}/analytics, Tour Analytics (issue 21): visits over the last 7, 30 or 90 days, time in each room,
 * where visits ended and the device split, each picture with a table and a CSV; below, the seller report (shareable
 * link, scheduled digest, PDF). Basic and Pro; other plans see the plan gate with Upgrade, as for APIs & Webhooks.
 */
import { useMemo, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useQuery } from 'urql';
import { ERROR_CODES } from '@roomwalk/shared';
import { readFragment } from '../../graphql/graphql.js';
import { failureCode } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { PlanGate } from '../../ui/plan-gate.js';
import { Loading, Page } from '../../ui/page.js';
import { basicOrHigher } from '../billing/plan-access.js';
import { AnalyticsAccessQuery, AnalyticsFields, TourAnalyticsQuery } from './analytics-operations.js';
import { ANALYTICS_TEXTS, DEFAULT_PERIOD, PERIODS, periodRange, type Period } from './analytics-rules.js';
import { FiguresView } from './figures-view.js';
import { SellerReportSection } from './seller-report-section.js';
import './analytics.css';

function Gate() {
  return <PlanGate title={ANALYTICS_TEXTS.title} back="/" className="analytics" text={ANALYTICS_TEXTS.planRequired} testId="analytics-gate" />;
}

function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return (
    <fieldset className="period-picker">
      <legend>Period</legend>
      {PERIODS.map((p) => (
        <label key={p} className={p === value ? 'chosen' : undefined}>
          <input type="radio" name="analytics-period" value={p} checked={p === value} onChange={() => onChange(p)} />
          Last {p} days
        </label>
      ))}
    </fieldset>
  );
}

function Figures({ tourId, period }: { tourId: string; period: Period }) {
  const range = useMemo(() => periodRange(period), [period]);
  const [{ data, error, fetching }, refetch] = useQuery({ query: TourAnalyticsQuery, variables: { tourId, ...range }, requestPolicy: 'cache-and-network' });
  if (!data && failureCode(error) === ERROR_CODES.PLAN_REQUIRED) return <Gate />;
  if (error && !data) return <DataLoadError error={error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />;
  if (!data) return <Loading label="Loading the figures" />;
  const f = readFragment(AnalyticsFields, data.tourAnalytics);
  return (
    <section aria-labelledby="analytics-figures" aria-busy={fetching}>
      <h2 id="analytics-figures" className="visually-hidden">
        Figures for the last {period} days
      </h2>
      <FiguresView figures={f} period={{ from: f.from, to: f.to }} />
    </section>
  );
}

export default function AnalyticsPage() {
  const { tourId = '' } = useParams();
  const { roles } = useSession();
  const [period, setPeriod] = useState<Period>(DEFAULT_PERIOD);
  const [{ data, error }, refetch] = useQuery({ query: AnalyticsAccessQuery, variables: { tourId }, requestPolicy: 'cache-and-network' });
  if (error && !data)
    return (
      <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
        <DataLoadError error={error} onRetry={() => refetch({ requestPolicy: 'network-only' })} />
      </Page>
    );
  if (!data)
    return (
      <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
        <Loading />
      </Page>
    );
  if (!basicOrHigher(roles, data.me.user.company?.license?.planName)) return <Gate />;
  const title = data.tour.title?.trim() || 'Untitled tour';
  return (
    <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
      <p className="analytics-tour" data-testid="analytics-tour">
        {title}
      </p>
      <PeriodPicker value={period} onChange={setPeriod} />
      <Figures tourId={tourId} period={period} />
      <SellerReportSection tourId={tourId} period={period} />
    </Page>
  );
}
