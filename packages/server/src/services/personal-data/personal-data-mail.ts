/**
 * The mails of a person's data: the export is ready, a deletion is scheduled / confirmed / cancelled / done, a lead's
 * receipt.
 */
import { PRODUCT_NAME } from '@roomwalk/shared';
import type { MailMessage } from '../../mail/mailer.js';
import { renderMail as letter } from '../../mail/templates.js';

const day = (d: Date) =>
  d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export function exportReadyMail(o: { to: string; name: string; link: string; expiresAt: Date }): MailMessage {
  return letter({
    to: o.to,
    subject: `Your ${PRODUCT_NAME} data is ready to download`,
    greeting: `Hi ${o.name},`,
    paragraphs: [
      'The copy of your data you asked for is ready: a ZIP file with your profile, your tours, the leads you received and your activity, described in its manifest.json.',
    ],
    button: { label: 'Download your data', url: o.link },
    footnote: `This link works until ${o.expiresAt.toUTCString()}; after that, ask for a new export on your Account page. If you did not ask for it, change your password.`,
  });
}

export interface DeletionPlan {
  /** The company goes too (nobody else is left in it). */
  companyToo: boolean;
  companyName: string;
  tours: number;
  graceDays: number;
  purgeAfter: Date;
}

/** What will go, in the words of the dialog and the mails. */
export function deletionConsequences(p: DeletionPlan): string {
  const when = `on ${day(p.purgeAfter)} (in ${p.graceDays} days)`;
  if (p.companyToo) {
    const tours = p.tours === 0 ? '' : `, its ${p.tours} tour${p.tours === 1 ? '' : 's'} with their pictures and clips`;
    return `Your account, your company ${p.companyName}${tours}, its leads and analytics will be deleted for good ${when}.`;
  }
  const tours =
    p.tours === 0
      ? ''
      : ` Your ${p.tours} tour${p.tours === 1 ? '' : 's'} stay with ${p.companyName} and pass to one of its admins.`;
  return `Your account and your profile will be deleted for good ${when}.${tours}`;
}

export function deletionScheduledMail(o: {
  to: string;
  name: string;
  plan: DeletionPlan;
  signInUrl: string;
}): MailMessage {
  return letter({
    to: o.to,
    subject: `Your ${PRODUCT_NAME} account will be deleted on ${day(o.plan.purgeAfter)}`,
    greeting: `Hi ${o.name},`,
    paragraphs: [
      deletionConsequences(o.plan),
      `You have been signed out. Changed your mind? Sign in before ${day(o.plan.purgeAfter)} and the deletion is cancelled.`,
    ],
    button: { label: 'Sign in to cancel', url: o.signInUrl },
    footnote: 'Invoices stay with our payment provider as tax law requires; anonymous visit counts stay in our totals.',
  });
}

export function deletionConfirmMail(o: { to: string; name: string; link: string; hours: number }): MailMessage {
  return letter({
    to: o.to,
    subject: `Confirm the deletion of your ${PRODUCT_NAME} account`,
    greeting: `Hi ${o.name},`,
    paragraphs: [
      'You asked to delete your account. As you sign in with Google, we ask you to confirm it from this mailbox.',
    ],
    button: { label: 'Confirm deletion', url: o.link },
    footnote: `This link works for ${o.hours} hours. If you did not ask for it, ignore this mail: nothing changes.`,
  });
}

export function deletionCancelledMail(o: { to: string; name: string }): MailMessage {
  return letter({
    to: o.to,
    subject: `Your ${PRODUCT_NAME} account will not be deleted`,
    greeting: `Hi ${o.name},`,
    paragraphs: ['You signed in, so the deletion of your account is cancelled. Everything stays as it was.'],
  });
}

export function deletionDoneMail(o: {
  to: string;
  name: string;
  companyToo: boolean;
  companyName: string;
}): MailMessage {
  return letter({
    to: o.to,
    subject: `Your ${PRODUCT_NAME} account has been deleted`,
    greeting: `Hi ${o.name},`,
    paragraphs: [
      o.companyToo
        ? `Your account and your company ${o.companyName}, with its tours, pictures, clips, leads and analytics, have been deleted.`
        : 'Your account and your profile have been deleted.',
      'This is the last mail we send you.',
    ],
  });
}

export function leadReceiptMail(o: {
  to: string;
  name: string;
  agentName: string;
  tourTitle: string;
  erasureUrl: string;
}): MailMessage {
  return letter({
    to: o.to,
    subject: `Your details were sent to ${o.agentName}`,
    greeting: `Hi ${o.name},`,
    paragraphs: [
      `You left your details on the tour "${o.tourTitle}". ${o.agentName} has them and may contact you.`,
      "Want them deleted instead? Use the link below; it asks you to confirm, then removes your details from the agent's list.",
    ],
    button: { label: 'Delete my details', url: o.erasureUrl },
    footnote: 'If you did not leave your details, use the same link to have them deleted.',
  });
}
