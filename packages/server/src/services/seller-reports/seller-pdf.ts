/**
 * The seller report as PDF (pdfkit, the built-in Helvetica as in services/reports/pdf.ts): the tour and period, four
 * key figures, visits per day as a line, time in each room and where visits ended as sorted bars, each picture with
 * its figures written beside it so the page reads without the pictures; "Page n of m" on every page.
 */
import PDFDocument from 'pdfkit';
import { drawPageFooters, pdfBuffer, toFontText } from '../reports/pdf.js';
import { humanDate } from '../reports/report-table.js';
import { countOf, formatDuration, formatPercent } from '@roomwalk/shared';
import { exitsByCount, roomsByTime, senderLine, type SellerFigures, type SellerReportSubject } from './figures.js';

const MARGIN = 48;
const FOOTER_H = 28;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const INK = '#1f2933';
const MUTED = '#52606d';
const RULE = '#cbd2d9';
const BOX = '#f0f4f8';
const ACCENT = '#1f6feb';
const EXIT = '#b54708';
const BAR_H = 14;
const BAR_GAP = 6;

type Bar = { label: string; value: number; text: string };

export function sellerReportToPdf(
  subject: SellerReportSubject,
  f: SellerFigures,
  generatedAt = new Date(),
): Promise<Buffer> {
  const title = toFontText(subject.tourTitle || 'Untitled tour');
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: `Seller report - ${title}`,
      Author: toFontText(subject.companyName || 'Roomwalk'),
      Creator: 'Roomwalk',
      CreationDate: generatedAt,
    },
  });
  const done = pdfBuffer(doc);
  const page = new PageCursor(doc);
  drawHeading(page, subject, title, generatedAt);
  drawKeyFigures(page, f);
  if (f.visits === 0) drawNoVisits(page);
  else {
    drawVisitsPerDay(page, f);
    drawRoomsAndExits(page, f);
  }
  drawPageFooters(doc, { margin: MARGIN, lift: 8, left: `Roomwalk seller report - ${title}`, leftShare: 0.7 });
  doc.end();
  return done;
}

/** Where the next block goes down the page, and the blocks every section writes (heading, note, bars). */
class PageCursor {
  y = MARGIN;
  readonly contentW: number;
  private readonly bottom: number;

  constructor(readonly doc: PDFKit.PDFDocument) {
    this.contentW = doc.page.width - MARGIN * 2;
    this.bottom = doc.page.height - MARGIN - FOOTER_H;
  }

  /** A new page unless `h` more points fit above the footer. */
  room(h: number): void {
    if (this.y + h > this.bottom) {
      this.doc.addPage();
      this.y = MARGIN;
    }
  }

  heading(text: string): void {
    this.doc.font(BOLD).fontSize(13).fillColor(INK).text(text, MARGIN, this.y);
    this.y = this.doc.y + 8;
  }

  note(text: string): void {
    this.doc.font(FONT).fontSize(9.5).fillColor(MUTED).text(toFontText(text), MARGIN, this.y, { width: this.contentW });
    this.y = this.doc.y + 18;
  }

  /** Sorted bars, each with its label before and its figures written after it; `empty` when there are none. */
  bars(name: string, items: Bar[], colour: string, empty: string): void {
    const { doc, contentW } = this;
    this.room(40 + Math.min(items.length, 3) * (BAR_H + BAR_GAP));
    this.heading(name);
    if (items.length === 0) {
      this.note(empty);
      return;
    }
    const labelW = Math.min(150, contentW * 0.3);
    const valueW = 150;
    const barW = contentW - labelW - valueW - 12;
    const top = Math.max(1, ...items.map((i) => i.value));
    for (const item of items) {
      this.room(BAR_H + BAR_GAP);
      const y = this.y;
      doc
        .font(FONT)
        .fontSize(9.5)
        .fillColor(INK)
        .text(toFontText(item.label), MARGIN, y + 2, { width: labelW - 8, lineBreak: false, ellipsis: true });
      doc.rect(MARGIN + labelW, y, barW, BAR_H).fill(BOX);
      const w = Math.max(2, (item.value / top) * barW);
      doc.rect(MARGIN + labelW, y, w, BAR_H).fill(colour);
      doc
        .font(FONT)
        .fontSize(9)
        .fillColor(MUTED)
        .text(item.text, MARGIN + labelW + barW + 12, y + 2.5, { width: valueW, lineBreak: false });
      this.y += BAR_H + BAR_GAP;
    }
    this.y += 14;
  }
}

/** The title, the tour, who prepared it, the period (its last day inclusive), the link, when it was made. */
function drawHeading(page: PageCursor, subject: SellerReportSubject, title: string, generatedAt: Date): void {
  const { doc } = page;
  doc.font(BOLD).fontSize(20).fillColor(INK).text('Seller report', MARGIN, page.y);
  doc.font(BOLD).fontSize(14).text(title, { width: page.contentW });
  doc.font(FONT).fontSize(10).fillColor(MUTED);
  const by = toFontText(senderLine(subject));
  if (by) doc.text(`Prepared by ${by}`);
  const last = new Date(subject.to.getTime() - 1);
  doc.text(`Period: ${humanDate(subject.from)} - ${humanDate(last)}`);
  if (subject.audienceLinkLabel) doc.text(`Visits through the link: ${toFontText(subject.audienceLinkLabel)}`);
  doc.text(`Generated: ${humanDate(generatedAt)} ${generatedAt.toISOString().slice(11, 16)} UTC`);
  page.y = doc.y + 14;
}

