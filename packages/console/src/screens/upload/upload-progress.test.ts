import { describe, expect, it } from 'vitest';
import { formatSpeed, formatTimeLeft, progressLine } from './upload-progress.js';

describe('upload progress line', () => {
  it('shows percentage, speed and time left; Resuming… after a drop; Measuring speed… before the first figure', () => {
    expect(progressLine({ percent: 42, bytesPerSecond: 3_140_000, secondsLeft: 95, resuming: false })).toBe(
      '42% · 3.1 MB/s · about 2 min left',
    );
    expect(progressLine({ percent: 42, bytesPerSecond: 3_140_000, secondsLeft: 95, resuming: true })).toBe(
      '42% · Resuming…',
    );
    expect(progressLine({ percent: 0, bytesPerSecond: null, secondsLeft: null, resuming: false })).toBe(
      '0% · Measuring speed…',
    );
    expect(progressLine({ percent: 100, bytesPerSecond: null, secondsLeft: null, resuming: false })).toBe('100%');
  });
  it('says the device is preparing the video while it converts, then the upload', () => {
    expect(progressLine({ phase: 'preparing', percent: 40 })).toBe('Preparing video on this device… 40%');
    expect(
      progressLine({
        phase: 'uploading',
        percent: 7,
        bytesUploaded: 1,
        bytesTotal: 2,
        bytesPerSecond: null,
        secondsLeft: null,
        resuming: false,
      }),
    ).toBe('7% · Measuring speed…');
  });
  it('words speeds and times', () => {
    expect(formatSpeed(45_000)).toBe('45 KB/s');
    expect(formatSpeed(25_400_000)).toBe('25 MB/s');
    expect(formatTimeLeft(12.4)).toBe('12 s left');
    expect(formatTimeLeft(3 * 3600 + 20 * 60)).toBe('about 3 h 20 min left');
  });
});
