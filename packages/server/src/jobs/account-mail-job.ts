/**
 * Account mails asked for by an address (reset link, activation resend) are looked up and sent by a job
 * (services/accounts.ts handleAccountMailRequest): the request does the same work and gives the same answer whether
 * or not the account exists (no discovery by timing).
 */
import { defineJob } from './queue.js';

export interface AccountMailRequest {
  kind: 'reset' | 'activation';
  email: string;
}

export const accountMailRequestQueue = defineJob<AccountMailRequest>('account-mail-request', {
  options: { retryLimit: 3, retryDelay: 10, retryBackoff: true },
});
