/** The seller digest mail: the period's key figures and top rooms in words, the full report as a PDF attachment. */
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@roomwalk/shared';
import type { MailMessage } from '../../mail/mailer.js';
import { humanDate } from '../reports/report-table.js';
import { countOf, formatDuration, formatPercent } from '@roomwalk/shared';
import { roomsByTime, senderLine, type SellerFigures, type SellerReportSubject } from './figures.js';
import { escapeHtml } from '../../core/html.js';

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
  const text = [
    'Hello,',
    '',
    intro,
    '',
    ...lines,
    '',
    roomsLine,
    '',
    closing,
    '',
    `${PRODUCT_NAME} · ${SUPPORT_EMAIL}`,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:bold;padding-bottom:16px">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5"><p>Hello,</p><p>${escapeHtml(intro)}</p>
<p>${lines.map(escapeHtml).join('<br>')}</p><p>${escapeHtml(roomsLine)}</p>
<p style="font-size:13px;color:#5a6272">${escapeHtml(closing)}</p></td></tr>
<tr><td style="font-size:12px;color:#8a91a0;padding-top:16px">${escapeHtml(PRODUCT_NAME)} · <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></td></tr>
</table></td></tr></table></body></html>`;
  return {
    to: o.to,
    subject: title,
    text,
    html,
    links: [],
    attachments: [{ filename: o.fileName, contentType: 'application/pdf', content: o.pdf }],
  };
}
