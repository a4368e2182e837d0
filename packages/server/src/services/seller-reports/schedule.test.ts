import { describe, expect, it } from 'vitest';
import { nextSendAt } from './schedule.js';

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
