/**
 * /seller-report/{token}: the read-only seller report a link opens, without login: who sends it, the tour,
 * and the same figures and pictures as Tour Analytics. An expired or revoked link says so.
 */
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { ALL_VISITS, AudienceLinkFilter } from './audience-link-filter.js';
import { ERROR_CODES } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { ANALYTICS_TEXTS, humanDate } from './analytics-rules.js';
import { FiguresView } from './figures-view.js';
import { useSharedReport } from './use-shared-report.js';
import './analytics.css';

const TITLE = 'Seller report';

/**
 * Refusals the page explains in words rather than as a load error: a link that is not (or no longer) valid, a
 * members-only tour.
 */
const REFUSAL_NOTES: Partial<Record<string, { testId: string; text: string }>> = {
  [ERROR_CODES.NOT_FOUND]: { testId: 'seller-link-invalid', text: ANALYTICS_TEXTS.linkNotValid },
  [ERROR_CODES.TOUR_MEMBERS_ONLY]: { testId: 'seller-report-members-only', text: ANALYTICS_TEXTS.reportMembersOnly },
};

export default function SharedReportPage() {
  const { token = '' } = useParams();
  const [linkId, setLinkId] = useState(ALL_VISITS);
  const { refusal: code, error, retry, report: r, figures: f } = useSharedReport(token, linkId);
  const refusal = REFUSAL_NOTES[code ?? ''];
  if (refusal)
    return (
      <Page title={TITLE} className="analytics">
        <p className="page-note" data-testid={refusal.testId}>
          {refusal.text}
        </p>
      </Page>
    );
  if (error)
    return (
      <Page title={TITLE} className="analytics">
        <DataLoadError error={error} onRetry={retry} />
      </Page>
    );
  if (!r || !f)
    return (
      <Page title={TITLE} className="analytics">
        <Loading />
      </Page>
    );
  // A one-person company is often named after its agent: say the name once.
  const by = [...new Set([r.agentName.trim(), r.companyName.trim()].filter(Boolean))].join(', ');
  return (
    <Page title={TITLE} className="analytics">
      <p className="analytics-tour" data-testid="analytics-tour">
        {r.tourTitle || 'Untitled tour'}
      </p>
      <p className="field-hint">
        The last {r.days} days, {humanDate(`${f.from}T00:00:00Z`)} to {humanDate(`${f.to}T00:00:00Z`)}.
        {by ? ` Shared by ${by}.` : ''} This link works until {humanDate(r.expiresAt)}.
      </p>
      <AudienceLinkFilter links={r.audienceLinks} value={linkId} onChange={setLinkId} />
      <FiguresView figures={f} period={{ from: f.from, to: f.to }} />
    </Page>
  );
}
