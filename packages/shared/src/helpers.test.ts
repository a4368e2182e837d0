import { describe, expect, it } from 'vitest';
import {
  canUpload,
  countOf,
  decodeToken,
  formatPrice,
  formatTexts,
  hasActiveTourSlot,
  hasHigherPlan,
  hasUploadSlot,
  highestPlanLevel,
  isAdmin,
  isAdminWithProPlan,
  isBasicOrHigher,
  isEntryOrHigher,
  isPaidPlan,
  isProPlan,
  isSuperAdmin,
  isTokenValid,
  PLANS,
  shownUploadLimit,
  tokenRoles,
  errorCodeOf,
} from './index.js';

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
const jwt = (claims: unknown) => `${b64({ alg: 'HS256' })}.${b64(claims)}.sig`;

describe('roles and plan levels', () => {
  it('reads admin, super admin and plan helpers', () => {
    expect(isAdmin(['admin'])).toBe(true);
    expect(isAdmin(['superadmin'])).toBe(true);
    expect(isAdmin(['pro'])).toBe(false);
    expect(isSuperAdmin(['admin'])).toBe(false);
    expect(isProPlan(['offlicenselicense'])).toBe(true);
    expect(isBasicOrHigher(['basic'])).toBe(true);
    expect(isBasicOrHigher(['entry'])).toBe(false);
    expect(isEntryOrHigher(['entry'])).toBe(true);
    expect(isPaidPlan(['free'])).toBe(false);
    expect(isAdminWithProPlan(['admin', 'pro'])).toBe(true);
    expect(isAdminWithProPlan(['admin', 'basic'])).toBe(false);
  });
  it('orders plan levels Offline License, Pro, Basic, Entry, Free', () => {
    expect(highestPlanLevel(['entry', 'offlicenselicense', 'pro'])).toBe('offlicenselicense');
    expect(highestPlanLevel(['basic', 'pro'])).toBe('pro');
    expect(highestPlanLevel(['entry', 'basic'])).toBe('basic');
    expect(highestPlanLevel(['entry'])).toBe('entry');
    expect(highestPlanLevel(['admin'])).toBe('free');
    expect(highestPlanLevel(null)).toBe('unauthenticated');
  });
});

describe('upgrade offer', () => {
  it('offers a higher plan below Pro only: never on Pro or the Offline License', () => {
    expect(['Free Trial', 'Entry', 'Basic'].map(hasHigherPlan)).toEqual([true, true, true]);
    expect(hasHigherPlan('Pro')).toBe(false);
    expect(hasHigherPlan('Offline License')).toBe(false);
  });
});

describe('quotas', () => {
  const l = { quantity: 5, monthlyActiveTours: 4, uploadLimit: 10, monthlyUploadedTours: 10 };
  it('has an active slot while quantity minus active is above 0', () => {
    expect(hasActiveTourSlot(l)).toBe(true);
    expect(hasActiveTourSlot({ ...l, monthlyActiveTours: 5 })).toBe(false);
  });
  it('has an upload slot while uploadLimit minus uploaded is above 0', () => {
    expect(hasUploadSlot(l)).toBe(false);
    expect(hasUploadSlot({ ...l, monthlyUploadedTours: 9 })).toBe(true);
  });
  it('gates upload on a licence with both slots', () => {
    expect(canUpload(null)).toBe(false);
    expect(canUpload({ ...l, monthlyUploadedTours: 0 })).toBe(true);
  });
  it('shows twice upTo as the upload limit', () => {
    expect(shownUploadLimit(20)).toBe(40);
  });
  it('keeps the plan catalogue consistent', () => {
    expect(PLANS.filter((p) => p.sold).map((p) => p.tierName)).toEqual(['Free', 'Entry', 'Basic', 'Pro']);
    expect(PLANS.find((p) => p.id === 'free')?.planName).toBe('Free Trial');
  });
});

describe('price display', () => {
  it('divides by 100 and separates thousands with a space', () => {
    expect(formatPrice(149_900)).toBe('1 499');
    expect(formatPrice(1_234_567_89, 'R')).toBe('R1 234 567.89');
    expect(formatPrice(0)).toBe('0');
  });
});

describe('token validity', () => {
  const now = 1_800_000_000_000;
  it('needs a decodable token with a non-empty roles array that has not expired', () => {
    expect(isTokenValid(jwt({ roles: ['free'], exp: now / 1000 + 60 }), now)).toBe(true);
    expect(isTokenValid(jwt({ roles: [], exp: now / 1000 + 60 }), now)).toBe(false);
    expect(isTokenValid(jwt({ exp: now / 1000 + 60 }), now)).toBe(false);
    expect(isTokenValid(jwt({ roles: ['free'], exp: now / 1000 - 1 }), now)).toBe(false);
    expect(isTokenValid('garbage', now)).toBe(false);
    expect(isTokenValid(null, now)).toBe(false);
  });
  it('decodes claims and roles', () => {
    expect(tokenRoles(decodeToken(jwt({ roles: ['pro', 'admin'] })))).toEqual(['pro', 'admin']);
    expect(tokenRoles(decodeToken(jwt({ roles: [1] })))).toBeNull();
  });
});

describe('texts with parameters', () => {
  it('writes a count with its noun, singular for one only', () => {
    expect(countOf(1, 'visit')).toBe('1 visit');
    expect(countOf(2, 'visit')).toBe('2 visits');
    expect(countOf(0, 'hour')).toBe('0 hours');
    expect(countOf(1, 'active tour')).toBe('1 active tour');
    expect(countOf(3, 'address', 'addresses')).toBe('3 addresses');
  });
  it('formats views, reels and the team label', () => {
    expect(formatTexts.views(1)).toBe('1 view');
    expect(formatTexts.views(3)).toBe('3 views');
    expect(formatTexts.reelFailed(2)).toBe('Generation Failed Reel 2');
    expect(formatTexts.teamLabel('Bartholomew Montgomery')).toBe('Bartholomew Mon...');
    expect(formatTexts.teamLabel('Ann')).toBe('Ann');
    expect(formatTexts.shareText('Loft')).toBe('Check out this Roomwalk Walkthrough: Loft');
  });
  it('reads error codes from GraphQL errors', () => {
    expect(errorCodeOf({ extensions: { code: 'TOUR_REMOVED' } })).toBe('TOUR_REMOVED');
    expect(errorCodeOf({ extensions: { code: 'WHAT' } })).toBe('INTERNAL');
  });
});
