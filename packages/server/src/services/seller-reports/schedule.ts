/**
 * When a seller digest goes out (pure): weekly on a weekday (1 = Monday … 7 = Sunday) or monthly on a day of the month
 * (1–28, so every month has it), at SEND_HOUR_UTC. The period a digest covers is the 7 or 30 days before it is sent.
 */
import type { DigestFrequency } from './tables.js';

const SEND_HOUR_UTC = 7;
export const DIGEST_DAYS = { WEEKLY: 7, MONTHLY: 30 } as const satisfies Record<DigestFrequency, number>;
export const DAY_RANGE = { WEEKLY: { min: 1, max: 7 }, MONTHLY: { min: 1, max: 28 } } as const satisfies Record<DigestFrequency, { min: number; max: number }>;

/** The first sending time strictly after `after`. */
export function nextSendAt(frequency: DigestFrequency, day: number, after: Date): Date {
  const base = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), SEND_HOUR_UTC));
  if (frequency === 'WEEKLY') {
    const isoToday = ((after.getUTCDay() + 6) % 7) + 1;
    let ahead = (day - isoToday + 7) % 7;
    if (ahead === 0 && base.getTime() <= after.getTime()) ahead = 7;
    return new Date(base.getTime() + ahead * 86_400_000);
  }
  let candidate = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), day, SEND_HOUR_UTC));
  if (candidate.getTime() <= after.getTime()) candidate = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth() + 1, day, SEND_HOUR_UTC));
  return candidate;
}
