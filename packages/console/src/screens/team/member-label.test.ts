import { describe, expect, it } from 'vitest';
import { memberLabel } from './team-page.js';

describe('team', () => {
  it('member labels', () => {
    expect(memberLabel({ accepted: false })).toBe('Pending');
    expect(memberLabel({ accepted: true, user: { isAdmin: false } })).toBe('Standard User');
    expect(memberLabel({ accepted: true, user: { isAdmin: true } })).toBe('Admin User');
  });
});
