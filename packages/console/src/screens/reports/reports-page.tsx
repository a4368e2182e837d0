/** Reports: pick a report, a format (csv default, pdf), download the base64 file. */
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { ACCOUNT_NOTES } from '@roomwalk/shared';
import { DataLoadError } from '../../ui/data-load-error.js';
import { Loading, Page } from '../../ui/page.js';
import { ReportDialog } from './report-dialog.js';
import { REPORTS } from './report-rules.js';
import { useReports } from './use-reports.js';

export default function ReportsPage() {
  const r = useReports();
  return (
    <Page title="Reports" back="/account">
      {r.error ? (
        <DataLoadError error={r.error} onRetry={r.retry} />
      ) : !r.loaded ? (
        <Loading />
      ) : (
        <section aria-labelledby="available-reports">
          <h2 id="available-reports">Available Reports</h2>
          {r.canDownload ? null : (
            <p className="page-note" id="reports-member-note" data-testid="member-note">
              <SlIcon name="info-circle" aria-hidden="true" /> {ACCOUNT_NOTES.memberReports}
            </p>
          )}
          <ul className="reports">
            {REPORTS.map((report) => (
              <li key={report.id}>
                <button
                  type="button"
                  className="card report-item"
                  disabled={!r.canDownload}
                  aria-describedby={r.canDownload ? undefined : 'reports-member-note'}
                  onClick={() => r.choose(report.id)}
                >
                  <strong>{report.title}</strong>
                  <div className="field-hint">{report.description}</div>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <ReportDialog
        title={r.report?.title ?? null}
        format={r.format}
        onFormat={r.setFormat}
        busy={r.busy}
        canSend={!!r.companyId}
        onClose={r.close}
        onDownload={() => void r.download()}
      />
    </Page>
  );
}
