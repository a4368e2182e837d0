import { describe, expect, it } from 'vitest';
import { formatDuration } from '@roomwalk/shared';
import {
  dailyCsv,
  deviceRows,
  digestWhen,
  exitRows,
  parseRecipients,
  periodRange,
  roomRows,
  roomsCsv,
  toCsv,
  visitCount,
  visitorCount,
} from './analytics-rules.js';

describe('analytics rules', () => {
  it('covers the last N whole UTC days, today included', () => {
    const r = periodRange(7, new Date('2026-11-26T10:30:00Z'));
    expect(r).toEqual({ from: '2026-11-20T00:00:00.000Z', to: '2026-11-26T10:30:00.000Z' });
  });

  it('writes durations as the issue does', () => {
    expect(formatDuration(90)).toBe('1 min 30 s');
    expect(formatDuration(40)).toBe('40 s');
    expect(formatDuration(120)).toBe('2 min');
    expect(formatDuration(7500)).toBe('2 h 5 min');
  });

  it('counts in the right number: 1 visit, 2 visits, 1 unique visitor', () => {
    expect(visitCount(1)).toBe('1 visit');
    expect(visitCount(18)).toBe('18 visits');
    expect(visitorCount(1, 'unique visitor')).toBe('1 unique visitor');
    expect(visitorCount(0, 'visitor')).toBe('0 visitors');
  });

  it('gives visits without a device their own share, so the shares add up to the visits', () => {
    const rows = deviceRows({
      visits: 7,
      devices: [
        { name: 'phone', visits: 0 },
        { name: 'tablet', visits: 0 },
        { name: 'desktop', visits: 1 },
      ],
    });
    expect(rows.map((r) => [r.name, r.visits])).toEqual([
      ['Phone', 0],
      ['Tablet', 0],
      ['Desktop', 1],
      ['Not reported', 6],
    ]);
    expect(rows.reduce((a, r) => a + r.share, 0)).toBeCloseTo(1);
    expect(deviceRows({ visits: 2, devices: [{ name: 'phone', visits: 2 }] }).map((r) => r.name)).toEqual(['Phone']);
  });

  it('sorts rooms by time and exits by count, with averages and shares', () => {
    const rooms = roomRows({
      rooms: [
        { name: 'Hall', seconds: 20, visits: 2 },
        { name: 'Kitchen', seconds: 110, visits: 2 },
      ],
    });
    expect(rooms.map((r) => [r.name, r.average])).toEqual([
      ['Kitchen', 55],
      ['Hall', 10],
    ]);
    expect(
      exitRows({
        visits: 4,
        exits: [
          { name: 'Hall', visits: 1 },
          { name: 'Garden', visits: 3 },
        ],
      }).map((e) => [e.name, e.share]),
    ).toEqual([
      ['Garden', 0.75],
      ['Hall', 0.25],
    ]);
  });

  it('writes CSV with a BOM and CRLF, quotes commas, and never lets a cell run as a formula', () => {
    expect(
      toCsv(
        ['Room', 'Visits'],
        [
          ['Dining, east', 2],
          ['=HYPERLINK("x")', 1],
        ],
      ),
    ).toBe('\uFEFFRoom,Visits\r\n"Dining, east",2\r\n"\'=HYPERLINK(""x"")",1\r\n');
    expect(dailyCsv({ daily: [{ date: '2026-11-01', visits: 3, uniqueVisitors: 2 }] })).toBe(
      '\uFEFFDate,Visits,Unique visitors\r\n2026-11-01,3,2\r\n',
    );
    expect(roomsCsv({ rooms: [{ name: 'Kitchen', seconds: 110, visits: 2 }] })).toContain('Kitchen,110,2,55');
  });

  it('reads recipients separated by commas, spaces or lines, dropping repeats, and names the first bad one', () => {
    expect(parseRecipients('a@example.com, b@example.com\nA@example.com')).toEqual({
      recipients: ['a@example.com', 'b@example.com'],
    });
    expect(parseRecipients('a@example.com; nope')).toEqual({ error: '"nope" is not an e-mail address.' });
    expect(parseRecipients('  ')).toEqual({ error: 'Enter at least one e-mail address to send the report to.' });
    expect(parseRecipients(Array.from({ length: 11 }, (_v, i) => `s${i}@example.com`).join(' '))).toEqual({
      error: 'A report can go to at most 10 addresses.',
    });
  });

  it('says when the digest goes out', () => {
    expect(digestWhen('WEEKLY', 1)).toBe('Every Monday at 07:00 UTC');
    expect(digestWhen('MONTHLY', 3)).toBe('Every month on day 3 at 07:00 UTC');
    expect(digestWhen('WEEKLY', 5, 'Africa/Johannesburg')).toBe('Every Friday at 07:00 Africa/Johannesburg time');
    expect(digestWhen('MONTHLY', 1, 'America/Los_Angeles')).toBe(
      'Every month on day 1 at 07:00 America/Los Angeles time',
    );
  });
});
