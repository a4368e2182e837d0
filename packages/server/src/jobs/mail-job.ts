/** The mail job: a message queued by a service, sent by a worker (retried by pg-boss when SMTP fails). */
import type { MailMessage } from '../mail/mailer.js';
import { defineJob } from './queue.js';

export const mailQueue = defineJob<MailMessage>('mail', {
  options: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
});
