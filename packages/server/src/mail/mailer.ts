/** Mail: SMTP through nodemailer when SMTP_URL is set; otherwise a development outbox kept in the database. */
import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/types.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The actionable links in the mail (activation, reset, invite), printed to the log in development. */
  links: string[];
  /** Files sent with the mail (the seller digest's PDF); the development outbox keeps them too (/dev/outbox). */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
}

export function createMailer(opts: {
  smtpUrl?: string | undefined;
  from: string;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      kind: 'smtp',
      async send(m) {
        await transport.sendMail({
          from: opts.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          ...(m.attachments?.length ? { attachments: m.attachments } : {}),
        });
      },
    };
  }
  return {
    kind: 'outbox',
    async send(m) {
      await opts.db.transaction().execute(async (trx) => {
        const mail = await trx
          .insertInto('mail_outbox')
          .values({
            to_address: m.to,
            subject: m.subject,
            text_body: m.text,
            html_body: m.html,
            links: JSON.stringify(m.links),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (m.attachments?.length)
          await trx
            .insertInto('mail_outbox_attachments')
            .values(
              m.attachments.map((a, position) => ({
                mail_id: mail.id,
                position,
                filename: a.filename,
                content_type: a.contentType,
                content: a.content,
              })),
            )
            .execute();
      });
      opts.log.info(
        { to: m.to, subject: m.subject, links: m.links, attachments: m.attachments?.map((a) => a.filename) },
        'development outbox: mail kept (see /dev/outbox)',
      );
    },
  };
}
