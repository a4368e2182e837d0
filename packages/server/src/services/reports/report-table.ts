/** The one shape every report is built into before it is written as CSV or PDF. */

export type CellValue = string | number | Date | null;

export interface ReportColumn {
  key: string;
  header: string;
  kind: 'text' | 'int' | 'decimal' | 'date';
  /** Relative width hint (the PDF now lays its columns out from their content, see columnWidths in pdf.ts). */
  width: number;
}

export interface ReportTable {
  /** 'Tours By Company' or 'User Summary'. */
  title: string;
  companyName: string;
  /** Start and end of the period the monthly figures cover. */
  periodStart: Date;
  periodEnd: Date;
  generatedAt: Date;
  columns: ReportColumn[];
  rows: Array<Record<string, CellValue>>;
  /** Totals over every row (also those left out by the row cap); keys of columns, first column holds the label. */
  totals: Record<string, CellValue>;
  /** Lines printed under the heading (what the figures mean, truncation). */
  notes: string[];
}

/** Rows per report at most: the resolver builds the file in the request, so its time and size stay bounded. */
export const MAX_REPORT_ROWS = 2000;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** 5 Mar 2026 (UTC), for people. */
export const humanDate = (d: Date): string => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
/** 2026-03-05 (UTC), for spreadsheets. */

/** file-name-safe slug of a company name. */
export function slug(s: string): string {
  const out = s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return out || 'company';
}
