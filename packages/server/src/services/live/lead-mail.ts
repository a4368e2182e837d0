/** The mail that tells the agent a visitor is waiting, with the link that opens the tour as host. */
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@roomwalk/shared';
import type { MailMessage } from '../../mail/mailer.js';
import { formatRoomPath, type VisitRoom } from '../reports/visit-rooms.js';
import { escapeHtml } from '../../core/html.js';

export interface LeadMailInput {
  to: string;
  agentName: string;
  tourTitle: string;
  lead: { name: string; surname: string | null; email: string; contactNumber: string | null };
  /** The host link for a live viewing lead; null for a contact lead. */
  liveLink: string | null;
  expiresAt: Date | null;
  /** The rooms the visitor saw before leaving their details, in order; empty when unknown. */
  roomPath?: readonly VisitRoom[];
}

export function leadMail(i: LeadMailInput): MailMessage {
  const who = [i.lead.name, i.lead.surname].filter(Boolean).join(' ');
  const live = i.liveLink !== null;
  const subject = live ? `${who} is waiting for you on "${i.tourTitle}"` : `New lead on "${i.tourTitle}": ${who}`;
  const intro = live
    ? `${who} is viewing your tour "${i.tourTitle}" and asked you to join a live viewing.`
    : `${who} left their details on your tour "${i.tourTitle}".`;
  const rooms = i.roomPath?.length ? formatRoomPath(i.roomPath) : '';
  const details = [
    `Name: ${who}`,
    `Email: ${i.lead.email}`,
    ...(i.lead.contactNumber ? [`Contact number: ${i.lead.contactNumber}`] : []),
    ...(rooms ? [`Rooms viewed: ${rooms}`] : []),
  ];
  const until = i.expiresAt ? `The live session stays open until ${i.expiresAt.toUTCString()}.` : '';
  const text = [
    `Hi ${i.agentName},`,
    '',
    intro,
    '',
    ...details,
    '',
    ...(live ? [`Join the live viewing: ${i.liveLink}`, '', until, ''] : []),
    `${PRODUCT_NAME} · ${SUPPORT_EMAIL}`,
  ].join('\n');
  const link = i.liveLink ? escapeHtml(i.liveLink) : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:bold;padding-bottom:16px">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5"><p>Hi ${escapeHtml(i.agentName)},</p><p>${escapeHtml(intro)}</p>
<p>${details.map(escapeHtml).join('<br>')}</p>
${
  live
    ? `<p style="padding:16px 0"><a href="${link}" style="background:#2f5bea;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">Join live viewing</a></p>
<p style="font-size:13px;color:#5a6272">If the button does not work, open this link: <a href="${link}">${link}</a></p>
<p style="font-size:13px;color:#5a6272">${escapeHtml(until)}</p>`
    : ''
}</td></tr>
<tr><td style="font-size:12px;color:#8a91a0;padding-top:16px">${escapeHtml(PRODUCT_NAME)} · <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to: i.to, subject, text, html, links: i.liveLink ? [i.liveLink] : [] };
}
