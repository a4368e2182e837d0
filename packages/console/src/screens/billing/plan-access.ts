/**
 * Plan checks that also look at the licence the API returns: the token's roles are fixed when it is issued, so
 * right after an upgrade the licence knows the new plan before the token does.
 */
import { isBasicOrHigher, planByName } from '@roomwalk/shared';

export function basicOrHigher(roles: readonly string[], planName: string | null | undefined): boolean {
  const planRole = planName ? planByName(planName)?.role : undefined;
  return isBasicOrHigher(roles) || (!!planRole && isBasicOrHigher([planRole]));
}
