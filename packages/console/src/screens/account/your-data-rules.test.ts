import { describe, expect, it } from 'vitest';
import { exportRunning, exportView, graceText, scheduledText, type ExportState } from './your-data-rules.js';

const base: ExportState = {
  status: 'DONE',
  progress: 100,
  progressText: 'Ready',
  error: null,
  downloadURL: null,
  expiresAt: null,
};

describe('your data rules', () => {
  it('reads the export again only while it is queued or running', () => {
    expect(exportRunning({ status: 'QUEUED' })).toBe(true);
    expect(exportRunning({ status: 'RUNNING' })).toBe(true);
    expect(exportRunning({ status: 'DONE' })).toBe(false);
    expect(exportRunning(null)).toBe(false);
  });

  it('shows progress, the download until its expiry, an expired link, or the failure', () => {
    expect(exportView(null)).toEqual({ kind: 'none' });
    expect(exportView({ ...base, status: 'RUNNING', progress: 130, progressText: 'Packing' })).toEqual({
      kind: 'running',
      percent: 100,
      text: 'Packing',
    });
    const ready = exportView({
      ...base,
      downloadURL: 'https://x/data-export/1?e=1&s=2',
      expiresAt: '2026-12-03T10:00:00Z',
    });
    expect(ready).toMatchObject({ kind: 'ready', url: 'https://x/data-export/1?e=1&s=2' });
    expect(ready.kind === 'ready' && ready.until).toMatch(/3 December 2026/);
    expect(exportView(base)).toEqual({ kind: 'expired' });
    expect(exportView({ ...base, status: 'FAILED', error: null })).toEqual({
      kind: 'failed',
      error: 'Your export could not be made. Try again in a moment.',
    });
  });

  it('tells the date and how to cancel', () => {
    expect(scheduledText('2026-12-27T12:00:00Z')).toMatch(
      /^Your account will be deleted on 27 December 2026\. .*Sign in before then/,
    );
    expect(graceText(30)).toBe(
      'You will be signed out now. For 30 days nothing is deleted: sign in during that time to cancel.',
    );
  });
});
