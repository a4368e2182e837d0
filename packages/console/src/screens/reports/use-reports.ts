/** The Reports page's data: the company, who may download, the chosen report and format, and the download itself. */
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { DEFAULT_REPORT_FORMAT } from '@roomwalk/shared';
import { describeFailure, isNotAvailableYet } from '../../graphql/errors.js';
import { useSession } from '../../session/session-context.js';
import { useSnackbar } from '../../ui/snackbar.js';
import { downloadBase64 } from './download-file.js';
import { ReportsQuery, SummaryByUserReportMutation, TourByCompanyReportMutation } from './report-operations.js';
import { REPORTS, mayDownloadReports, type ReportFormat, type ReportId } from './report-rules.js';

export function useReports() {
  const [{ data, error }, refetch] = useQuery({ query: ReportsQuery, requestPolicy: 'cache-and-network' });
  const [, byCompany] = useMutation(TourByCompanyReportMutation);
  const [, byUser] = useMutation(SummaryByUserReportMutation);
  const notify = useSnackbar();
  const { roles } = useSession();
  const [chosen, setChosen] = useState<ReportId | null>(null);
  const [format, setFormat] = useState<ReportFormat>(DEFAULT_REPORT_FORMAT);
  const [busy, setBusy] = useState(false);
  const companyId = data?.me.user.company?.id ?? null;

  const close = () => {
    setChosen(null);
    setFormat(DEFAULT_REPORT_FORMAT);
  };

  const download = async () => {
    if (!companyId || !chosen) return;
    setBusy(true);
    const input = { companyId, exportType: format };
    try {
      const r =
        chosen === 'tourByCompany'
          ? await byCompany({ input })
          : chosen === 'summaryByUser'
            ? await byUser({ input })
            : null;
      const file =
        r?.data &&
        ('generateTourByCompanyReport' in r.data
          ? r.data.generateTourByCompanyReport
          : r.data.generateSummaryByUserReport);
      if (!r || r.error || !file) {
        // Report failures are logged and the dialog closes; a feature not landed yet is said plainly.
        console.error('Report failed', r?.error ?? 'unknown report');
        if (isNotAvailableYet(r?.error)) notify('warning', describeFailure(r?.error));
      } else {
        downloadBase64(file.fileContent, file.fileName, file.mimeType);
      }
    } catch (err) {
      console.error('Report failed', err);
    } finally {
      setBusy(false);
      close();
    }
  };

  return {
    loaded: !!data,
    error: data ? undefined : error,
    retry: () => refetch({ requestPolicy: 'network-only' }),
    canDownload: mayDownloadReports(roles, data?.me.user.isAdmin),
    companyId,
    report: REPORTS.find((r) => r.id === chosen) ?? null,
    choose: setChosen,
    format,
    setFormat,
    busy,
    close,
    download,
  };
}
