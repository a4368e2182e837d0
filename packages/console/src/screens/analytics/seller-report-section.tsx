/**
 * The seller report: a read-only link to send the seller (shown once, expiring, revocable), the scheduled
 * e-mail digest, and the PDF made in the job queue with its progress, downloaded when ready.
 */
import { useEffect, useRef, useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import SlButton from '@shoelace-style/shoelace/dist/react/button/index.js';
import SlIcon from '@shoelace-style/shoelace/dist/react/icon/index.js';
import { NOTICES } from '@roomwalk/shared';
import { describeFailure } from '../../graphql/errors.js';
import { useClipboard } from '../../state/use-clipboard.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { downloadBase64 } from '../reports/download-file.js';
import {
  SellerLinkCreateMutation,
  SellerLinkRevokeMutation,
  SellerPdfCreateMutation,
  SellerReportQuery,
  SellerRunQuery,
} from './analytics-operations.js';
import { humanDate, type Period } from './analytics-rules.js';
import { DigestForm } from './digest-form.js';

const EXPIRY_CHOICES = [7, 30, 90] as const;
const POLL_MS = 600;

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
  const [, create] = useMutation(SellerLinkCreateMutation);
  const [, revoke] = useMutation(SellerLinkRevokeMutation);
  const [expires, setExpires] = useState<number>(30);
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const clip = useClipboard();
  const notify = useSnackbar();
  const urlField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (url) urlField.current?.focus();
  }, [url]);

  const onCreate = async () => {
    setBusy(true);
    const r = await create({ input: { tourId, days: period, expiresInDays: expires } });
    setBusy(false);
    if (r.error || !r.data) return notify('error', describeFailure(r.error));
    setUrl(r.data.sellerReportLinkCreate.url);
    onChanged();
  };
  const onRevoke = async (id: string) => {
    const r = await revoke({ id });
    if (r.error) return notify('error', describeFailure(r.error));
    notify('success', 'The link no longer opens the report.');
    onChanged();
  };

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
        <SlButton variant="primary" loading={busy} onClick={() => void onCreate()}>
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
              <SlButton size="small" variant="danger" outline onClick={() => void onRevoke(l.id)}>
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

type RunState =
  | { status: 'idle' }
  | { status: 'running'; progress: number; text: string }
  | { status: 'failed'; error: string };

/** `link`: the audience link the page's "Visits from" filter shows (the PDF then holds that link's visits only). */
function PdfPanel({ tourId, period, link }: { tourId: string; period: Period; link?: { id: string; label: string } }) {
  const client = useClient();
  const [, start] = useMutation(SellerPdfCreateMutation);
  const [run, setRun] = useState<RunState>({ status: 'idle' });
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );

  const onDownload = async () => {
    setRun({ status: 'running', progress: 0, text: 'Waiting in the queue' });
    const r = await start({ input: { tourId, days: period, ...(link ? { audienceLinkId: link.id } : {}) } });
    const id = r.data?.sellerReportPdfCreate.id;
    if (!id) return setRun({ status: 'failed', error: describeFailure(r.error) });
    // The job writes its progress to the run; read it until it is done.
    for (;;) {
      await new Promise((res) => setTimeout(res, POLL_MS));
      if (!alive.current) return;
      const q = await client.query(SellerRunQuery, { id }, { requestPolicy: 'network-only' }).toPromise();
      const s = q.data?.sellerReportRun;
      if (!s) return setRun({ status: 'failed', error: describeFailure(q.error) });
      if (s.status === 'DONE' && s.fileContent) {
        downloadBase64(s.fileContent, s.fileName ?? 'seller-report.pdf', s.mimeType);
        return setRun({ status: 'idle' });
      }
      if (s.status === 'FAILED')
        return setRun({ status: 'failed', error: s.error ?? 'The report could not be made. Try again in a moment.' });
      setRun({ status: 'running', progress: s.progress, text: s.progressText });
    }
  };

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
        onClick={() => void onDownload()}
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
  const [{ data, error }, refetch] = useQuery({
    query: SellerReportQuery,
    variables: { tourId },
    requestPolicy: 'cache-and-network',
  });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section className="seller-report" aria-labelledby="seller-report-title">
      <h2 id="seller-report-title">Seller report</h2>
      {error && !data ? (
        <p className="field-error" role="alert">
          {describeFailure(error)}
        </p>
      ) : null}
      <div className="seller-panels">
        <LinkPanel tourId={tourId} period={period} links={data?.sellerReport.links ?? []} onChanged={reload} />
        <PdfPanel tourId={tourId} period={period} {...(link ? { link } : {})} />
        {data ? <DigestForm tourId={tourId} digest={data.sellerReport.digest ?? null} onChanged={reload} /> : null}
      </div>
    </section>
  );
}
