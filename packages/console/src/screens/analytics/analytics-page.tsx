/**
 * /tour/{tourId}/analytics, Tour Analytics: visits over the last 7, 30 or 90 days, time in each room,
 * where visits ended and the device split, each picture with a table and a CSV; below, the seller report (shareable
 * link, scheduled digest, PDF). Basic and Pro; other plans see the plan gate with Upgrade, as for APIs & Webhooks.
 */
import { useParams } from 'react-router-dom';
import { AudienceLinkFilter } from './audience-link-filter.js';
import { DataLoadError } from '../../ui/data-load-error.js';
import { PlanGate } from '../../ui/plan-gate.js';
import { Loading, Page } from '../../ui/page.js';
import { ANALYTICS_TEXTS, PERIODS, type Period } from './analytics-rules.js';
import { FiguresView } from './figures-view.js';
import { SellerReportSection } from './seller-report-section.js';
import { useAnalytics, useAnalyticsFigures } from './use-analytics.js';
import './analytics.css';

function Gate() {
  return (
    <PlanGate
      title={ANALYTICS_TEXTS.title}
      back="/"
      className="analytics"
      text={ANALYTICS_TEXTS.planRequired}
      testId="analytics-gate"
    />
  );
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

function Figures({ tourId, period, linkId }: { tourId: string; period: Period; linkId: string }) {
  const { figures, planRequired, error, fetching, retry } = useAnalyticsFigures(tourId, period, linkId);
  if (planRequired) return <Gate />;
  if (error) return <DataLoadError error={error} onRetry={retry} />;
  if (!figures) return <Loading label="Loading the figures" />;
  return (
    <section aria-labelledby="analytics-figures" aria-busy={fetching}>
      <h2 id="analytics-figures" className="visually-hidden">
        Figures for the last {period} days
      </h2>
      <FiguresView figures={figures} period={{ from: figures.from, to: figures.to }} />
    </section>
  );
}

export default function AnalyticsPage() {
  const { tourId = '' } = useParams();
  const { loaded, error, retry, allowed, title, period, setPeriod, links, linkId, setLinkId } = useAnalytics(tourId);
  if (error)
    return (
      <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
        <DataLoadError error={error} onRetry={retry} />
      </Page>
    );
  if (!loaded)
    return (
      <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
        <Loading />
      </Page>
    );
  if (!allowed) return <Gate />;
  return (
    <Page title={ANALYTICS_TEXTS.title} back="/" className="analytics">
      <p className="analytics-tour" data-testid="analytics-tour">
        {title}
      </p>
      <PeriodPicker value={period} onChange={setPeriod} />
      <AudienceLinkFilter links={links} value={linkId} onChange={setLinkId} />
      <Figures tourId={tourId} period={period} linkId={linkId} />
      <SellerReportSection tourId={tourId} period={period} link={links.find((l) => l.id === linkId)} />
    </Page>
  );
}
