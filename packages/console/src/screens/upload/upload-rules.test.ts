import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { UPLOAD_ERRORS, errorKindOf } from './upload-rules.js';

describe('upload rules', () => {
  it('a failure opens the dialog of its code: length and resolution their own, everything else the general one', () => {
    expect(errorKindOf(ERROR_CODES.VIDEO_TOO_SHORT)).toBe('short');
    expect(errorKindOf(ERROR_CODES.VIDEO_TOO_LONG)).toBe('long');
    expect(errorKindOf(ERROR_CODES.VIDEO_RESOLUTION_LOW)).toBe('resolution');
    expect(errorKindOf(ERROR_CODES.UNAUTHENTICATED)).toBe('general');
    expect(errorKindOf(undefined)).toBe('general');
  });

  it('only the general failure retries the same file; the others pick a new one', () => {
    expect(
      Object.entries(UPLOAD_ERRORS)
        .filter(([, e]) => !e.pickNew)
        .map(([k]) => k),
    ).toEqual(['general']);
  });
});
