// The decode planner: which frames to decode next, in which passes, in what order, and which running passes have
// gone stale. Pure functions over a snapshot of the decoder's state (no worker, no cache object, no DOM), so they
// are unit-tested under Vitest without a browser (decode-planner.unit.test.ts).
import { CACHE_BUDGET, DECODE_WINDOW } from '../constants.js';
import type { Rendition } from '../workers/decode-types.js';

/** A high clip expected to take longer than this to download is fetched apart, with the 360p frame decoded first. */
const SLOW_HIGH_FETCH_MS = 50;

/** One decode pass: frames `from`..`to` (clip-local) of one clip and rendition. */
export interface Job {
  rendition: Rendition;
  clip: number;
  from: number;
  to: number;
  /** Keyframe only, on the worker's separate keyframe decoder (a placeholder). */
  keyframe?: boolean;
}

/** A set of frames or clips as the planner reads it (a Set, a Map, their read-only views). */
type Holds = { has(n: number): boolean };

/** The downloads as highPlannable reads them (clip-prefetcher.ts): the high clips here, the recent fetch times. */
export interface Downloads {
  highReady: Holds;
  highFetchMs: number | null;
  lowFetchMs: number | null;
}

/** What the planner reads of the decoder's state: data, read as it is now (no call goes back to the decoder). */
export interface PlanState {
  /**
   * Start frame and frame count of every clip (frame-math's clipStarts / clipFrameCounts), and each tour frame's clip
   * (frameClips).
   */
  starts: readonly number[];
  counts: readonly number[];
  clipOf: ArrayLike<number>;
  /** The playhead, and where decoding is centred (the playhead, or a fast travel's destination). */
  position: number;
  focus: number;
  /** 1 forward, -1 backward. */
  direction: number;
  highEnabled: boolean;
  /** After a jump, until its exact frame lands, that frame's pass starts at it and runs alone. */
  jumping: boolean;
  /** Tour frames decoded (kept in the cache: its read-only view) and on their way (in a running pass), per rendition. */
  decoded: Readonly<Record<Rendition, Holds>>;
  pending: Readonly<Record<Rendition, Holds>>;
  /** Per clip, its keyframe thumbnail where it has one. */
  thumbnails: readonly unknown[];
  /** Whether a high decode of a clip can be planned (its file is here, or the link brings it quickly): highPlannable. */
  downloads: Downloads;
}

/**
 * Planned passes in priority order, the high clips to fetch beside the decodes, the rendition wanted first at the
 * focus, and where the focus is (its clip and the frame inside it: a pass over that clip waits for that frame first).
 */
export interface Plan {
  jobs: Job[];
  fetch: number[];
  exactR: Rendition;
  focusAt: { clip: number; local: number };
}

/**
 * A high clip's decode can be planned: downloaded (by a decode or a prefetch; a worker that has not seen it reads it
 * from the browser's HTTP cache, clips being immutable), or expected within SLOW_HIGH_FETCH_MS (a high clip ≈ 4 low
 * ones). On a slow link a high frame of any other clip is not planned as a decode, which would hold a worker while the
 * clip downloads: the clip is fetched beside the decodes instead, and until it is here the low frame at the playhead
 * is decoded first, so a jump shows the exact frame at 360p rather than the blurred thumbnail while the 720p clip
 * comes. On a fast link the decode fetches its clip itself (one step less; the 360p pass would only take the CPU from
 * the 720p one).
 */
export function highPlannable(ready: boolean, highFetchMs: number | null, lowFetchMs: number | null): boolean {
  if (ready) return true;
  const expected = highFetchMs ?? (lowFetchMs === null ? Number.POSITIVE_INFINITY : lowFetchMs * 4);
  return expected <= SLOW_HIGH_FETCH_MS;
}

