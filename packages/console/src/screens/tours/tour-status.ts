/** Tour lifecycle as the console reads it: PROCESSED and FAILED, anything else is processing. */
import { TOUR_STATUS, cutOffRecordingText } from '@roomwalk/shared';

export type TourPhase = 'processed' | 'failed' | 'processing';

export function tourPhase(status: string | null | undefined): TourPhase {
  if (status === TOUR_STATUS.PROCESSED) return 'processed';
  if (status === TOUR_STATUS.FAILED) return 'failed';
  return 'processing';
}

/**
 * What a tour made from a cut-off recording says on its card and in Tour Info ("Only the first 16 s of 1 min could be
 * read; the rest of the file was missing."); null for a whole recording.
 */
export function cutOffNote(
  info: { keptSeconds?: number | null; declaredSeconds?: number | null } | null | undefined,
): string | null {
  if (typeof info?.keptSeconds !== 'number' || typeof info.declaredSeconds !== 'number') return null;
  return cutOffRecordingText(info.keptSeconds, info.declaredSeconds);
}

/** A percentage for the processing card: 0 to 100, whole. */
export const clampPercent = (n: number | null | undefined): number =>
  Math.max(0, Math.min(100, Math.round(Number(n) || 0)));
