/**
 * The seller report's data: its links and digest (read again after each change), a link made (its URL shown once) or
 * revoked, the e-mail digest saved or stopped, and the PDF asked of the job queue, its run read until it is done.
 */
import { useEffect, useRef, useState } from 'react';
import { useClient, useMutation, useQuery } from 'urql';
import { describeFailure } from '../../graphql/errors.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { downloadBase64 } from '../reports/download-file.js';
import {
  SellerDigestDeleteMutation,
  SellerDigestSaveMutation,
  SellerLinkCreateMutation,
  SellerLinkRevokeMutation,
  SellerPdfCreateMutation,
  SellerReportQuery,
  SellerRunQuery,
} from './analytics-operations.js';
import { humanDate, type Period } from './analytics-rules.js';

const POLL_MS = 600;

/** The report's links and digest for one tour. */
export function useSellerReport(tourId: string) {
  const [{ data, error }, refetch] = useQuery({
    query: SellerReportQuery,
    variables: { tourId },
    requestPolicy: 'cache-and-network',
  });
  return {
    report: data?.sellerReport ?? null,
    loadError: error && !data ? describeFailure(error) : null,
    reload: () => refetch({ requestPolicy: 'network-only' }),
  };
}

/** "Create link" (the new URL, shown only now) and "Revoke". */
export function useSellerLinks(tourId: string, period: Period, onChanged: () => void) {
  const [, create] = useMutation(SellerLinkCreateMutation);
  const [, revoke] = useMutation(SellerLinkRevokeMutation);
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const notify = useSnackbar();
  return {
    url,
    busy,
    create: async (expiresInDays: number) => {
      setBusy(true);
      const r = await create({ input: { tourId, days: period, expiresInDays } });
      setBusy(false);
      if (r.error || !r.data) return notify('error', describeFailure(r.error));
      setUrl(r.data.sellerReportLinkCreate.url);
      onChanged();
    },
    revoke: async (id: string) => {
      const r = await revoke({ id });
      if (r.error) return notify('error', describeFailure(r.error));
      notify('success', 'The link no longer opens the report.');
      onChanged();
    },
  };
}

type RunState =
  | { status: 'idle' }
  | { status: 'running'; progress: number; text: string }
  | { status: 'failed'; error: string };

/** "Download PDF": the job's progress while it runs, the file downloaded when ready, or why it failed. */
export function useSellerPdf(tourId: string, period: Period, link?: { id: string }) {
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

  const download = async () => {
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
  return { run, download };
}

interface DigestInput {
  frequency: 'WEEKLY' | 'MONTHLY';
  day: number;
  recipients: string[];
  timeZone: string;
}

/** The e-mail digest saved ("Saved. Next report: …") or stopped. */
export function useSellerDigest(tourId: string, onChanged: () => void) {
  const [, save] = useMutation(SellerDigestSaveMutation);
  const [, remove] = useMutation(SellerDigestDeleteMutation);
  const notify = useSnackbar();
  const [busy, setBusy] = useState(false);
  return {
    busy,
    /** Saves; answers the failure's words, or null once saved. */
    save: async (input: DigestInput): Promise<string | null> => {
      setBusy(true);
      const r = await save({ input: { tourId, ...input } });
      setBusy(false);
      if (r.error || !r.data) return describeFailure(r.error);
      notify('success', `Saved. Next report: ${humanDate(r.data.sellerReportDigestSave.nextSendAt)}.`);
      onChanged();
      return null;
    },
    stop: async () => {
      const r = await remove({ tourId });
      if (r.error) return notify('error', describeFailure(r.error));
      notify('success', 'The digest is stopped.');
      onChanged();
    },
  };
}
