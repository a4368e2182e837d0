/** The mail that tells the agent a visitor waits at a tour's lead gate, with the one-time link that approves them. */
import { PRODUCT_NAME } from '@roomwalk/shared';
import type { MailMessage } from '../../mail/mailer.js';
import { renderMail } from '../../mail/templates.js';
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
  return renderMail({
    to: i.to,
    subject,
    greeting: `Hi ${i.agentName},`,
    paragraphs: [intro, details],
    button: { label: `Approve ${who}`, text: 'Approve', url: i.approveLink },
    footnote: note,
  });
}
