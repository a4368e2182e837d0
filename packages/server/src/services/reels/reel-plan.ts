/**
 * What a reel is made of: its format (a vertical 1080x1920 video at 24 fps, an end card of 3 s) and the parts of the
 * tour it shows, picked by a seed so each reel of a tour differs.
 */

export const REEL_SIZE = { width: 1080, height: 1920 } as const;
export const REEL_FPS = 24;
export const END_CARD_SECONDS = 3;
/** Body (segments) length aimed at; with the end card a reel lasts 15 to 30 s. */
const BODY_SECONDS = 16;

/** Small deterministic PRNG (mulberry32), so one seed always gives the same reel. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ReelSegment {
  start: number;
  length: number;
  caption: string | null;
  panFrom: number;
  panTo: number;
}

/** Which parts of the video the reel shows: around the markers (in order), topped up with evenly spread ones. */
export function planSegments(
  duration: number,
  markers: Array<{ time: number; name: string }>,
  seed: number,
): ReelSegment[] {
  const random = rng(seed);
  const sorted = [...markers].filter((m) => m.time >= 0 && m.time < duration).sort((a, b) => a.time - b.time);
  let picks: Array<{ time: number; name: string | null }> = sorted;
  if (picks.length > 6) {
    // Keep six spread over the tour; the seed decides which of the neighbours.
    const step = picks.length / 6;
    picks = Array.from(
      { length: 6 },
      (_, i) => sorted[Math.min(sorted.length - 1, Math.floor(i * step + random() * step))]!,
    );
  }
  const count = Math.max(3, picks.length);
  const length = Math.max(2.5, Math.min(5, BODY_SECONDS / count, duration));
  if (picks.length < 3) {
    const even = Array.from({ length: 3 }, (_, i) => ({
      time: ((duration - length) * (i + 0.5)) / 3,
      name: null as string | null,
    }));
    picks = [...picks, ...even.filter((e) => picks.every((p) => Math.abs(p.time - e.time) > length))]
      .slice(0, 3)
      .sort((a, b) => a.time - b.time);
    while (picks.length < 3) picks.push({ time: random() * Math.max(0, duration - length), name: null });
  }
  return picks.map((p) => {
    const jitter = random() * Math.min(1, length / 3);
    const start = Math.max(0, Math.min(duration - length, p.time + jitter));
    const leftToRight = random() < 0.5;
    const a = 0.1 + random() * 0.2;
    const b = 0.7 + random() * 0.2;
    return { start, length, caption: p.name, panFrom: leftToRight ? a : b, panTo: leftToRight ? b : a };
  });
}
