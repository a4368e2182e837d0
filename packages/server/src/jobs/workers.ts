/** Job handlers for nodes with the worker role. Each domain adds its queue here. */
import type { MailMessage } from '../mail/mailer.js';
import type { Services } from '../services/services.js';
import { QUEUES } from './queue.js';
import { registerProcessTourWorkers } from './process-tour.js';

export async function registerWorkers(services: Services): Promise<void> {
  await services.queue.work<MailMessage>(QUEUES.mail, async (job) => {
    await services.mailer.send(job.data);
  });
  const accounts = await import('../services/accounts.js');
  await services.queue.work<import('../services/accounts.js').AccountMailRequest>(accounts.ACCOUNT_MAIL_REQUEST_QUEUE, (job) => accounts.handleAccountMailRequest(services, job.data));
  await registerProcessTourWorkers(services);
  await (await import('../services/billing/sync.js')).registerBillingWorkers(services);
  await (await import('../services/ai/register-workers.js')).registerAiMediaWorkers(services);
}

/** Queues a mail for the worker to send (retried by pg-boss when SMTP fails). */
export async function enqueueMail(services: Services, message: MailMessage): Promise<void> {
  await services.queue.send(QUEUES.mail, message, { retryLimit: 5, retryDelay: 10, retryBackoff: true });
}
