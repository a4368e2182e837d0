/**
 * Calendar days in UTC, as reports, exports and file names write them ('2026-12-07'): one spelling of a day, of a
 * day's length and of the step from one day to the next.
 */

/** A day's length, for spans counted in days (a link's lifetime, a grace period). */
export const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of a moment in UTC. */
export const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/** The first moment of a UTC day. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** The day `n` days after `day` (before it for a negative `n`). */
export const addDays = (day: string, n: number): string => utcDay(new Date(dayStart(day).getTime() + n * DAY_MS));
