import { describe, expect, it } from 'vitest';
import { SCRUB_RENDITION, ScrubRendition } from './scrub-rendition.js';

/**
 * Moves of `step` frames every `every` ms from `t0`, `n` of them; `late` says which moves found no exact frame. The
 * decoder plans after every move, so `lower` is asked after each, as the scheduler does.
 */
function scrub(
  s: ScrubRendition,
  o: { t0: number; from: number; step: number; every: number; n: number; late: (i: number) => boolean },
) {
  let t = o.t0;
  let f = o.from;
  for (let i = 0; i < o.n; i++) {
    t += o.every;
    f += o.step;
    s.move(f, t, o.late(i));
    s.lower(t);
  }
  return { t, f };
}

describe('ScrubRendition', () => {
  it('turns to the lower rendition while a fast scrub finds its 720p frames late', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    // 3 frames a refresh (180 frames a second), every exact frame late.
    const { t } = scrub(s, { t0: 0, from: 0, step: 3, every: 16, n: 40, late: () => true });
    expect(s.speed(t)).toBeGreaterThan(SCRUB_RENDITION.fastFps);
    expect(s.lower(t)).toBe(true);
  });

  it('stays in 720p on a fast scrub whose exact frames keep up', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const { t } = scrub(s, { t0: 0, from: 0, step: 3, every: 16, n: 30, late: () => false });
    expect(s.lower(t)).toBe(false);
  });

  it('stays in 720p on a slow scrub, late frames or not (the finger walks: the exact frame is worth waiting for)', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    // One frame every 100 ms: 10 frames a second.
    const { t } = scrub(s, { t0: 0, from: 0, step: 1, every: 100, n: 20, late: () => true });
    expect(s.lower(t)).toBe(false);
  });

  it('needs more than one or two late frames (a single hiccup does not drop the picture to 360p)', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const { t } = scrub(s, { t0: 0, from: 0, step: 3, every: 16, n: 40, late: (i) => i === 5 || i === 9 });
    expect(s.lower(t)).toBe(false);
  });

  it('goes back to 720p once the finger rests, at the time recheckAt names', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const { t } = scrub(s, { t0: 0, from: 0, step: 4, every: 16, n: 40, late: () => true });
    expect(s.lower(t)).toBe(true);
    const at = s.recheckAt();
    expect(at).toBe(t + SCRUB_RENDITION.windowMs);
    // Still fast just before the last move leaves the window, resting after.
    expect(s.lower(at! - 60)).toBe(true);
    expect(s.lower(at!)).toBe(false);
    expect(s.recheckAt()).toBe(null);
  });

  it("a plan's one question: lower and recheckAt together, lower only when asked", () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    // A fast scrub, late all the way, that no plan has asked about yet.
    const t = 40 * 16;
    for (let i = 1; i <= 40; i++) s.move(i * 4, i * 16, true);
    // Not asked (hi-res off, or a travel): lower is not decided, and no 360p rest to plan again for.
    expect(s.plan(t, false)).toEqual([false, null]);
    expect(s.plan(t, true)).toEqual([true, t + SCRUB_RENDITION.windowMs]);
    // recheckAt as it says itself, asked or not.
    expect(s.plan(t, false)).toEqual([false, s.recheckAt()]);
  });

  it('goes back to 720p when the finger slows, still moving', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const fast = scrub(s, { t0: 0, from: 0, step: 4, every: 16, n: 40, late: () => true });
    expect(s.lower(fast.t)).toBe(true);
    // Then one frame every 150 ms (under 7 frames a second), exact frames still late.
    const slow = scrub(s, { t0: fast.t, from: fast.f, step: 1, every: 150, n: 4, late: () => true });
    expect(s.lower(slow.t)).toBe(false);
  });

  it('keeps the lower rendition between fast and slow (no flapping around one speed)', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const fast = scrub(s, { t0: 0, from: 0, step: 4, every: 16, n: 40, late: () => true });
    expect(s.lower(fast.t)).toBe(true);
    // 20 frames a second: under fastFps, over slowFps.
    const mid = scrub(s, { t0: fast.t, from: fast.f, step: 1, every: 50, n: 10, late: () => false });
    expect(s.lower(mid.t)).toBe(true);
  });

  it('forgets the scrub after a jump or a travel', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const { t } = scrub(s, { t0: 0, from: 0, step: 4, every: 16, n: 40, late: () => true });
    expect(s.lower(t)).toBe(true);
    s.reset();
    expect(s.lower(t)).toBe(false);
    expect(s.speed(t)).toBe(0);
  });

  it('stays in 720p on a fast scrub whose 720p frames are mostly on time, late in bursts (clip boundaries)', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    // One frame a refresh for 3 s; 6 positions in a row late every 36 frames (a new clip's pass catching up): 17 %.
    const { t } = scrub(s, { t0: 0, from: 0, step: 1, every: 16, n: 180, late: (i) => i % 36 < 6 });
    expect(s.lower(t)).toBe(false);
  });

  it('tries 720p again after probeMs while the finger stays fast, and keeps it through a pass catching up', () => {
    const s = new ScrubRendition();
    s.move(0, 0, false);
    const fast = scrub(s, { t0: 0, from: 0, step: 1, every: 16, n: 40, late: () => true });
    expect(s.lower(fast.t)).toBe(true);
    // Still fast and (in 360p) every 720p frame missing, until the probe.
    const low = scrub(s, { t0: fast.t, from: fast.f, step: 1, every: 16, n: 60, late: () => true });
    expect(s.lower(low.t)).toBe(false);
    // 720p again: the pass starts at the keyframe, so the first 200 ms of positions are late, then on time.
    const back = scrub(s, { t0: low.t, from: low.f, step: 1, every: 16, n: 40, late: (i) => i < 12 });
    expect(s.lower(back.t)).toBe(false);
  });
});
