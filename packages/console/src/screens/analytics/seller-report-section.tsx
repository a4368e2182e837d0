/**
 * The seller report: a read-only link to send the seller (shown once, expiring, revocable), the scheduled
 * e-mail digest, and the PDF made in the job queue with its progress, downloaded when ready.
 */
import { useEffect, useRef, useState } from 'react';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { NOTICES } from '@roomwalk/shared';
import { useClipboard } from '../../state/use-clipboard.js';
import { humanDate, type Period } from './analytics-rules.js';
import { DigestForm } from './digest-form.js';
import { useSellerLinks, useSellerPdf, useSellerReport } from './use-seller-report.js';

const EXPIRY_CHOICES = [7, 30, 90] as const;

function LinkPanel({
  tourId,
  period,
  links,
  onChanged,
}: {
  tourId: string;
  period: Period;
  links: ReadonlyArray<{ id: string; prefix: string; days: number; expiresAt: string }>;
  onChanged: () => void;
}) {
  const { url, busy, create, revoke } = useSellerLinks(tourId, period, onChanged);
  const [expires, setExpires] = useState<number>(30);
  const clip = useClipboard();
  const urlField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (url) urlField.current?.focus();
  }, [url]);

  return (
    <section className="card seller-panel" aria-labelledby="seller-link-title">
      <h3 id="seller-link-title">Link for the seller</h3>
      <p className="field-hint">
        A read-only page with the figures of the last {period} days, no login needed. Anyone with the link can open it
        until it expires.
      </p>
      <div className="seller-row">
        <div className="field">
          <label htmlFor="seller-link-expiry">Link expires after</label>
          <select id="seller-link-expiry" value={expires} onChange={(e) => setExpires(Number(e.target.value))}>
            {EXPIRY_CHOICES.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </select>
        </div>
        <SlButton variant="primary" loading={busy} onClick={() => void create(expires)}>
          <SlIcon slot="prefix" name="link-45deg" />
          Create link
        </SlButton>
      </div>
      {url ? (
        <div className="seller-new-link" data-testid="seller-link-new">
          <label htmlFor="seller-link-url">New link (shown only now: copy it)</label>
          <div className="seller-row">
            <input id="seller-link-url" ref={urlField} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
            <SlButton onClick={() => void clip.copy(url)} aria-live="polite">
              <SlIcon slot="prefix" name="clipboard" />
              {clip.state === 'copied' ? NOTICES.copied : clip.state === 'error' ? NOTICES.copyFailed : 'Copy link'}
            </SlButton>
          </div>
        </div>
      ) : null}
      {links.length ? (
        <ul className="seller-links" aria-label="Links that work now">
          {links.map((l) => (
            <li key={l.id} data-testid="seller-link">
              <span>
                <code>{l.prefix}…</code> last {l.days} days, expires {humanDate(l.expiresAt)}
              </span>
              <SlButton size="small" variant="danger" outline onClick={() => void revoke(l.id)}>
                Revoke<span className="visually-hidden"> link {l.prefix}</span>
              </SlButton>
            </li>
          ))}
        </ul>
      ) : (
        <p className="field-hint">No link works at the moment.</p>
      )}
    </section>
  );
}

/** `link`: the audience link the page's "Visits from" filter shows (the PDF then holds that link's visits only). */
function PdfPanel({ tourId, period, link }: { tourId: string; period: Period; link?: { id: string; label: string } }) {
  const { run, download } = useSellerPdf(tourId, period, link);

  return (
    <section className="card seller-panel" aria-labelledby="seller-pdf-title">
      <h3 id="seller-pdf-title">PDF report</h3>
      <p className="field-hint">
        The figures of the last {period} days
        {link ? <> of the visits through the link “{link.label}”</> : null} as a PDF to print or attach.
      </p>
      <SlButton
        variant="primary"
        loading={run.status === 'running'}
        disabled={run.status === 'running'}
        onClick={() => void download()}
      >
        <SlIcon slot="prefix" name="file-earmark-pdf" />
        Download PDF
      </SlButton>
      {run.status === 'running' ? (
        <div className="seller-progress" role="status" data-testid="seller-pdf-progress">
          <label htmlFor="seller-pdf-bar">{run.text}</label>
          <progress id="seller-pdf-bar" max={100} value={run.progress}>
            {run.progress} %
          </progress>
        </div>
      ) : null}
      {run.status === 'failed' ? (
        <p className="field-error" role="alert">
          {run.error}
        </p>
      ) : null}
    </section>
  );
}

export function SellerReportSection({
  tourId,
  period,
  link,
}: {
  tourId: string;
  period: Period;
  link?: { id: string; label: string } | undefined;
}) {
  const { report, loadError, reload } = useSellerReport(tourId);
  return (
    <section className="seller-report" aria-labelledby="seller-report-title">
      <h2 id="seller-report-title">Seller report</h2>
      {loadError ? (
        <p className="field-error" role="alert">
          {loadError}
        </p>
      ) : null}
      <div className="seller-panels">
        <LinkPanel tourId={tourId} period={period} links={report?.links ?? []} onChanged={reload} />
        <PdfPanel tourId={tourId} period={period} {...(link ? { link } : {})} />
        {report ? <DigestForm tourId={tourId} digest={report.digest ?? null} onChanged={reload} /> : null}
      </div>
    </section>
  );
}
