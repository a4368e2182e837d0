/** The account page's rules: pure, tested in account-rules.test.ts. */
import { PLAN_IDS, isFreeTrial, planById } from '@roomwalk/shared';

/**
 * Up to two initials for the avatar: name and surname, else the first letter of the fallback (the e-mail), else "?".
 */
export function initials(name?: string | null, surname?: string | null, fallback = ''): string {
  const i = `${name?.trim()[0] ?? ''}${surname?.trim()[0] ?? ''}`.toUpperCase();
  return i || fallback.trim()[0]?.toUpperCase() || '?';
}

/** A licence date as the page shows it ("27 Nov 2026"), or a dash. */
export const dateText = (iso: string | null | undefined): string =>
  iso ? new Date(iso).toLocaleDateString('en-ZA', { year: 'numeric', month: 'short', day: 'numeric' }) : '—';

/** Where the payment page sent the user back to, if it did. */
export function paymentReturnOf(pathname: string): 'success' | 'cancel' | null {
  return pathname === '/profile/success' ? 'success' : pathname === '/profile/cancel' ? 'cancel' : null;
}

/** The Offline License is granted by us, not bought: it has no Manage button and its own note. */
export const isOfflineLicense = (planName: string | undefined): boolean =>
  planName === planById(PLAN_IDS.offline)!.planName;

/**
 * The note under My Plan: the Offline License's, or, for a member (not an admin) on a paid plan, that the company's
 * admin manages it; none otherwise.
 */
export function planNote(planName: string | undefined, admin: boolean): 'offline' | 'member' | null {
  if (isOfflineLicense(planName)) return 'offline';
  if (planName && !isFreeTrial(planName) && !admin) return 'member';
  return null;
}

/** Manage (the billing portal) is for an admin of a paid plan that is not the Offline License. */
export const canManagePlan = (planName: string | undefined, admin: boolean): boolean =>
  !!planName && !isFreeTrial(planName) && admin && !isOfflineLicense(planName);
