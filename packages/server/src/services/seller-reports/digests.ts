/**
 * The scheduled seller digest of a tour (one per tour): weekly on a weekday or monthly on a day (1–28), at 07:00 in the
 * agent's time zone, to up to ten
 * recipients the agent enters, with the seller report as a PDF attachment. The sweep job (jobs/seller-reports.ts)
 * starts a run for every digest whose next_send_at has come and moves next_send_at on in the same statement.
 */
import { z } from 'zod';
import type { AuthInfo } from '../../core/auth.js';
import { badInput } from '../../core/errors.js';
import type { Services } from '../services.js';
import { sellerReportTour } from './access.js';
import { DAY_RANGE, DIGEST_FREQUENCIES, isTimeZone, nextSendAt } from './schedule.js';
import type { DigestFrequency, SellerDigestRow } from '../../db/tables/seller-reports.js';
import { serverNow } from '../../core/clock.js';

const RECIPIENTS_MAX = 10;
const EMAIL = z.string().email();

export interface DigestInput {
  tourId: string;
  frequency: DigestFrequency;
  day: number;
  recipients: readonly string[];
  /** IANA time zone of the 07:00 sending (the agent's browser zone); UTC when not given. */
  timeZone?: string | null;
}

/** Checks the digest settings; every message says what to change, naming the field. */
function validateDigest(input: Omit<DigestInput, 'tourId'>): {
  frequency: DigestFrequency;
  day: number;
  recipients: string[];
  timeZone: string;
} {
  if (!DIGEST_FREQUENCIES.includes(input.frequency)) throw badInput('Choose weekly or monthly.', 'frequency');
  const range = DAY_RANGE[input.frequency];
  if (!Number.isInteger(input.day) || input.day < range.min || input.day > range.max) {
    throw badInput(
      input.frequency === 'WEEKLY' ? 'Choose a day of the week.' : 'Choose a day of the month from 1 to 28.',
      'day',
    );
  }
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const raw of input.recipients ?? []) {
    const email = String(raw).trim();
    if (!email) continue;
    if (email.length > 254 || !EMAIL.safeParse(email).success)
      throw badInput(`"${email.slice(0, 80)}" is not an e-mail address.`, 'recipients');
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    recipients.push(email);
  }
  if (recipients.length === 0) throw badInput('Enter at least one e-mail address to send the report to.', 'recipients');
  if (recipients.length > RECIPIENTS_MAX)
    throw badInput(`A report can go to at most ${RECIPIENTS_MAX} addresses.`, 'recipients');
  const timeZone = input.timeZone?.trim() || 'UTC';
  if (!isTimeZone(timeZone))
    throw badInput(
      `"${timeZone.slice(0, 64)}" is not a time zone. Use a name such as Africa/Johannesburg.`,
      'timeZone',
    );
  return { frequency: input.frequency, day: input.day, recipients, timeZone };
}

export async function getDigest(
  services: Services,
  auth: AuthInfo,
  tourGlobalId: string,
): Promise<SellerDigestRow | null> {
  const tour = await sellerReportTour(services, auth, tourGlobalId);
  return (
    (await services.db
      .selectFrom('seller_report_digests')
      .selectAll()
      .where('tour_id', '=', tour.id)
      .executeTakeFirst()) ?? null
  );
}

/** Creates or replaces the tour's digest; the next sending time is computed from now. */
export async function saveDigest(
  services: Services,
  auth: AuthInfo,
  input: DigestInput,
  now = serverNow(services),
): Promise<SellerDigestRow> {
  const tour = await sellerReportTour(services, auth, input.tourId);
  const v = validateDigest(input);
  const next = nextSendAt(v.frequency, v.day, now, v.timeZone);
  return services.db
    .insertInto('seller_report_digests')
    .values({
      tour_id: tour.id,
      company_id: tour.company_id,
      created_by: auth.userId,
      frequency: v.frequency,
      day: v.day,
      recipients: v.recipients,
      time_zone: v.timeZone,
      next_send_at: next,
    })
    .onConflict((oc) =>
      oc.column('tour_id').doUpdateSet({
        frequency: v.frequency,
        day: v.day,
        recipients: v.recipients,
        time_zone: v.timeZone,
        next_send_at: next,
        updated_at: now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteDigest(services: Services, auth: AuthInfo, tourGlobalId: string): Promise<boolean> {
  const tour = await sellerReportTour(services, auth, tourGlobalId);
  const r = await services.db.deleteFrom('seller_report_digests').where('tour_id', '=', tour.id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
