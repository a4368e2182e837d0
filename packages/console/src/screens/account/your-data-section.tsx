/**
 * The account page's 'Your data' card: export everything held about you (progress, then download), and delete the
 * account.
 */
import { useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { DeleteAccountDialog } from './delete-account-dialog.js';
import { useDataExport } from './use-your-data.js';
import { deletionCancelledText, YOUR_DATA_TEXTS } from './your-data-rules.js';
import './your-data.css';

export function YourDataCard({ onSignedOut }: { onSignedOut: () => void }) {
  const ex = useDataExport();
  const [deleting, setDeleting] = useState(false);
  const v = ex.view;
  const running = v.kind === 'running';

  return (
    <section className="card section your-data" aria-labelledby="your-data">
      <div className="section-title">
        <h2 id="your-data">Your data</h2>
      </div>
      <h3 className="your-data-heading">Export</h3>
      <p className="field-hint">{YOUR_DATA_TEXTS.exportIntro}</p>
      <div aria-live="polite" data-testid="export-state">
        {running ? (
          <div className="your-data-progress" role="status">
            <label htmlFor="export-progress">{v.text}</label>
            <progress id="export-progress" max={100} value={v.percent}>
              {v.percent}%
            </progress>
          </div>
        ) : v.kind === 'ready' ? (
          <p className="your-data-note">
            Your data is ready.{' '}
            <a href={v.url} download data-testid="export-download">
              Download ZIP
            </a>{' '}
            (the link works until {v.until}; we mailed it to you too).
          </p>
        ) : v.kind === 'expired' ? (
          <p className="page-note">{YOUR_DATA_TEXTS.exportExpired}</p>
        ) : v.kind === 'failed' ? (
          <p className="form-failure" role="alert">
            {v.error}
          </p>
        ) : null}
        {ex.failure ? (
          <p className="form-failure" role="alert">
            {ex.failure}
          </p>
        ) : null}
      </div>
      {running ? null : (
        <SlButton loading={ex.starting} onClick={() => void ex.start()} data-testid="export-start">
          <SlIcon slot="prefix" name="download" />
          {v.kind === 'none' ? YOUR_DATA_TEXTS.exportButton : YOUR_DATA_TEXTS.exportAgain}
        </SlButton>
      )}

      <h3 className="your-data-heading">Delete account</h3>
      <p className="field-hint">{YOUR_DATA_TEXTS.deleteIntro}</p>
      {ex.deletionCancelledAt ? (
        <p className="your-data-note" data-testid="deletion-cancelled">
          {deletionCancelledText(ex.deletionCancelledAt)}
        </p>
      ) : null}
      <SlButton variant="danger" outline onClick={() => setDeleting(true)} data-testid="delete-account">
        <SlIcon slot="prefix" name="trash" />
        {YOUR_DATA_TEXTS.deleteButton}
      </SlButton>
      <DeleteAccountDialog open={deleting} onClose={() => setDeleting(false)} onSignedOut={onSignedOut} />
    </section>
  );
}
