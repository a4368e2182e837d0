/**
 * Reports as PDF (pdfkit, its built-in Helvetica: nothing to download or ship): a heading with title, company and
 * period, a table whose header repeats on every page, a totals row, and "Page n of m" on every page.
 */
import PDFDocument from 'pdfkit';
import { humanDate, type CellValue, type ReportColumn, type ReportTable } from './report-table.js';

const MARGIN = 40;
const ROW_H = 18;
const HEADER_H = 22;
const FOOTER_H = 24;
const CELL_PAD = 4;
const FONT = 'Helvetica';
const FONT_BOLD = 'Helvetica-Bold';
const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#cbd2d9';
const STRIPE = '#f5f7fa';
const HEAD_FILL = '#e4e7eb';

// Helvetica is a standard PDF font with the Windows-1252 character set; anything outside it is drawn as '?'.
const CP1252_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const fitsFont = (ch: string) => {
  const c = ch.codePointAt(0)!;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || CP1252_EXTRAS.has(ch);
};
/** Text the standard font can draw: accents kept where the font has them, else their base letter, else '?'. */
export function toFontText(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) {
    if (fitsFont(ch)) out += ch;
    else if (/\s/.test(ch)) out += ' ';
    else {
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += base && [...base].every(fitsFont) ? base : '?';
    }
  }
  return out;
}

function formatCell(v: CellValue, c: ReportColumn): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return humanDate(v);
  if (typeof v === 'number') return c.kind === 'decimal' ? v.toFixed(1) : v.toLocaleString('en-US').replace(/,/g, ' ');
  return toFontText(v);
}

/** Renders the table to a PDF and resolves to its bytes. */
export function reportToPdf(table: ReportTable): Promise<Buffer> {
  const landscape = table.columns.length > 6;
  const doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `${table.title} - ${toFontText(table.companyName)}`, Author: 'Roomwalk', Creator: 'Roomwalk', CreationDate: table.generatedAt },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const pageW = doc.page.width;
  const pageH = doc.page.height;
  const tableW = pageW - MARGIN * 2;
  const totalWeight = table.columns.reduce((s, c) => s + c.width, 0);
  const widths = table.columns.map((c) => (c.width / totalWeight) * tableW);
  const xs = widths.reduce<number[]>((acc, _w, i) => [...acc, i === 0 ? MARGIN : acc[i - 1]! + widths[i - 1]!], []);
  const bottomLimit = pageH - MARGIN - FOOTER_H;
  const isNumeric = (c: ReportColumn) => c.kind === 'int' || c.kind === 'decimal';

  /** Cuts text to the column width with an ellipsis (pdfkit measures with the current font). */
  function fit(text: string, width: number): string {
    if (doc.widthOfString(text) <= width) return text;
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.widthOfString(`${text.slice(0, mid)}...`) <= width) lo = mid;
      else hi = mid - 1;
    }
    return `${text.slice(0, lo).trimEnd()}...`;
  }

  function drawRow(cells: string[], y: number, opts: { bold?: boolean; fill?: string }) {
    if (opts.fill) doc.rect(MARGIN, y, tableW, ROW_H).fill(opts.fill);
    doc.font(opts.bold ? FONT_BOLD : FONT).fontSize(8.5).fillColor(INK);
    cells.forEach((text, i) => {
      const w = widths[i]! - CELL_PAD * 2;
      doc.text(fit(text, w), xs[i]! + CELL_PAD, y + (ROW_H - 8.5) / 2, { width: w, align: isNumeric(table.columns[i]!) ? 'right' : 'left', lineBreak: false });
    });
  }

  // Column headings may wrap onto up to three lines; the heading row is as tall as its tallest heading.
  doc.font(FONT_BOLD).fontSize(8.5);
  const headerH = Math.max(
    HEADER_H,
    ...table.columns.map((c, i) => Math.min(doc.heightOfString(c.header, { width: widths[i]! - CELL_PAD * 2 }), 3 * 11) + 10),
  );

  function drawTableHeader(y: number): number {
    doc.rect(MARGIN, y, tableW, headerH).fill(HEAD_FILL);
    doc.font(FONT_BOLD).fontSize(8.5).fillColor(INK);
    table.columns.forEach((c, i) => {
      const w = widths[i]! - CELL_PAD * 2;
      doc.text(c.header, xs[i]! + CELL_PAD, y + 5, { width: w, height: headerH - 6, align: isNumeric(c) ? 'right' : 'left', ellipsis: true });
    });
    return y + headerH;
  }

  // Heading.
  doc.font(FONT_BOLD).fontSize(18).fillColor(INK).text(table.title, MARGIN, MARGIN);
  doc.font(FONT_BOLD).fontSize(12).text(toFontText(table.companyName));
  doc.font(FONT).fontSize(9.5).fillColor(MUTED);
  doc.text(`Period: ${humanDate(table.periodStart)} - ${humanDate(table.periodEnd)} (current billing month)`);
  doc.text(`Generated: ${humanDate(table.generatedAt)} ${table.generatedAt.toISOString().slice(11, 16)} UTC`);
  for (const n of table.notes) doc.text(toFontText(n));
  let y = doc.y + 10;

  y = drawTableHeader(y);
  table.rows.forEach((r, i) => {
    if (y + ROW_H > bottomLimit) {
      doc.addPage();
      y = drawTableHeader(MARGIN);
    }
    drawRow(table.columns.map((c) => formatCell(r[c.key] ?? null, c)), y, { fill: i % 2 === 1 ? STRIPE : undefined });
    y += ROW_H;
  });
  if (table.rows.length === 0) {
    doc.font(FONT).fontSize(9).fillColor(MUTED).text('No data yet.', MARGIN + 4, y + 5);
    y += ROW_H;
  }
  if (y + ROW_H + 2 > bottomLimit) {
    doc.addPage();
    y = drawTableHeader(MARGIN);
  }
  doc.moveTo(MARGIN, y).lineTo(MARGIN + tableW, y).lineWidth(1).strokeColor(RULE).stroke();
  drawRow(table.columns.map((c) => formatCell(table.totals[c.key] ?? null, c)), y + 2, { bold: true });

  // Footer with page numbers, written once every page exists.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing below the margin must not open a new page
    const fy = pageH - MARGIN - 10;
    doc.moveTo(MARGIN, fy - 6).lineTo(pageW - MARGIN, fy - 6).lineWidth(0.5).strokeColor(RULE).stroke();
    doc.font(FONT).fontSize(8).fillColor(MUTED);
    doc.text(`Roomwalk - ${table.title} - ${toFontText(table.companyName)}`, MARGIN, fy, { width: tableW / 2, lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, MARGIN + tableW / 2, fy, { width: tableW / 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
