/**
 * When a seller digest goes out (pure): weekly on a weekday (1 = Monday … 7 = Sunday) or monthly on a day of the month
 * (1–28, so every month has it), at SEND_HOUR in the digest's time zone (the agent's, an IANA name; daylight saving
 * is followed). The period a digest covers is the 7 or 30 days before it is sent.
 */
import { TZDate } from '@date-fns/tz';
import type { DigestFrequency } from '../../db/tables/seller-reports.js';

const SEND_HOUR = 7;
export const DIGEST_FREQUENCIES = ['WEEKLY', 'MONTHLY'] as const satisfies readonly DigestFrequency[];
export const DIGEST_DAYS = { WEEKLY: 7, MONTHLY: 30 } as const satisfies Record<DigestFrequency, number>;
export const DAY_RANGE = { WEEKLY: { min: 1, max: 7 }, MONTHLY: { min: 1, max: 28 } } as const satisfies Record<
  DigestFrequency,
  { min: number; max: number }
>;

/** Whether `zone` is a time zone this server knows (an IANA name such as "Africa/Johannesburg", or "UTC"). */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The first sending time strictly after `after`. */
export function nextSendAt(frequency: DigestFrequency, day: number, after: Date, timeZone = 'UTC'): Date {
  const local = new TZDate(after.getTime(), timeZone);
  const at = (y: number, m: number, d: number) => new Date(new TZDate(y, m, d, SEND_HOUR, 0, 0, timeZone).getTime());
  const [y, m, d] = [local.getFullYear(), local.getMonth(), local.getDate()];
  if (frequency === 'WEEKLY') {
    const isoToday = ((local.getDay() + 6) % 7) + 1;
    let ahead = (day - isoToday + 7) % 7;
    if (ahead === 0 && at(y, m, d).getTime() <= after.getTime()) ahead = 7;
    return at(y, m, d + ahead);
  }
  const candidate = at(y, m, day);
  return candidate.getTime() > after.getTime() ? candidate : at(y, m + 1, day);
}
