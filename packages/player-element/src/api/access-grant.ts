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

const waitKey = (tourId: string) => `roomwalk.leadGate.${tourId}`;

/** The lead this session waits with at the tour's lead gate (`<lead id> <wait token>`): a reload waits again. */
export function waitingLead(tourId: string): string | null {
  return session.getItem(waitKey(tourId));
}

export function keepWaitingLead(tourId: string, value: string | null): void {
  if (value) session.setItem(waitKey(tourId), value);
  else session.removeItem(waitKey(tourId));
}