/** Jobs in priority order for the focus and direction (see the comments inside for the order). */
export function planJobs(s: PlanState): Plan {
  const jobs: Job[] = [];
  const last = s.starts.length ? (s.starts.at(-1) ?? 0) + (s.counts.at(-1) ?? 0) - 1 : -1;
  if (last < 0) return { jobs, fetch: [], exactR: 'low', focusAt: { clip: 0, local: 0 } };
  const p = Math.min(s.focus, last);
  const pos = Math.min(s.position, last);
  const d = s.direction;
  const has = (r: Rendition, f: number) => s.decoded[r].has(f);
  const pending = (r: Rendition, f: number) => s.pending[r].has(f);
  const { highReady, highFetchMs, lowFetchMs } = s.downloads;
  const plannable = (c: number) => highPlannable(highReady.has(c), highFetchMs, lowFetchMs);
  // A frame of the tour (0..last): its clip, read from the tour's table, and the frame inside it.
  const where = (f: number) => {
    const clip = s.clipOf[Math.max(0, Math.min(f, last))] ?? 0;
    return { clip, local: f - (s.starts[clip] ?? 0) };
  };
  const want = (r: Rendition, a: number, b: number) => {
    const lo = Math.max(0, Math.min(a, b));
    const hi = Math.min(last, Math.max(a, b));
    // Walk from the playhead outwards in the direction of travel, one clip at a time.
    const frames: number[] = [];
    if (d > 0 || a === b) for (let f = lo; f <= hi; f++) frames.push(f);
    else for (let f = hi; f >= lo; f--) frames.push(f);
    let current: Job | undefined;
    for (const f of frames) {
      if (has(r, f) || pending(r, f)) continue;
      const { clip, local } = where(f);
      if (current && current.clip === clip && current.rendition === r) {
        current.from = Math.min(current.from, local);
        current.to = Math.max(current.to, local);
      } else {
        current = { rendition: r, clip, from: local, to: local };
        jobs.push(current);
      }
    }
  };
  const ahead = (n: number) => p + d * n;
  const behind = (n: number) => p - d * n;
  const w = DECODE_WINDOW;
  const exactMissing = !has(s.highEnabled ? 'high' : 'low', pos);
  // 0. Nothing of the playhead's clip decoded yet (a jump, the first frame): its low keyframe,
  //    decoded beside any running work, is on screen within a refresh or so.
  const { clip: posClip } = where(pos);
  const posStart = s.starts[posClip] ?? 0;
  const posEnd = posStart + (s.counts[posClip] ?? 1) - 1;
  let haveAny = false;
  for (let f = posStart; f <= posEnd && !haveAny; f++) haveAny = has('low', f) || has('high', f);
  const placeholder: Job | undefined =
    exactMissing && !haveAny && !s.thumbnails[posClip] && !pending('low', posStart)
      ? { rendition: 'low', clip: posClip, from: 0, to: 0, keyframe: true }
      : undefined;
  const focusAt = where(p);
  const pc = focusAt.clip;
  const pcStart = s.starts[pc] ?? 0;
  // The rendition wanted first at the focus: high once its clip is here, low while it downloads.
  const exactR: Rendition = s.highEnabled && plannable(pc) ? 'high' : 'low';
  // 1. The exact frame and the frames ahead of it, then the low frame at the playhead as a
  //    better placeholder, then the frames behind and the low frames ahead.
  if (s.highEnabled) {
    if (exactR === 'low') want('low', p, p);
    want('high', p, ahead(w.highAhead));
    want('high', p, behind(w.highBehind));
    want('low', p, ahead(w.lowAhead));
  } else {
    want('low', p, ahead(w.highAhead));
    want('low', p, behind(w.highBehind));
  }
  // Grow each job to cover its clip's share of the window so one decode pass serves many frames.
  // After a jump the exact frame's pass starts its copies at that frame; the frames behind it
  // in its clip come in a pass of their own once it has landed.
  const merged: Job[] = [];
  const exactAlone = s.jumping && !has(exactR, p);
  for (const j of jobs) {
    const same = merged.find(
      (m) =>
        m.clip === j.clip && m.rendition === j.rendition && !(exactAlone && m.clip === pc && m.rendition === exactR),
    );
    if (same) {
      same.from = Math.min(same.from, j.from);
      same.to = Math.max(same.to, j.to);
    } else merged.push({ ...j });
  }
  if (d < 0)
    for (const m of merged) {
      // Backward, a pass into a clip behind the playhead's decodes from that clip's keyframe whatever frame it copies
      // from, and its frames come out in the opposite order to the one they are needed in. So it copies every frame
      // it decodes, from the keyframe: the clip is decoded once, as soon as the window reaches it, not once per chunk
      // (a chunk of the clip's top frames, then its lower frames in a second pass from the keyframe: 48 frames decoded
      // for 36, which Firefox's decoder, a third of Chromium's speed, could not keep up with at 60 a second).
      if (m.clip < pc && !m.keyframe) m.from = 0;
    }
  if (!has(exactR, p) && !pending(exactR, p)) {
    // Going backward the exact frame is the last of its pass: copying the frames before it first (from the clip
    // start) held it back by up to 35 frame copies. Its pass is that frame alone (decoded from the keyframe before
    // it); the rest of its clip is planned once it has landed. (A frame already on its way in a running pass, as
    // in continuous scrubbing, is left to that pass.)
    const local = p - pcStart;
    const m = merged.find((j) => j.clip === pc && j.rendition === exactR && j.from <= local && local <= j.to);
    if (m && m.from < local) {
      m.from = local;
      m.to = local;
    }
  }
  if (placeholder) {
    // The window jobs of that clip skip its keyframe, which the placeholder delivers.
    for (const m of merged)
      if (m.clip === placeholder.clip && m.rendition === 'low' && m.from === 0) m.from = Math.min(1, m.to);
    merged.unshift(placeholder);
  }
  // High frames of a clip that is not downloaded yet: fetch it (beside the decodes), decode once it is here.
  const fetch: number[] = [];
  const planned = merged.filter((j) => {
    if (j.rendition !== 'high' || plannable(j.clip)) return true;
    if (!fetch.includes(j.clip)) fetch.push(j.clip);
    return false;
  });
  return { jobs: planned, fetch, exactR, focusAt };
}

