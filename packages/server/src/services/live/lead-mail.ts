/** The mail that tells the agent a visitor is waiting, with the link that opens the tour as host. */
import type { MailMessage } from '../../mail/mailer.js';
import { renderMail } from '../../mail/templates.js';
import { formatRoomPath, type VisitRoom } from '../reports/visit-rooms.js';

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
  return renderMail({
    to: i.to,
    subject,
    greeting: `Hi ${i.agentName},`,
    paragraphs: [intro, details],
    ...(i.liveLink ? { button: { label: 'Join live viewing', text: 'Join the live viewing', url: i.liveLink } } : {}),
    ...(live && until ? { footnote: until } : {}),
  });
}
