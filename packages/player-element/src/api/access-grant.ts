/**
 * A password tour's access grant and a lead gate's pass for this browser session: sessionStorage, guarded (a
 * cross-site iframe whose browser blocks storage keeps them in memory for the page). They are two things (a pass is no
 * password grant): the tour query (in its X-Roomwalk-Access header, never its URL) and the visit beacons carry both.
 */
import { guardedStorage } from '@roomwalk/shared/guarded-storage';

const session = guardedStorage('sessionStorage');
const grantKey = (tourId: string) => `roomwalk.tourAccess.${tourId}`;

const passKey = (tourId: string) => `roomwalk.leadPass.${tourId}`;

/**
 * What this session holds for the tour, as the server takes it: its password grant and its lead gate pass,
 * space-separated (either may be missing; undefined when neither is kept).
 */
export function grantFor(tourId: string): string | undefined {
  const held = [session.getItem(grantKey(tourId)), session.getItem(passKey(tourId))].filter(Boolean).join(' ');
  return held || undefined;
}

/** The password grant tourUnlock answered. */
export function keepGrant(tourId: string, grant: string): void {
  session.setItem(grantKey(tourId), grant);
}

/** The pass the lead gate gave (the form's answer, or the agent's approval on the waiting socket). */
export function keepPass(tourId: string, pass: string): void {
  session.setItem(passKey(tourId), pass);
}

/** Forgets the grant and the pass: the tour no longer honours them (its password or access changed). */
export function dropGrant(tourId: string): void {
  session.removeItem(grantKey(tourId));
  session.removeItem(passKey(tourId));
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
