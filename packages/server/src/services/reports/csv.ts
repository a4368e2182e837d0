/** Reports as CSV (csv-stringify), safe to open in a spreadsheet. */
import { stringify } from 'csv-stringify/sync';
import { utcDay } from '../../core/days.js';
import type { CellValue, ReportTable } from './report-table.js';

/**
 * Cells a spreadsheet would run as a formula (OWASP "CSV injection"): text starting with = + - @, a tab or a carriage
 * return gets a leading single quote, so a tour titled "=HYPERLINK(...)" stays text.
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cell(v: CellValue, kind: string): string | number {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return utcDay(v);
  if (typeof v === 'number') return kind === 'decimal' ? Number(v.toFixed(1)) : v;
  return neutraliseFormula(v);
}

/** Header row, one row per record, then the totals row and any notes; UTF-8 with a BOM so spreadsheets read accents. */
export function reportToCsv(table: ReportTable): Buffer {
  const header = table.columns.map((c) => c.header);
  const body = table.rows.map((r) => table.columns.map((c) => cell(r[c.key] ?? null, c.kind)));
  const totals = table.columns.map((c) => cell(table.totals[c.key] ?? null, c.kind));
  // Notes (what the figures mean, a truncation) go in the first cell of full-width rows, so every row has the same
  // columns.
  const notes = table.notes.map((n) => [neutraliseFormula(n), ...table.columns.slice(1).map(() => '')]);
  const text = stringify([header, ...body, totals, ...notes], {
    bom: true,
    record_delimiter: 'windows',
    cast: { string: neutraliseFormula },
  });
  return Buffer.from(text, 'utf8');
}
