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
const ROW_PAD = 4.5;
const BODY_SIZE = 8.5;
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

/**
 * Column widths from the content: every column gets at least its longest word (numbers and dates
 * their whole text), so nothing is cut; when all text fits on one line each column gets its full width and the spare
 * width is shared out; otherwise the width left over after the minimums goes to the columns whose text is longest, in
 * proportion to what they lack, and their text wraps.
 */
function columnWidths(doc: PDFKit.PDFDocument, columns: ReportColumn[], rows: string[][], tableW: number): number[] {
  const pad = CELL_PAD * 2;
  const mins: number[] = [];
  const wants: number[] = [];
  columns.forEach((c, i) => {
    const numeric = c.kind === 'int' || c.kind === 'decimal' || c.kind === 'date';
    let min = 0;
    let want = 0;
    doc.font(FONT_BOLD).fontSize(BODY_SIZE);
    for (const word of c.header.split(/\s+/)) min = Math.max(min, doc.widthOfString(word));
    want = Math.max(min, doc.widthOfString(c.header) * 0.5);
    doc.font(FONT).fontSize(BODY_SIZE);
    for (const row of rows) {
      const text = row[i] ?? '';
      if (!text) continue;
      const full = doc.widthOfString(text);
      want = Math.max(want, full);
      if (numeric) min = Math.max(min, full);
      else for (const word of text.split(/\s+/)) min = Math.max(min, Math.min(doc.widthOfString(word), tableW / 4));
    }
    mins.push(min + pad + 1);
    wants.push(Math.max(want, min) + pad + 1);
  });
  const sumWant = wants.reduce((a, b) => a + b, 0);
  if (sumWant <= tableW) return wants.map((w) => w + ((tableW - sumWant) * w) / sumWant);
  const sumMin = mins.reduce((a, b) => a + b, 0);
  if (sumMin >= tableW) return mins.map((m) => (m * tableW) / sumMin);
  const lack = wants.map((w, i) => w - mins[i]!);
  const sumLack = lack.reduce((a, b) => a + b, 0);
  return mins.map((m, i) => m + ((tableW - sumMin) * lack[i]!) / sumLack);
}

/** Renders the table to a PDF and resolves to its bytes. */
export function reportToPdf(table: ReportTable): Promise<Buffer> {
  const landscape = table.columns.length > 6;
  const doc = new PDFDocument({
    size: 'A4',
    layout: landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `${table.title} - ${toFontText(table.companyName)}`,
      Author: 'Roomwalk',
      Creator: 'Roomwalk',
      CreationDate: table.generatedAt,
    },
  });
  const done = pdfBuffer(doc);

  const pageW = doc.page.width;
  const pageH = doc.page.height;
  const tableW = pageW - MARGIN * 2;
  const isNumeric = (c: ReportColumn) => c.kind === 'int' || c.kind === 'decimal';
  const bottomLimit = pageH - MARGIN - FOOTER_H;
  const body = table.rows.map((r) => table.columns.map((c) => formatCell(r[c.key] ?? null, c)));
  const totals = table.columns.map((c) => formatCell(table.totals[c.key] ?? null, c));
  const widths = columnWidths(doc, table.columns, [...body, totals], tableW);
  const xs = widths.reduce<number[]>((acc, _w, i) => [...acc, i === 0 ? MARGIN : acc[i - 1]! + widths[i - 1]!], []);
  const textOpts = (i: number) => ({
    width: widths[i]! - CELL_PAD * 2,
    align: isNumeric(table.columns[i]!) ? ('right' as const) : ('left' as const),
  });

  /** A row is as tall as its tallest cell: long text wraps inside its column, never into the next row. */
  function rowHeight(cells: string[], bold = false): number {
    doc.font(bold ? FONT_BOLD : FONT).fontSize(BODY_SIZE);
    return Math.max(ROW_H, ...cells.map((text, i) => (text ? doc.heightOfString(text, textOpts(i)) : 0) + ROW_PAD * 2));
  }

  function drawRow(cells: string[], y: number, h: number, opts: { bold?: boolean; fill?: string }) {
    if (opts.fill) doc.rect(MARGIN, y, tableW, h).fill(opts.fill);
    doc
      .font(opts.bold ? FONT_BOLD : FONT)
      .fontSize(BODY_SIZE)
      .fillColor(INK);
    cells.forEach((text, i) => {
      if (text) doc.text(text, xs[i]! + CELL_PAD, y + ROW_PAD, textOpts(i));
    });
  }

  // Column headings wrap at word boundaries; the heading row is as tall as its tallest heading.
  doc.font(FONT_BOLD).fontSize(BODY_SIZE);
  const headerH = Math.max(HEADER_H, ...table.columns.map((c, i) => doc.heightOfString(c.header, textOpts(i)) + 10));

  function drawTableHeader(y: number): number {
    doc.rect(MARGIN, y, tableW, headerH).fill(HEAD_FILL);
    doc.font(FONT_BOLD).fontSize(BODY_SIZE).fillColor(INK);
    table.columns.forEach((c, i) => {
      doc.text(c.header, xs[i]! + CELL_PAD, y + 5, textOpts(i));
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
  body.forEach((cells, i) => {
    const h = rowHeight(cells);
    if (y + h > bottomLimit) {
      doc.addPage();
      y = drawTableHeader(MARGIN);
    }
    drawRow(cells, y, h, { fill: i % 2 === 1 ? STRIPE : undefined });
    y += h;
  });
  if (table.rows.length === 0) {
    doc
      .font(FONT)
      .fontSize(9)
      .fillColor(MUTED)
      .text('No data yet.', MARGIN + 4, y + 5);
    y += ROW_H;
  }
  const totalsH = rowHeight(totals, true);
  if (y + totalsH + 2 > bottomLimit) {
    doc.addPage();
    y = drawTableHeader(MARGIN);
  }
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + tableW, y)
    .lineWidth(1)
    .strokeColor(RULE)
    .stroke();
  drawRow(totals, y + 2, totalsH, { bold: true });

  drawPageFooters(doc, {
    margin: MARGIN,
    lift: 10,
    left: `Roomwalk - ${table.title} - ${toFontText(table.companyName)}`,
    leftShare: 0.5,
  });
  doc.end();
  return done;
}

/**
 * The foot of every page under a thin rule: `left` (cut with an ellipsis) and "Page n of m" on the right, written once
 * every page exists (the document buffers its pages). `lift` is how far above the bottom margin it sits.
 */
/** The document's bytes once it ends (the caller calls `doc.end()`). */
export function pdfBuffer(doc: PDFKit.PDFDocument): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

export function drawPageFooters(
  doc: PDFKit.PDFDocument,
  o: { margin: number; lift: number; left: string; leftShare: number },
): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const contentW = doc.page.width - o.margin * 2;
    const keep = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing below the margin must not open a new page
    const fy = doc.page.height - o.margin - o.lift;
    doc
      .moveTo(o.margin, fy - 6)
      .lineTo(doc.page.width - o.margin, fy - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font(FONT).fontSize(8).fillColor(MUTED);
    doc.text(o.left, o.margin, fy, { width: contentW * o.leftShare, lineBreak: false, ellipsis: true });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, o.margin + contentW * o.leftShare, fy, {
      width: contentW * (1 - o.leftShare),
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = keep;
  }
}