/** Four boxes: visits, unique visitors, average visit, reached the end. */
function drawKeyFigures(page: PageCursor, f: SellerFigures): void {
  const { doc } = page;
  const stats: Array<[string, string]> = [
    ['Visits', String(f.visits)],
    ['Unique visitors', String(f.uniqueVisitors)],
    ['Average visit', formatDuration(f.averageSeconds)],
    ['Reached the end', formatPercent(f.completionRate)],
  ];
  const boxGap = 10;
  const boxW = (page.contentW - boxGap * 3) / 4;
  const y = page.y;
  stats.forEach(([label, value], i) => {
    const x = MARGIN + i * (boxW + boxGap);
    doc.roundedRect(x, y, boxW, 54, 4).fill(BOX);
    doc
      .font(FONT)
      .fontSize(9)
      .fillColor(MUTED)
      .text(label, x + 10, y + 9, { width: boxW - 20, lineBreak: false });
    doc
      .font(BOLD)
      .fontSize(18)
      .fillColor(INK)
      .text(value, x + 10, y + 25, { width: boxW - 20, lineBreak: false });
  });
  page.y += 54 + 22;
}

function drawNoVisits(page: PageCursor): void {
  page.doc
    .font(FONT)
    .fontSize(11)
    .fillColor(INK)
    .text('No visits in this period yet. The figures appear here once buyers open the tour.', MARGIN, page.y, {
      width: page.contentW,
    });
}

/** Visits per day: a line over the period's days on a round-numbered axis, then the busiest day in words. */
function drawVisitsPerDay(page: PageCursor, f: SellerFigures): void {
  const { doc } = page;
  page.room(190);
  page.heading('Visits per day');
  const y = page.y;
  const chartH = 120;
  const axisW = 28;
  const plotX = MARGIN + axisW;
  const plotW = page.contentW - axisW;
  const top = niceTop(Math.max(1, ...f.daily.map((d) => d.visits)));
  doc.font(FONT).fontSize(8).fillColor(MUTED);
  for (const v of Number.isInteger(top / 2) ? [0, top / 2, top] : [0, top]) {
    const gy = y + chartH - (v / top) * chartH;
    doc
      .moveTo(plotX, gy)
      .lineTo(plotX + plotW, gy)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.text(String(Math.round(v)), MARGIN, gy - 4, { width: axisW - 6, align: 'right', lineBreak: false });
  }
  const n = f.daily.length;
  const px = (i: number) => plotX + (n <= 1 ? plotW / 2 : (i / (n - 1)) * plotW);
  const py = (v: number) => y + chartH - (v / top) * chartH;
  if (n > 0) {
    doc.moveTo(px(0), py(f.daily[0]!.visits));
    f.daily.forEach((d, i) => {
      if (i > 0) doc.lineTo(px(i), py(d.visits));
    });
    doc.lineWidth(2).strokeColor(ACCENT).stroke();
    f.daily.forEach((d, i) => {
      if (d.visits > 0) doc.circle(px(i), py(d.visits), 2.2).fill(ACCENT);
    });
    doc.font(FONT).fontSize(8).fillColor(MUTED);
    doc.text(shortDate(f.daily[0]!.date), plotX - 20, y + chartH + 5, { width: 80, lineBreak: false });
    if (n > 1)
      doc.text(shortDate(f.daily[n - 1]!.date), plotX + plotW - 60, y + chartH + 5, {
        width: 60,
        align: 'right',
        lineBreak: false,
      });
  }
  page.y += chartH + 20;
  const busiest = [...f.daily].sort((a, b) => b.visits - a.visits)[0];
  page.note(
    busiest && busiest.visits > 0
      ? `Busiest day: ${shortDate(busiest.date)} with ${countOf(busiest.visits, 'visit')}.`
      : 'No visits on any single day yet.',
  );
}

/** Time in each room, longest first (the total time and how many visits saw it), then where visits ended. */
function drawRoomsAndExits(page: PageCursor, f: SellerFigures): void {
  page.bars(
    'Time in each room',
    roomsByTime(f).map((r) => ({
      label: r.name,
      value: r.seconds,
      text: `${formatDuration(r.seconds)} in all, ${countOf(r.visits, 'visit')}`,
    })),
    ACCENT,
    'No rooms were recorded: name the rooms with markers to see where buyers spend their time.',
  );
  page.bars(
    'Where visits ended',
    exitsByCount(f).map((e) => ({
      label: e.name,
      value: e.visits,
      text: `${countOf(e.visits, 'visit')} (${formatPercent(f.visits ? e.visits / f.visits : 0)})`,
    })),
    EXIT,
    'No visit endings were recorded.',
  );
}

/** The smallest of 1, 2, 5 × 10^k at or above n (so the axis reads in round numbers). */
function niceTop(n: number): number {
  const p = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * p >= n) return Math.max(2, m * p);
  return n;
}

/** '2026-11-05' → '5 Nov 2026'. */
const shortDate = (iso: string) => humanDate(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
