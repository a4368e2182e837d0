// The decode planner without a browser: which passes come first, how they grow, when they wait or go stale.
import { describe, expect, it } from 'vitest';
import { CACHE_BUDGET, DECODE_WINDOW } from '../constants.js';
import type { Rendition } from '../workers/decode-types.js';
import { frameClips } from '../frame-math.js';
import { batchFor } from './decode-job.js';
import {
  bufferedFrames,
  cacheBudget,
  highPlannable,
  isStale,
  planJobs,
  thumbnailSize,
  type Job,
  type PlanState,
} from './decode-planner.js';

/** Five 36-frame clips (180 frames), nothing decoded, no thumbnail, every high clip downloaded, forward at `focus`. */
function state(
  over: Omit<Partial<PlanState>, 'decoded' | 'pending'> & {
    decoded?: [Rendition, number][];
    pendingFrames?: [Rendition, number][];
  } = {},
): PlanState {
  const { decoded = [], pendingFrames = [], ...rest } = over;
  const of = (r: Rendition, frames: [Rendition, number][]) =>
    new Set(frames.filter(([fr]) => fr === r).map(([, f]) => f));
  const counts = rest.counts ?? [36, 36, 36, 36, 36];
  return {
    starts: [0, 36, 72, 108, 144],
    counts,
    clipOf: frameClips(counts),
    position: 0,
    focus: 0,
    direction: 1,
    highEnabled: true,
    jumping: false,
    decoded: { low: of('low', decoded), high: of('high', decoded) },
    pending: { low: of('low', pendingFrames), high: of('high', pendingFrames) },
    thumbnails: [],
    downloads: { highReady: { has: () => true }, highFetchMs: null, lowFetchMs: null },
    ...rest,
  };
}
/** Every clip has its thumbnail. */
const thumbnails = [1, 1, 1, 1, 1];
const brief = (jobs: Job[]) => jobs.map((j) => `${j.keyframe ? 'key ' : ''}${j.rendition} ${j.clip}:${j.from}-${j.to}`);

describe('planJobs', () => {
  it('plans nothing for a tour without clips', () => {
    expect(planJobs(state({ starts: [], counts: [] }))).toEqual({
      jobs: [],
      fetch: [],
      exactR: 'low',
      focusAt: { clip: 0, local: 0 },
    });
  });

  it('says where the focus is, the clip and frame a pass over that clip waits for first (past the end: the last)', () => {
    expect(planJobs(state({ focus: 40, position: 40 })).focusAt).toEqual({ clip: 1, local: 4 });
    expect(planJobs(state({ focus: 179 })).focusAt).toEqual({ clip: 4, local: 35 });
    expect(planJobs(state({ focus: 400 })).focusAt).toEqual({ clip: 4, local: 35 });
  });

  it('at the first frame: the low keyframe placeholder first, then high ahead (one pass per clip), then low ahead', () => {
    const { jobs, fetch, exactR } = planJobs(state());
    expect(exactR).toBe('high');
    expect(fetch).toEqual([]);
    expect(brief(jobs)).toEqual([
      'key low 0:0-0',
      'high 0:0-35',
      `high 1:0-${DECODE_WINDOW.highAhead - 36}`,
      `low 0:1-${DECODE_WINDOW.lowAhead - 1}`,
      'low 1:0-0',
    ]);
  });

  it('no placeholder when the clip already has a thumbnail or a decoded frame', () => {
    expect(brief(planJobs(state({ thumbnails })).jobs)[0]).toBe('high 0:0-35');
    expect(brief(planJobs(state({ decoded: [['low', 5]] })).jobs)[0]).toBe('high 0:0-35');
  });

  it('backward: the window runs against the direction and the exact frame gets a pass of its own', () => {
    const s = state({ position: 100, focus: 100, direction: -1, thumbnails });
    const jobs = brief(planJobs(s).jobs);
    // Frame 100 is local 28 of clip 2: decoded alone first (from its keyframe), not after local 0..27.
    expect(jobs[0]).toBe('high 2:28-28');
    // The clip behind (frames 36..71) in one pass from its keyframe, though the window reaches only down to 52.
    expect(jobs).toContain('high 1:0-35');
  });

  it('backward: a clip behind is decoded whole as soon as the window touches it (one pass, not one per chunk)', () => {
    // Frame 107 is the top of clip 2; the window reaches 3 frames into clip 1 (frames 69..71).
    const s = state({ position: 107, focus: 107, direction: -1, thumbnails });
    expect(brief(planJobs(s).jobs).filter((j) => j.startsWith('high 1:'))).toEqual(['high 1:0-35']);
  });

  it('after a jump the exact pass starts at its frame; the frames behind it in its clip come in a later pass', () => {
    const jobs = brief(planJobs(state({ position: 50, focus: 50, jumping: true, thumbnails })).jobs);
    expect(jobs).toEqual(['high 1:14-35', 'high 2:0-26', 'high 1:2-14', 'low 1:14-35', 'low 2:0-14']);
  });

  it('without a jump the window of the clip grows into one pass, but a missing exact frame is decoded alone first', () => {
    const jobs = brief(planJobs(state({ position: 50, focus: 50, thumbnails })).jobs);
    expect(jobs).toEqual(['high 1:14-14', 'high 2:0-26', 'low 1:14-35', 'low 2:0-14']);
  });

  it('skips frames already decoded or on their way', () => {
    const jobs = brief(
      planJobs(
        state({
          thumbnails,
          pendingFrames: Array.from({ length: 36 }, (_, f) => ['high', f] as [Rendition, number]),
        }),
      ).jobs,
    );
    expect(jobs[0]).toBe(`high 1:0-${DECODE_WINDOW.highAhead - 36}`);
  });

  it('on a slow link the high clip is fetched beside the decodes and the 360p frame comes first', () => {
    const { jobs, fetch, exactR } = planJobs(
      state({
        position: 40,
        focus: 40,
        thumbnails,
        downloads: { highReady: new Set([0]), highFetchMs: null, lowFetchMs: null },
      }),
    );
    expect(exactR).toBe('low');
    expect(brief(jobs)).toEqual(['low 1:4-35', 'high 0:28-35', 'low 2:0-4']);
    expect(fetch).toEqual([1, 2]);
    expect(jobs.every((j) => j.rendition === 'low' || j.clip === 0)).toBe(true);
  });

  it('with hi-res off only the low rendition is planned, over the high window', () => {
    const { jobs, exactR } = planJobs(state({ highEnabled: false, thumbnails }));
    expect(exactR).toBe('low');
    expect(brief(jobs)).toEqual(['low 0:0-35', `low 1:0-${DECODE_WINDOW.highAhead - 36}`]);
  });
});

