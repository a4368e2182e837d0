import { describe, expect, it } from 'vitest';
import { parentTargets } from './host-bridge-controller.js';

const ALLOWED = ['https://listing.example', 'https://www.other-listing.example'];

describe('parentTargets: where a notice to the parent page goes', () => {
  it('goes only to the parent origin when the iFrame Code lists two (Firefox logs an error for each other one)', () => {
    expect(parentTargets(ALLOWED, undefined, 'https://www.other-listing.example/homes/12?x=1')).toEqual([
      'https://www.other-listing.example',
    ]);
    expect(parentTargets(ALLOWED, 'https://listing.example', '')).toEqual(['https://listing.example']);
  });

  it('prefers the ancestor origin to the referrer', () => {
    expect(parentTargets(ALLOWED, 'https://listing.example', 'https://www.other-listing.example/')).toEqual([
      'https://listing.example',
    ]);
  });

  it('posts nothing to a parent that is not allowed', () => {
    expect(parentTargets(ALLOWED, undefined, 'https://evil.example/page')).toEqual([]);
    expect(parentTargets(ALLOWED, 'https://evil.example', '')).toEqual([]);
  });

  it('falls back to each allowed origin when the parent cannot be known (no referrer)', () => {
    expect(parentTargets(ALLOWED, undefined, '')).toEqual(ALLOWED);
    expect(parentTargets(ALLOWED, 'null', 'not a url')).toEqual(ALLOWED);
  });
});
