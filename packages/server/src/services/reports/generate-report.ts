/**
 * generateTourByCompanyReport / generateSummaryByUserReport: build the table, write it as CSV or PDF, answer base64.
 */
import type { Services } from '../services.js';
import { reportToCsv } from './csv.js';
import { reportToPdf } from './pdf.js';
import { toursByCompany, userSummary } from './report-data.js';
import { utcDay } from '../../core/days.js';
import { slug } from './report-table.js';
import { serverNow } from '../../core/clock.js';

export const REPORT_KINDS = { toursByCompany: 'tours-by-company', userSummary: 'user-summary' } as const;
export type ReportKind = (typeof REPORT_KINDS)[keyof typeof REPORT_KINDS];
export type ExportType = 'csv' | 'pdf';

export interface ReportFile {
  fileContent: string;
  fileName: string;
  mimeType: string;
}

const MIME_TYPES: Record<ExportType, string> = { csv: 'text/csv', pdf: 'application/pdf' };

export async function generateReport(
  services: Services,
  opts: { kind: ReportKind; companyId: string; exportType: ExportType; analytics: boolean; now?: Date },
): Promise<ReportFile> {
  const now = opts.now ?? serverNow(services);
  const build = opts.kind === REPORT_KINDS.toursByCompany ? toursByCompany : userSummary;
  const table = await build(services.db, { companyId: opts.companyId, analytics: opts.analytics, now });
  const bytes = opts.exportType === 'pdf' ? await reportToPdf(table) : reportToCsv(table);
  return {
    fileContent: bytes.toString('base64'),
    fileName: `${opts.kind}-${slug(table.companyName)}-${utcDay(now)}.${opts.exportType}`,
    mimeType: MIME_TYPES[opts.exportType],
  };
}