describe('isStale', () => {
  const o = { start: 0, focus: 100, direction: 1, highEnabled: true, destination: null };
  it('cancels a pass that has left the window, never one that carries the travel destination or a keyframe', () => {
    const job: Job = { rendition: 'high', clip: 0, from: 0, to: 20 };
    expect(isStale(job, o)).toBe(true);
    expect(isStale(job, { ...o, destination: 10 })).toBe(false);
    expect(isStale({ ...job, keyframe: true }, o)).toBe(false);
    expect(isStale({ ...job, from: 0, to: 35 }, { ...o, focus: 40 })).toBe(false);
  });
});

describe('sizes and buffer progress', () => {
  it('high frames travel in quarter batches', () => {
    expect(batchFor('low', 20)).toBe(20);
    expect(batchFor('high', 20)).toBe(5);
    expect(batchFor('high', 1)).toBe(1);
  });

  it('thumbnails fit their budget, 64 to 320 px wide', () => {
    expect(thumbnailSize(5)).toEqual({ width: 320, height: 180 });
    const many = thumbnailSize(2000);
    expect(many.width).toBe(64);
    const mid = thumbnailSize(300);
    expect(mid.width * mid.height * 4 * 300).toBeLessThanOrEqual(CACHE_BUDGET.thumbnailBytes);
  });

  it('buffered frames are the prefix of fetched clips', () => {
    expect(bufferedFrames([true, false, true], [0, 36, 72], 107)).toBe(36);
    expect(bufferedFrames([true, true, true], [0, 36, 72], 107)).toBe(107);
    expect(bufferedFrames([false], [0], 35)).toBe(0);
  });

  it('a high clip is plannable once here, or when the link brings it within 50 ms', () => {
    expect(highPlannable(true, null, null)).toBe(true);
    expect(highPlannable(false, null, null)).toBe(false);
    expect(highPlannable(false, null, 10)).toBe(true);
    expect(highPlannable(false, 80, 10)).toBe(false);
  });
});

describe('cacheBudget', () => {
  it('gives the 360p frames both budgets without 720p on a 4 GB device, and a phone-sized one under 4 GB', () => {
    const b = CACHE_BUDGET;
    expect(cacheBudget(true, true)).toEqual({ high: b.highBytes, low: b.lowBytes });
    expect(cacheBudget(false, true)).toEqual({ high: 0, low: b.highBytes + b.lowBytes });
    expect(cacheBudget(false, false)).toEqual({ high: 0, low: b.lowMemoryBytes });
    // The 61-frame window at 360p (640x360 I420) fits the phone budget.
    expect(61 * 640 * 360 * 1.5).toBeLessThan(b.lowMemoryBytes);
  });
});
