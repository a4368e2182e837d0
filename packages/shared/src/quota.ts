/** Quota math of accounts §9 and tours §9. */
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
/** Whether the Add button may go to /upload (tours §2). */
export const canUpload = (l: LicenseCounts | null | undefined): boolean => !!l && hasActiveTourSlot(l) && hasUploadSlot(l);
