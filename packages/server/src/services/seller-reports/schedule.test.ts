import { describe, expect, it } from 'vitest';
import { isTimeZone, nextSendAt } from './schedule.js';

const at = (s: string) => new Date(s);

describe('nextSendAt', () => {
  // 2026-11-26 is a Thursday (ISO weekday 4).
  it('sends weekly on the chosen weekday at 07:00 UTC', () => {
    expect(nextSendAt('WEEKLY', 1, at('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-11-30T07:00:00.000Z');
    expect(nextSendAt('WEEKLY', 5, at('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-11-27T07:00:00.000Z');
    expect(nextSendAt('WEEKLY', 7, at('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-11-29T07:00:00.000Z');
  });
  it('sends today when the chosen weekday is today and 07:00 is still ahead, else in a week', () => {
    expect(nextSendAt('WEEKLY', 4, at('2026-11-26T06:59:00Z')).toISOString()).toBe('2026-11-26T07:00:00.000Z');
    expect(nextSendAt('WEEKLY', 4, at('2026-11-26T07:00:00Z')).toISOString()).toBe('2026-12-03T07:00:00.000Z');
  });
  it('sends monthly on the chosen day, moving to next month (and year) once it has passed', () => {
    expect(nextSendAt('MONTHLY', 28, at('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-11-28T07:00:00.000Z');
    expect(nextSendAt('MONTHLY', 1, at('2026-11-26T10:00:00Z')).toISOString()).toBe('2026-12-01T07:00:00.000Z');
    expect(nextSendAt('MONTHLY', 3, at('2026-12-26T10:00:00Z')).toISOString()).toBe('2027-01-03T07:00:00.000Z');
    expect(nextSendAt('MONTHLY', 26, at('2026-11-26T07:00:00Z')).toISOString()).toBe('2026-12-26T07:00:00.000Z');
  });
});

describe('nextSendAt in the agent time zone', () => {
  it('sends at 07:00 local time, following daylight saving', () => {
    // Johannesburg is UTC+2 all year.
    expect(nextSendAt('WEEKLY', 1, at('2026-11-26T10:00:00Z'), 'Africa/Johannesburg').toISOString()).toBe(
      '2026-11-30T05:00:00.000Z',
    );
    // Los Angeles: 07:00 PST (UTC-8) before 8 March 2026, 07:00 PDT (UTC-7) from then on.
    expect(nextSendAt('WEEKLY', 7, at('2026-03-02T00:00:00Z'), 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-08T14:00:00.000Z',
    );
    expect(nextSendAt('WEEKLY', 6, at('2026-03-02T00:00:00Z'), 'America/Los_Angeles').toISOString()).toBe(
      '2026-03-07T15:00:00.000Z',
    );
  });
  it('reads the weekday and the day of the month where the agent is, not in UTC', () => {
    // 12:00 UTC on Thursday 26 November is already Friday 01:00 in Auckland (UTC+13): Friday 07:00 there is still
    // ahead.
    expect(nextSendAt('WEEKLY', 5, at('2026-11-26T12:00:00Z'), 'Pacific/Auckland').toISOString()).toBe(
      '2026-11-26T18:00:00.000Z',
    );
    // 20:00 UTC on Thursday is Friday 09:00 in Auckland: this Friday's 07:00 has passed, so a week later.
    expect(nextSendAt('WEEKLY', 5, at('2026-11-26T20:00:00Z'), 'Pacific/Auckland').toISOString()).toBe(
      '2026-12-03T18:00:00.000Z',
    );
    // 10:00 UTC on the 26th is 23:00 on the 26th in Auckland: day 27 07:00 there is 18:00 UTC the same day.
    expect(nextSendAt('MONTHLY', 27, at('2026-11-26T10:00:00Z'), 'Pacific/Auckland').toISOString()).toBe(
      '2026-11-26T18:00:00.000Z',
    );
    expect(nextSendAt('MONTHLY', 3, at('2026-12-26T10:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2027-01-03T12:00:00.000Z',
    );
  });
  it('knows IANA time zones and refuses anything else', () => {
    expect(isTimeZone('Africa/Johannesburg')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });
});
