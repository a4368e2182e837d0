import { expect } from '@esm-bundle/chai';
import { FrameCache } from './frame-cache.js';
import { CACHE_BUDGET, DECODE_WINDOW } from '../constants.js';
import { PLAYER } from '@roomwalk/shared';

const f = (frame: number, rendition: 'high' | 'low' = 'high') => ({
  rendition,
  clipIndex: 0,
  frame,
  format: 'I420' as const,
  width: 1,
  height: 1,
  data: new ArrayBuffer(1000),
});

describe('FrameCache', () => {
  it('evicts the frame farthest from the playhead, frames behind counting three times their distance', () => {
    const c = new FrameCache({ high: 4000, low: 1000 });
    c.focus(10, 1);
    for (const n of [9, 10, 11, 12]) c.put(n, f(n));
    // 9 is 1 behind (counts 3), 12 is 2 ahead: 9 goes.
    c.put(13, f(13));
    expect([9, 10, 11, 12, 13].filter((n) => c.kept.high.has(n))).to.deep.equal([10, 11, 12, 13]);
    // Turning round: 13 is now 3 behind (counts 9) and goes first, 11 (1 behind, counts 3) stays.
    c.focus(10, -1);
    c.put(8, f(8));
    expect([8, 10, 11, 12, 13].filter((n) => c.kept.high.has(n))).to.deep.equal([8, 10, 11, 12]);
    expect(c.totalBytes).to.equal(4000);
    expect(c.peakBytes).to.equal(4000);
  });

  it('keeps a pinned fast-travel destination like the playhead frame', () => {
    const c = new FrameCache({ high: 3000, low: 1000 });
    c.focus(0, 1, 500);
    c.put(500, f(500));
    c.put(1, f(1));
    c.put(2, f(2));
    c.put(3, f(3));
    expect(c.kept.high.has(500)).to.equal(true);
    expect([1, 2, 3].filter((n) => c.kept.high.has(n))).to.deep.equal([1, 3]);
  });

  it('trims at once when the budget shrinks, each rendition on its own', () => {
    const c = new FrameCache({ high: 3000, low: 2000 });
    c.focus(0, 1);
    for (const n of [0, 1, 2]) c.put(n, f(n));
    for (const n of [0, 1]) c.put(n, f(n, 'low'));
    c.setBudget({ high: 1000, low: 2000 });
    expect([0, 1, 2].filter((n) => c.kept.high.has(n))).to.deep.equal([0]);
    expect(c.size).to.equal(3);
  });

  it('has budgets that hold every decode window and stay under 150 MB with frames in transit', () => {
    const high = 1280 * 720 * 1.5;
    const low = 640 * 360 * 1.5;
    const w = DECODE_WINDOW;
    // Windows that do not fit their budget would evict frames the planner asks for again.
    expect((w.highAhead + w.highBehind + 1) * high).to.be.at.most(CACHE_BUDGET.highBytes);
    expect((w.lowAhead + 1) * low).to.be.at.most(CACHE_BUDGET.lowBytes);
    expect((w.highAhead + w.highBehind + 1) * low).to.be.at.most(CACHE_BUDGET.highBytes + CACHE_BUDGET.lowBytes);
    // Peak: both budgets, the thumbnails and one high batch per worker in transit.
    const batch = Math.ceil(PLAYER.decodeBatchSize.default / 4) * high;
    const peak =
      CACHE_BUDGET.highBytes + CACHE_BUDGET.lowBytes + CACHE_BUDGET.thumbnailBytes + PLAYER.maxWorkers * batch;
    expect(peak).to.be.at.most(150 * 1024 * 1024);
  });
});
