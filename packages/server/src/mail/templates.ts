/** The account mails (activation, password reset, team invite), each as HTML and plain text with its one link. */
import { PRODUCT_NAME, SUPPORT_EMAIL } from '@roomwalk/shared';
import type { MailMessage } from './mailer.js';
import { escapeHtml } from '../core/html.js';

export interface Layout {
  to: string;
  subject: string;
  greeting: string;
  /** The body; a list of lines is one paragraph with a line break between them (a lead's details, key figures). */
  paragraphs: Array<string | readonly string[]>;
  /** The mail's one action; a notice without one (a deletion done) has none. `text`: how the plain text names it. */
  button?: { label: string; url: string; text?: string };
  footnote?: string;
  attachments?: MailMessage['attachments'];
}

/**
 * One mail in the house frame, as HTML and plain text: every mail of the product (account, personal data, leads, the
 * lead gate's approval, the seller digest) is rendered here, so the frame, the escaping and the footer exist once.
 */
export function renderMail(l: Layout): MailMessage {
  const lines = (p: string | readonly string[]): readonly string[] => (typeof p === 'string' ? [p] : p);
  const text = [
    l.greeting,
    '',
    ...l.paragraphs.flatMap((p) => [...lines(p), '']),
    ...(l.button ? [`${l.button.text ?? l.button.label}: ${l.button.url}`, ''] : []),
    ...(l.footnote ? [l.footnote, ''] : []),
    `${PRODUCT_NAME} · ${SUPPORT_EMAIL}`,
  ].join('\n');
  const url = l.button ? escapeHtml(l.button.url) : '';
  const button = l.button
    ? `<p style="padding:16px 0"><a href="${url}" style="background:#2f5bea;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(l.button.label)}</a></p>
<p style="font-size:13px;color:#5a6272">If the button does not work, open this link: <a href="${url}">${url}</a></p>
`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(l.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;color:#1d2330">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:520px;background:#ffffff;border-radius:8px;padding:32px" cellpadding="0" cellspacing="0">
<tr><td style="font-size:20px;font-weight:bold;padding-bottom:16px">${escapeHtml(PRODUCT_NAME)}</td></tr>
<tr><td style="font-size:15px;line-height:1.5"><p>${escapeHtml(l.greeting)}</p>
${l.paragraphs.map((p) => `<p>${lines(p).map(escapeHtml).join('<br>')}</p>`).join('\n')}
${button}${l.footnote ? `<p style="font-size:13px;color:#5a6272">${escapeHtml(l.footnote)}</p>` : ''}</td></tr>
<tr><td style="font-size:12px;color:#8a91a0;padding-top:16px">${escapeHtml(PRODUCT_NAME)} · <a href="mailto:${SUPPORT_EMAIL}">${SUPPORT_EMAIL}</a></td></tr>
</table></td></tr></table></body></html>`;
  return {
    to: l.to,
    subject: l.subject,
    text,
    html,
    links: l.button ? [l.button.url] : [],
    ...(l.attachments ? { attachments: l.attachments } : {}),
  };
}

/** Link builders: the public base URL from settings, never a request header (a forged Host must not steer links). */
export const mailLinks = {
  activation: (publicUrl: string, token: string) => `${publicUrl}/account/activate?token=${encodeURIComponent(token)}`,
  reset: (publicUrl: string, token: string) => `${publicUrl}/password/reset?token=${encodeURIComponent(token)}`,
  /** The invitee's address rides along so the sign-up form can fill it in (the token alone decides the invite). */
  invite: (publicUrl: string, token: string, email?: string) =>
    `${publicUrl}/signup?inviteToken=${encodeURIComponent(token)}${email ? `&email=${encodeURIComponent(email)}` : ''}`,
};

export function activationMail(o: { to: string; name: string; link: string }): MailMessage {
  return renderMail({
    to: o.to,
    subject: `Activate your ${PRODUCT_NAME} account`,
    greeting: `Hi ${o.name},`,
    paragraphs: [`Welcome to ${PRODUCT_NAME}. Please confirm your email address to activate your account.`],
    button: { label: 'Activate account', url: o.link },
    footnote: 'This link is valid for 7 days. If you did not sign up, you can ignore this email.',
  });
}

export function passwordResetMail(o: { to: string; name: string; link: string }): MailMessage {
  return renderMail({
    to: o.to,
    subject: `Reset your ${PRODUCT_NAME} password`,
    greeting: `Hi ${o.name},`,
    paragraphs: ['We received a request to reset your password. Choose a new one with the link below.'],
    button: { label: 'Reset password', url: o.link },
    footnote:
      'This link is valid for 60 minutes and works once. If you did not ask for it, you can ignore this email; your password stays the same.',
  });
}

export function inviteMail(o: { to: string; companyName: string; inviterName: string; link: string }): MailMessage {
  return renderMail({
    to: o.to,
    subject: `${o.inviterName} invited you to ${o.companyName} on ${PRODUCT_NAME}`,
    greeting: 'Hi,',
    paragraphs: [
      `${o.inviterName} invited you to join the team of ${o.companyName} on ${PRODUCT_NAME}. Sign up with this email address to accept.`,
    ],
    button: { label: 'Accept invite', url: o.link },
    footnote: 'This invite is valid for 14 days. If you were not expecting it, you can ignore this email.',
  });
}
