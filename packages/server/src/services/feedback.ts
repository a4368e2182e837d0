/** Feedback: stored with us, and forwarded to the error-reporting service when one is configured. */
import { feedbackSchema } from '@roomwalk/shared';
import { fromZod } from '../core/errors.js';
import { consumeRateLimit } from '../auth/rate-limit.js';
import type { Services } from './services.js';

interface FeedbackReport {
  type: 'feedback';
  id: string;
  name: string;
  email: string;
  comment: string;
  userId: string | null;
  createdAt: string;
}

/** feedbackSubmit: validates with the shared schema, stores it, then forwards it without making the user wait. */
export async function submitFeedback(
  services: Services,
  input: unknown,
  who: { userId: string | null; ip: string },
): Promise<void> {
  await consumeRateLimit(services, 'feedbackSubmit', who.ip);
  const parsed = feedbackSchema.safeParse(input);
  if (!parsed.success) throw fromZod(parsed.error.issues);
  const row = await services.db
    .insertInto('feedback')
    .values({ user_id: who.userId, name: parsed.data.name, email: parsed.data.email, comment: parsed.data.comment })
    .returningAll()
    .executeTakeFirstOrThrow();
  const url = services.config.ERROR_REPORTING_URL;
  if (!url) return;
  const report: FeedbackReport = {
    type: 'feedback',
    id: row.id,
    name: row.name,
    email: row.email,
    comment: row.comment,
    userId: row.user_id,
    createdAt: new Date(row.created_at).toISOString(),
  };
  // Stored already, so a slow or failing reporter only costs a log line.
  void fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
    signal: AbortSignal.timeout(5000),
  })
    .then((res) => {
      if (!res.ok) services.log.warn({ status: res.status }, 'error-reporting service refused feedback');
    })
    .catch((err: unknown) => services.log.warn({ err }, 'could not forward feedback'));
}
