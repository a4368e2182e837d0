/** The mail that tells the agent a visitor waits at a tour's lead gate, with the one-time link that approves them. */
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@roomwalk/shared';
import { escapeHtml } from '../../core/html.js';
import type { MailMessage } from '../../mail/mailer.js';
import { formatRoomPath, type VisitRoom } from '../reports/visit-rooms.js';

export interface GateMailInput {
  to: string;
  agentName: string;
  tourTitle: string;
  lead: { name: string; surname: string | null; email: string; contactNumber: string | null };
  roomPath: readonly VisitRoom[];
  /** The room the visitor stopped in at the gate, when known. */
  stoppedAt: string | null;
  approveLink: string;
  expiresAt: Date;
}

export function gateMail(i: GateMailInput): MailMessage {
  const who = [i.lead.name, i.lead.surname].filter(Boolean).join(' ');
  const subject = `${who} is waiting for your approval on "${i.tourTitle}"`;
  const intro = `${who} left their details on your tour "${i.tourTitle}" and is waiting for you to let them see the rest of it.`;
  const rooms = i.roomPath.length ? formatRoomPath(i.roomPath) : '';
  const details = [
    `Name: ${who}`,
    `Email: ${i.lead.email}`,
    ...(i.lead.contactNumber ? [`Contact number: ${i.lead.contactNumber}`] : []),
    ...(rooms ? [`Rooms viewed: ${rooms}`] : []),
    ...(i.stoppedAt ? [`Stopped at: ${i.stoppedAt}`] : []),
  ];
  const note = `The link works once, until ${i.expiresAt.toUTCString()}. After that, approve them from Leads in ${PRODUCT_NAME}.`;
  const text = [
    `Hi ${i.agentName},`,
    '',
    intro,
    '',
    ...details,
    '',
    `Approve: ${i.approveLink}`,
    '',
    note,
    '',
    `${PRODUCT_NAME} · ${SUPPORT_EMAIL}`,
  ].join('\n');
  const link = escapeHtml(i.approveLink);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:bold;padding-bottom:16px">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5"><p>Hi ${escapeHtml(i.agentName)},</p><p>${escapeHtml(intro)}</p>
<p>${details.map(escapeHtml).join('<br>')}</p>
<p style="padding:16px 0"><a href="${link}" style="background:#2f5bea;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">Approve ${escapeHtml(who)}</a></p>
<p style="font-size:13px;color:#5a6272">If the button does not work, open this link: <a href="${link}">${link}</a></p>
<p style="font-size:13px;color:#5a6272">${escapeHtml(note)}</p></td></tr>
<tr><td style="font-size:12px;color:#8a91a0;padding-top:16px">${escapeHtml(PRODUCT_NAME)} · <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to: i.to, subject, text, html, links: [i.approveLink] };
}
