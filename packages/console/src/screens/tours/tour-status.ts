/** Tour lifecycle as the console reads it (tours §4): PROCESSED and FAILED, anything else is processing. */
import { TOUR_STATUS } from '@roomwalk/shared';

export type TourPhase = 'processed' | 'failed' | 'processing';

export function tourPhase(status: string | null | undefined): TourPhase {
  if (status === TOUR_STATUS.PROCESSED) return 'processed';
  if (status === TOUR_STATUS.FAILED) return 'failed';
  return 'processing';
}

/** A percentage for the processing card: 0 to 100, whole. */
export const clampPercent = (n: number | null | undefined): number =>
  Math.max(0, Math.min(100, Math.round(Number(n) || 0)));
