import { describe, expect, it } from 'vitest';
import { hasSignupParams, stripSignupParams } from './signup-params.js';

describe('sign-up parameters', () => {
  it('sign-up parameters are stripped from the query, others kept', () => {
    expect(hasSignupParams('?rB=x')).toBe(true);
    expect(stripSignupParams('?inviteToken=a&rB=b&gToken=c')).toBe('');
    expect(stripSignupParams('?inviteToken=a&utm=z')).toBe('?utm=z');
  });
});
