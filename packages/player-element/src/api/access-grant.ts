/**
 * A password tour's access grant for this browser session: sessionStorage, guarded (a cross-site iframe
 * whose browser blocks storage keeps it in memory for the page). The tour query and the visit beacons carry it.
 */
import { guardedStorage } from '@roomwalk/shared/guarded-storage';

const session = guardedStorage('sessionStorage');
const grantKey = (tourId: string) => `roomwalk.tourAccess.${tourId}`;

/** This session's grant for the tour, if its password was given. */
export function grantFor(tourId: string): string | undefined {
  return session.getItem(grantKey(tourId)) ?? undefined;
}

export function keepGrant(tourId: string, grant: string): void {
  session.setItem(grantKey(tourId), grant);
}

export function dropGrant(tourId: string): void {
  session.removeItem(grantKey(tourId));
}
