import { describe, expect, it } from 'vitest';
import { anyProcessing, groupByRoom, shotActions } from './shot-rules.js';

describe('professional photo rules', () => {
  it('offers Enhance without an enhanced image, re-enhance with one, Stage only when enhanced and not staged, nothing while processing', () => {
    expect(shotActions({ id: '1', shotStatus: 'COMPLETED' })).toEqual({
      enhance: true,
      reEnhance: false,
      stage: false,
    });
    expect(shotActions({ id: '1', shotStatus: 'COMPLETED', enhancedImageURI: 'e' })).toEqual({
      enhance: false,
      reEnhance: true,
      stage: true,
    });
    expect(shotActions({ id: '1', shotStatus: 'FAILED', enhancedImageURI: 'e', stagedImageURI: 's' })).toEqual({
      enhance: false,
      reEnhance: true,
      stage: false,
    });
    expect(shotActions({ id: '1', shotStatus: 'PROCESSING' })).toEqual({
      enhance: false,
      reEnhance: false,
      stage: false,
    });
  });
  it('groups by room type with unknown rooms last', () => {
    const g = groupByRoom(
      [
        { id: 'a', shotStatus: 'COMPLETED' },
        { id: 'b', shotStatus: 'COMPLETED', roomType: 'Kitchen' },
        { id: 'c', shotStatus: 'PROCESSING', roomType: 'Kitchen' },
      ],
      'Other',
    );
    expect(g.map((x) => [x.room, x.shots.map((s) => s.id)])).toEqual([
      ['Kitchen', ['b', 'c']],
      ['Other', ['a']],
    ]);
    expect(anyProcessing(g.flatMap((x) => x.shots))).toBe(true);
  });
});
