/**
 * A worker's first-time marks (its script running, the decoder warmed, the first clip's bytes, the first frame
 * decoded, copied, made a bitmap), each the first time only, in ms since the epoch on the clock every thread shares
 * (`timeOrigin + now`), so they line up with the page's. The bench's first-frame breakdown reads them through the
 * worker's comlink API (`stats().timeline`); nothing in the player reads them. Also `performance.mark`s, for a profiler.
 */
export const timeline: Record<string, number> = {};

export function mark(name: string): void {
  if (name in timeline) return;
  timeline[name] = performance.timeOrigin + performance.now();
  performance.mark(`tour-player:${name}`);
}
