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

/**
 * A decode worker's per-request events, most recent last (at most TRACE_MAX): `[ms since the epoch, event, request id,
 * detail]`, on the same clock as the marks. The engines bench reads it (comlink GET of `trace`) to print where each
 * jump's time went (queued behind another decode, the clip, feeding, the frame out of the decoder, copied, made a
 * bitmap, sent); nothing in the player reads it.
 */
export const trace: [number, string, number, number?][] = [];
const TRACE_MAX = 2000;

export function traceEvent(event: string, id: number | undefined, detail?: number): void {
  if (id === undefined) return;
  if (trace.length >= TRACE_MAX) trace.splice(0, TRACE_MAX / 2);
  trace.push([performance.timeOrigin + performance.now(), event, id, detail]);
}
