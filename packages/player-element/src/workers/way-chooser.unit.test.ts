import { describe, expect, it } from 'vitest';
import { RARE, RECHECK, TRIALS, type Way, WayChooser } from './way-chooser.js';

/** Makes `n` bitmaps with the chooser, each way taking what `cost` says; counts how many were made each way. */
function run(chooser: WayChooser, n: number, cost: (way: Way) => number): Record<Way, number> {
  const made = { copy: 0, draw: 0 };
  for (let i = 0; i < n; i++) {
    const way = chooser.next();
    made[way]++;
    chooser.record(way, cost(way));
  }
  return made;
}

describe('WayChooser', () => {
  it('alternates the ways for the trials, then keeps the one whose fastest was faster', () => {
    const chooser = new WayChooser();
    const ways: Way[] = [];
    const times = { copy: [9, 8, 30, 9], draw: [12, 4, 40, 11] };
    for (let i = 0; i < 2 * TRIALS; i++) {
      const way = chooser.next();
      ways.push(way);
      expect(chooser.way, 'nothing kept during the trials').toBeUndefined();
      const choice = chooser.record(way, times[way].shift()!);
      if (i < 2 * TRIALS - 1) expect(choice).toBeUndefined();
      else expect(choice).toEqual({ way: 'draw', changed: false, ms: { draw: 4, copy: 8 } });
    }
    expect(ways).toEqual(['copy', 'draw', 'copy', 'draw', 'copy', 'draw', 'copy', 'draw']);
    expect(chooser.way).toBe('draw');
  });

  // Session 24: in two Firefox runs of eighteen the first draws were slow and the paint worker kept the conversion,
  // twice as slow, for the whole visit.
  it('undoes a wrong first choice: the other way is tried again now and then', () => {
    const chooser = new WayChooser();
    run(chooser, 2 * TRIALS, (way) => (way === 'draw' ? 20 : 8));
    expect(chooser.way).toBe('copy');
    let choice: ReturnType<WayChooser['record']>;
    let n = 0;
    for (; n < RECHECK * (TRIALS + 1) && !choice; n++) {
      const way = chooser.next();
      choice = chooser.record(way, way === 'draw' ? 4 : 8);
    }
    expect(choice, 'changed within a re-check').toEqual({ way: 'draw', changed: true, ms: { draw: 4, copy: 8 } });
    expect(n).toBe(RECHECK);
    expect(chooser.way).toBe('draw');
  });

  it("forgets the trials' lucky figure: the last re-checks decide", () => {
    const chooser = new WayChooser();
    // A lucky 2 ms conversion in the trials, never again.
    const copies = [2];
    run(chooser, 2 * TRIALS, (way) => (way === 'draw' ? 5 : (copies.shift() ?? 9)));
    expect(chooser.way).toBe('copy');
    run(chooser, RECHECK * TRIALS, (way) => (way === 'draw' ? 5 : 9));
    expect(chooser.way).toBe('draw');
  });

  it('tries a far slower way rarely, and a close one every RECHECK bitmaps', () => {
    const far = new WayChooser();
    const made = run(far, 2 * TRIALS + 4096, (way) => (way === 'draw' ? 15 : 3));
    expect(far.way).toBe('copy');
    // The trials' four, then re-checks every 32, 64, 128, then every RARE.
    expect(made.draw).toBeLessThanOrEqual(TRIALS + 3 + 4096 / RARE);
    const close = new WayChooser();
    const closeMade = run(close, 2 * TRIALS + 4096, (way) => (way === 'draw' ? 5 : 4));
    expect(close.way).toBe('copy');
    expect(closeMade.draw).toBe(TRIALS + 4096 / RECHECK);
  });

  it('on a tie of the fastest trials, chooses by all of them', () => {
    const chooser = new WayChooser();
    const times = { copy: [8, 20, 18, 22], draw: [8, 10, 9, 11] };
    const choices = [];
    for (let i = 0; i < 2 * TRIALS; i++) {
      const way = chooser.next();
      const choice = chooser.record(way, times[way].shift()!);
      if (choice) choices.push(choice);
    }
    expect(choices).toEqual([{ way: 'draw', changed: false, ms: { draw: 8, copy: 8 } }]);
  });

  it('keeps the way on a tie, and against a re-check slower than its fastest since the last', () => {
    const chooser = new WayChooser();
    run(chooser, 2 * TRIALS, (way) => (way === 'draw' ? 4 : 8));
    // Both ways take 6 ms for a while (whole milliseconds, a busy spell): drawing stays.
    const made = run(chooser, RECHECK * TRIALS * 2, () => 6);
    expect(made.copy).toBe(TRIALS * 2);
    expect(chooser.way).toBe('draw');
    // A busy spell on drawing: seven bitmaps in eight take 30 ms, the eighth 4; the conversion takes 8 throughout.
    // Drawing's fastest since each re-check is 4, so it stays (its single bitmap before a re-check would be 30 ms
    // mostly, and the conversion would win).
    let n = 0;
    run(chooser, RECHECK * TRIALS * 2, (way) => (way === 'copy' ? 8 : ++n % 8 ? 30 : 4));
    expect(chooser.way).toBe('draw');
  });

  it('keeps a choice that a busy moment on the kept way does not outweigh', () => {
    const chooser = new WayChooser();
    run(chooser, 2 * TRIALS, (way) => (way === 'draw' ? 4 : 8));
    let i = 0;
    // One kept bitmap in ten takes 30 ms (a busy moment), the conversion stays at 8.
    run(chooser, 1000, (way) => (way === 'draw' ? (++i % 10 ? 4 : 30) : 8));
    expect(chooser.way).toBe('draw');
  });
});
