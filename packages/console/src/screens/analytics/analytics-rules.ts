/** Pure rules of the Tour Analytics page: periods, durations, sorted rows, CSV files, digest fields. */
import { countOf, formatPercent } from '@roomwalk/shared';

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = 30;

export const ANALYTICS_TEXTS = {
  title: 'Tour Analytics',
  planRequired: 'Tour Analytics and seller reports need the Basic or Pro plan. Upgrade to use them.',
  noVisits: 'No visits in this period yet. The charts fill in as buyers open the tour.',
  noRooms:
    'No rooms recorded yet: name the rooms with markers (Edit Fast Travel) to see where buyers spend their time.',
  linkNotValid: 'This report link is not valid any more. Ask the agent for a new one.',
  /** A company-only tour's report, opened without a member's session. */
  reportMembersOnly: 'This tour is private: its report is for members of the company. Sign in to see it.',
} as const;

/** The period's bounds for the query: the last `days` whole UTC days, today included. */
export function periodRange(days: number, now = new Date()): { from: string; to: string } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: new Date(today - (days - 1) * 86_400_000).toISOString(), to: now.toISOString() };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** '2026-11-05' → '5 Nov'. */
export const shortDay = (iso: string) => `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1] ?? ''}`;
/** An ISO time → '5 Nov 2026'. */
export const humanDate = (iso: string) => {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};

export interface Figures {
  visits: number;
  uniqueVisitors: number;
  averageSeconds: number;
  completionRate: number;
  rooms: ReadonlyArray<{ name: string; seconds: number; visits: number }>;
  exits: ReadonlyArray<{ name: string; visits: number }>;
  daily: ReadonlyArray<{ date: string; visits: number; uniqueVisitors: number }>;
  devices: ReadonlyArray<{ name: string; visits: number }>;
}

/** Rooms by time spent, longest first; with the average per visit that entered the room. */
export function roomRows(f: Pick<Figures, 'rooms'>) {
  return [...f.rooms]
    .sort((a, b) => b.seconds - a.seconds || a.name.localeCompare(b.name))
    .map((r) => ({ ...r, average: r.visits > 0 ? r.seconds / r.visits : 0 }));
}
/** Where visits ended, most first, with each room's share of the period's visits. */
export function exitRows(f: Pick<Figures, 'exits' | 'visits'>) {
  return [...f.exits]
    .sort((a, b) => b.visits - a.visits || a.name.localeCompare(b.name))
    .map((e) => ({ ...e, share: f.visits > 0 ? e.visits / f.visits : 0 }));
}
const DEVICE_LABELS: Record<string, string> = { phone: 'Phone', tablet: 'Tablet', desktop: 'Desktop' };
/** Visits whose player did not say what it ran on (older players, blocked beacons): a share of their own. */
const DEVICE_NOT_REPORTED = 'Not reported';
const deviceLabel = (name: string) => DEVICE_LABELS[name] ?? DEVICE_NOT_REPORTED;
/** Each device's visits and share of the period's visits; the shares add up to 100 % with the visits not reported. */
export function deviceRows(f: Pick<Figures, 'devices' | 'visits'>) {
  const rows = new Map<string, number>();
  for (const d of f.devices) rows.set(deviceLabel(d.name), (rows.get(deviceLabel(d.name)) ?? 0) + d.visits);
  const reported = [...rows.values()].reduce((a, b) => a + b, 0);
  if (f.visits > reported) rows.set(DEVICE_NOT_REPORTED, (rows.get(DEVICE_NOT_REPORTED) ?? 0) + f.visits - reported);
  return [...rows].map(([name, visits]) => ({ name, visits, share: f.visits > 0 ? visits / f.visits : 0 }));
}

/** "1 visit", "2 visits". */
export const visitCount = (n: number) => countOf(n, 'visit');
/** "1 visitor", "3 unique visitors". */
export const visitorCount = (n: number, noun: 'visitor' | 'unique visitor') => countOf(n, noun);

/**
 * One CSV file (RFC 4180, CRLF, a UTF-8 BOM so spreadsheet programs read accents); a cell starting with = + - @ is
 * prefixed with ' so a room name never runs as a formula.
 */
export function toCsv(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>): string {
  const cell = (v: string | number) => {
    let s = String(v);
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return `\uFEFF${[headers, ...rows].map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}

export const dailyCsv = (f: Pick<Figures, 'daily'>) =>
  toCsv(
    ['Date', 'Visits', 'Unique visitors'],
    f.daily.map((d) => [d.date, d.visits, d.uniqueVisitors]),
  );
export const roomsCsv = (f: Pick<Figures, 'rooms'>) =>
  toCsv(
    ['Room', 'Seconds in all', 'Visits', 'Average seconds per visit'],
    roomRows(f).map((r) => [r.name, r.seconds, r.visits, Math.round(r.average)]),
  );
export const exitsCsv = (f: Pick<Figures, 'exits' | 'visits'>) =>
  toCsv(
    ['Room', 'Visits ended here', 'Share of visits'],
    exitRows(f).map((e) => [e.name, e.visits, formatPercent(e.share)]),
  );
export const devicesCsv = (f: Pick<Figures, 'devices' | 'visits'>) =>
  toCsv(
    ['Device', 'Visits', 'Share of visits'],
    deviceRows(f).map((d) => [d.name, d.visits, formatPercent(d.share)]),
  );

/** A file name for a chart's CSV: tour-analytics-<what>-<from>-<to>.csv. */
export const csvName = (what: string, period: { from: string; to: string }) =>
  `tour-analytics-${what}-${period.from.slice(0, 10)}-${period.to.slice(0, 10)}.csv`;

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const RECIPIENTS_MAX = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The recipients field: addresses separated by commas, semicolons, spaces or lines; the first problem in words. */
export function parseRecipients(text: string): { recipients: string[] } | { error: string } {
  const seen = new Set<string>();
  const recipients: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const email = raw.trim();
    if (!email) continue;
    if (!EMAIL.test(email) || email.length > 254) return { error: `"${email.slice(0, 80)}" is not an e-mail address.` };
    if (seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    recipients.push(email);
  }
  if (recipients.length === 0) return { error: 'Enter at least one e-mail address to send the report to.' };
  if (recipients.length > RECIPIENTS_MAX) return { error: `A report can go to at most ${RECIPIENTS_MAX} addresses.` };
  return { recipients };
}

/** The browser's time zone (an IANA name), which the digest's 07:00 is sent in; UTC when the browser does not say. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A time zone as people read it: "UTC", or "Africa/Johannesburg time" with spaces for underscores. */
export const zoneName = (timeZone: string): string =>
  timeZone === 'UTC' || timeZone === 'Etc/UTC' ? 'UTC' : `${timeZone.replace(/_/g, ' ')} time`;

/** When the digest goes out, in words: "Every Monday" or "Every month on day 3", at 07:00 in its time zone. */
export function digestWhen(frequency: 'WEEKLY' | 'MONTHLY', day: number, timeZone = 'UTC'): string {
  const when = frequency === 'WEEKLY' ? `Every ${WEEKDAYS[day - 1] ?? 'week'}` : `Every month on day ${day}`;
  return `${when} at 07:00 ${zoneName(timeZone)}`;
}
