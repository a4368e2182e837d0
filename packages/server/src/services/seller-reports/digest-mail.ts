/** The seller digest mail: the period's key figures and top rooms in words, the full report as a PDF attachment. */
import type { MailMessage } from '../../mail/mailer.js';
import { renderMail } from '../../mail/templates.js';
import { humanDate } from '../reports/report-table.js';
import { countOf, formatDuration, formatPercent } from '@roomwalk/shared';
import { roomsByTime, senderLine, type SellerFigures, type SellerReportSubject } from './figures.js';

export function digestMail(o: {
  to: string;
  subject: SellerReportSubject;
  figures: SellerFigures;
  pdf: Buffer;
  fileName: string;
}): MailMessage {
  const { subject: s, figures: f } = o;
  const period = `${humanDate(s.from)} - ${humanDate(new Date(s.to.getTime() - 1))}`;
  const title = `Seller report for "${s.tourTitle}": ${countOf(f.visits, 'visit')}`;
  const lines = [
    `Visits: ${f.visits}`,
    `Unique visitors: ${f.uniqueVisitors}`,
    `Average visit: ${formatDuration(f.averageSeconds)}`,
    `Reached the end: ${formatPercent(f.completionRate)}`,
  ];
  const top = roomsByTime(f)
    .slice(0, 3)
    .map((r) => `${r.name} ${formatDuration(r.seconds)}`);
  const intro = `Here is how buyers viewed the tour "${s.tourTitle}" from ${period}.`;
  const roomsLine = top.length
    ? `Where buyers spent their time: ${top.join(', ')}.`
    : 'No rooms were recorded in this period.';
  const sender = senderLine(s);
  const closing = `The full report is attached as a PDF.${sender ? ` Sent for ${sender}.` : ''}`;
  return renderMail({
    to: o.to,
    subject: title,
    greeting: 'Hello,',
    paragraphs: [intro, lines, roomsLine],
    footnote: closing,
    attachments: [{ filename: o.fileName, contentType: 'application/pdf', content: o.pdf }],
  });
}