/** A running pass whose frames have all left the windows around the focus (and that does not carry the destination). */
export function isStale(
  job: Job,
  o: { start: number; focus: number; direction: number; highEnabled: boolean; destination: number | null },
): boolean {
  if (job.keyframe) return false;
  const w = DECODE_WINDOW;
  const a = o.start + job.from;
  const b = o.start + job.to;
  const high = job.rendition === 'high' || !o.highEnabled;
  const ahead = high ? w.highAhead : w.lowAhead;
  const behind = high ? w.highBehind : 0;
  const lo = o.direction > 0 ? o.focus - behind : o.focus - ahead;
  const hi = o.direction > 0 ? o.focus + ahead : o.focus + behind;
  const dest = o.destination;
  const coversDestination = dest !== null && a <= dest && dest <= b;
  return (b < lo || a > hi) && !coversDestination;
}

/** Keyframe thumbnail size: all clips' thumbnails fit the thumbnail budget, 64 to 320 px wide. */
/**
 * The cache's byte budgets: without high frames the low rendition gets both budgets (and the high window sizes), or on
 * a device under 4 GB its own smaller one.
 */
export function cacheBudget(highEnabled: boolean, highCapable: boolean): Record<Rendition, number> {
  const b = CACHE_BUDGET;
  return highEnabled
    ? { high: b.highBytes, low: b.lowBytes }
    : { high: 0, low: highCapable ? b.highBytes + b.lowBytes : b.lowMemoryBytes };
}

export function thumbnailSize(clipCount: number, aspect = 16 / 9): { width: number; height: number } {
  const px = CACHE_BUDGET.thumbnailBytes / 4 / Math.max(1, clipCount);
  const width = Math.max(64, Math.min(320, Math.floor(Math.sqrt(px * aspect))));
  return { width, height: Math.max(1, Math.round(width / aspect)) };
}

/**
 * The buffered prefix: frames up to the first clip whose low rendition is not fetched yet (all of them when every one
 * is).
 */
export function bufferedFrames(prefetched: readonly boolean[], starts: readonly number[], total: number): number {
  let i = 0;
  while (i < prefetched.length && prefetched[i]) i++;
  return Math.min(i >= prefetched.length ? total : (starts[i] ?? 0), total);
}
