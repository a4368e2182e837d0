import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@roomwalk/shared';
import { activationOutcome, resetFailureSaysWhy } from './auth-rules.js';

describe('activationOutcome', () => {
  it('activated only with the user back and no error; a second click is already active, anything else failed', () => {
    expect(activationOutcome([], 'user_1')).toBe('activated');
    expect(activationOutcome([ERROR_CODES.ACCOUNT_ALREADY_ACTIVE], null)).toBe('already-active');
    expect(activationOutcome([ERROR_CODES.INVALID_TOKEN], null)).toBe('failed');
    // A request that never reached the server has no code and no user.
    expect(activationOutcome([], null)).toBe('failed');
  });
});

describe('resetFailureSaysWhy', () => {
  it("gives the server's reason for an expired link or a feature not there yet, the general notice otherwise", () => {
    expect(resetFailureSaysWhy(ERROR_CODES.INVALID_TOKEN)).toBe(true);
    expect(resetFailureSaysWhy(ERROR_CODES.NOT_AVAILABLE_YET)).toBe(true);
    expect(resetFailureSaysWhy(ERROR_CODES.BAD_USER_INPUT)).toBe(false);
    expect(resetFailureSaysWhy('NETWORK')).toBe(false);
  });
});
