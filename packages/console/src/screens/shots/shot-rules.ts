/** Professional photo rules: which actions a shot offers, and how the screen groups them. */
import { SHOT_STATUS } from '@roomwalk/shared';

export interface ShotLike {
  id: string;
  shotStatus: string;
  roomType?: string | null;
  enhancedImageURI?: string | null;
  stagedImageURI?: string | null;
}

/** Enhance when there is no enhanced image; re-enhance when there is one; nothing while processing. */
export function shotActions(s: ShotLike): { enhance: boolean; reEnhance: boolean; stage: boolean } {
  if (s.shotStatus === SHOT_STATUS.PROCESSING) return { enhance: false, reEnhance: false, stage: false };
  const enhanced = !!s.enhancedImageURI;
  return { enhance: !enhanced, reEnhance: enhanced, stage: enhanced && !s.stagedImageURI };
}

/** Shots grouped by room type, groups in first-seen order; shots without a room type go last under `other`. */
export function groupByRoom<T extends ShotLike>(
  shots: readonly T[],
  other: string,
): Array<{ room: string; shots: T[] }> {
  const groups = new Map<string, T[]>();
  for (const s of shots) {
    const room = s.roomType?.trim() || other;
    groups.set(room, [...(groups.get(room) ?? []), s]);
  }
  const out = [...groups].map(([room, list]) => ({ room, shots: list }));
  return [...out.filter((g) => g.room !== other), ...out.filter((g) => g.room === other)];
}

export const anyProcessing = (shots: readonly ShotLike[]): boolean =>
  shots.some((s) => s.shotStatus === SHOT_STATUS.PROCESSING);
