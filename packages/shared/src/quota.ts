/** Quota math: what a licence leaves of its active tours (`quantity`) and of this month's uploads (`uploadLimit`). */
export interface LicenseCounts {
  quantity: number;
  monthlyActiveTours: number;
  uploadLimit: number;
  monthlyUploadedTours: number;
}

export const activeTourSlotsLeft = (l: LicenseCounts): number => l.quantity - l.monthlyActiveTours;
export const uploadsLeft = (l: LicenseCounts): number => l.uploadLimit - l.monthlyUploadedTours;
/** An active-tour slot is available when quantity minus monthlyActiveTours is above 0. */
export const hasActiveTourSlot = (l: LicenseCounts): boolean => activeTourSlotsLeft(l) > 0;
/** An upload slot is available when uploadLimit minus monthlyUploadedTours is above 0. */
export const hasUploadSlot = (l: LicenseCounts): boolean => uploadsLeft(l) > 0;
/** The upload limit shown on a plan card is twice upTo. */
export const shownUploadLimit = (upTo: number): number => upTo * 2;
/** Whether the Add button may go to /upload. */
export const canUpload = (l: LicenseCounts | null | undefined): boolean =>
  !!l && hasActiveTourSlot(l) && hasUploadSlot(l);

/** Most unfinished (unsubmitted) uploads one user may hold at once, whatever the plan. */
export const MAX_OPEN_UPLOADS = 5;

/**
 * Unfinished uploads one user may hold at once: MAX_OPEN_UPLOADS, and announced sizes adding up to no more
 * than one largest video for each tour the plan could still take (active-tour slots and uploads left this period), so
 * uploads that could never all become tours do not tie up storage.
 */
export function openUploadAllowance(l: LicenseCounts, maxVideoBytes: number): { count: number; bytes: number } {
  const tours = Math.max(1, Math.min(MAX_OPEN_UPLOADS, activeTourSlotsLeft(l), uploadsLeft(l)));
  return { count: MAX_OPEN_UPLOADS, bytes: tours * maxVideoBytes };
}
