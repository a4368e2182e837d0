/** Which samples the face detector sees (FaceSampler): sentinels while nothing is in view, backfill when a face is. */
import { describe, expect, it } from 'vitest';
import type { Rect } from './face-detect.js';
import { FaceSampler, type HeldFrame } from './face-samples.js';

const face: Rect = { x: 100, y: 100, width: 80, height: 80, score: 0.9 };

/**
 * Runs a sampler over samples 0..count-1 (sample numbers, not frame indices), a face shown at the samples `shown`
 * says, the picture cut before the samples in `cuts`. Answers: which samples were detected, and what the plan heard.
 */
async function run(count: number, shown: (s: number) => boolean, o: { sparse?: number; cuts?: number[] } = {}) {
  const detected: number[] = [];
  const plan: Array<[number, number]> = [];
  const sampler = new FaceSampler({
    sparse: o.sparse ?? 4,
    detect: async (frame, index) => {
      detected.push(index);
      // The detector answers later than it is asked, as the thread does.
      await new Promise((r) => setImmediate(r));
      return { faces: shown(index) ? [face] : [], frame };
    },
    add: (index, faces) => plan.push([index, faces.length]),
  });
  for (let s = 0; s < count; s++) {
    const held: HeldFrame = { frame: Buffer.alloc(1), index: s };
    sampler.offer(held, o.cuts?.includes(s) ?? false, s === 0 || s === count - 1);
    await sampler.settle(2);
  }
  sampler.finish();
  await sampler.settle(0);
  return { detected: detected.sort((a, b) => a - b), plan, skipped: sampler.skipped };
}

describe('FaceSampler', () => {
  it('with nothing in view detects the first and last sample and one in `sparse`; the plan hears of every sample in order', async () => {
    const r = await run(17, () => false);
    expect(r.detected).toEqual([0, 4, 8, 12, 16]);
    expect(r.plan.map(([i]) => i)).toEqual(Array.from({ length: 17 }, (_, i) => i));
    expect(r.plan.every(([, n]) => n === 0)).toBe(true);
    expect(r.skipped).toBe(12);
  });

  it('a face arriving between two sentinels is found from the first sample it shows in (backfill)', async () => {
    // Shown from sample 6: the sentinel at 8 finds it, so 5, 6 and 7 (waiting) are detected after all.
    const r = await run(17, (s) => s >= 6);
    for (const s of [5, 6, 7]) expect(r.detected).toContain(s);
    expect(r.plan.find(([i]) => i === 6)).toEqual([6, 1]);
    expect(r.plan.find(([i]) => i === 5)).toEqual([5, 0]);
    // Once a face is known, every sample is detected.
    expect(r.detected.filter((s) => s >= 8)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(r.plan.map(([i]) => i)).toEqual(Array.from({ length: 17 }, (_, i) => i));
  });

  it('a face leaving: the samples after the last one that found it are detected until one finds nothing', async () => {
    const r = await run(17, (s) => s <= 5);
    for (let s = 0; s <= 6; s++) expect(r.detected, `sample ${s}`).toContain(s);
    expect(r.plan.filter(([, n]) => n > 0).map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a cut is detected at once, and the waiting samples before it too (no detection after them saw their scene)', async () => {
    const r = await run(17, () => false, { cuts: [6] });
    expect(r.detected).toEqual([0, 4, 5, 6, 10, 14, 16]);
  });

  it('sparse 1 detects every sample (reels)', async () => {
    const r = await run(9, () => false, { sparse: 1 });
    expect(r.detected).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(r.skipped).toBe(0);
  });
});
