/**
 * How a stretch of time is written wherever a visit's rooms are shown (lead mail, console notice, Tour Analytics,
 * seller report): "40 s", "1 min 30 s", "2 min", "1 h", "2 h 5 min".
 */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return rest > 0 ? `${m} min ${rest} s` : `${m} min`;
}

/** A share (0 to 1) as the analytics screens, the seller report and its digest write it: "45 %". */
export const formatPercent = (rate: number): string => `${Math.round(Math.max(0, Math.min(1, rate)) * 100)} %`;

/** A count with its noun, singular for one: "1 visit", "2 visits", "1 hour"; `plural` where adding "s" is wrong. */
export const countOf = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

/**
 * What the owner is told of a tour made from a cut-off recording (the file ended before the length its index declares):
 * "Only the first 16 s of 1 min could be read; the rest of the file was missing." On the card, in Tour Info and by mail.
 */
export function cutOffRecordingText(keptSeconds: number, declaredSeconds: number): string {
  return `Only the first ${formatDuration(keptSeconds)} of ${formatDuration(declaredSeconds)} could be read; the rest of the file was missing.`;
}
