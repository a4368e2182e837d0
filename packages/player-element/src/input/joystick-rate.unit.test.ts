// The joystick's rate control and the decode limit, without a browser.
import { describe, expect, it } from 'vitest';
import { JOYSTICK_MAX_PX, furthestReady, joystickDelta } from './joystick-rate.js';

const REFRESH = 1000 / 60;

describe('joystickDelta', () => {
  it('moves 1 frame per refresh for each 80 px off centre, right or up forward', () => {
    expect(joystickDelta(80, REFRESH)).toBeCloseTo(1);
    expect(joystickDelta(160, REFRESH)).toBeCloseTo(2);
    expect(joystickDelta(-120, REFRESH)).toBeCloseTo(-1.5);
    expect(joystickDelta(20, REFRESH)).toBeCloseTo(0.25);
  });

  it('rests near the centre and is capped far from it', () => {
    expect(joystickDelta(0, REFRESH)).toBe(0);
    expect(joystickDelta(5, REFRESH)).toBe(0);
    expect(joystickDelta(1000, REFRESH)).toBeCloseTo(joystickDelta(JOYSTICK_MAX_PX, REFRESH));
    expect(joystickDelta(JOYSTICK_MAX_PX, REFRESH)).toBeCloseTo(3);
  });

  it('goes by time, not by refresh count, and ignores pauses over 50 ms', () => {
    expect(joystickDelta(80, 2 * REFRESH)).toBeCloseTo(2);
    expect(joystickDelta(80, 1000)).toBeCloseTo(joystickDelta(80, 50));
  });

  it('held at 120 px walks a 60 s tour (898 frames at 15 fps) in about 10 s', () => {
    let pos = 0;
    let ms = 0;
    while (pos < 898) {
      pos += joystickDelta(120, REFRESH);
      ms += REFRESH;
    }
    expect(ms / 1000).toBeLessThanOrEqual(10);
  });
});

describe('furthestReady', () => {
  const decoded = new Set([10, 11, 12, 14, 20]);
  const ready = (f: number) => decoded.has(f);

  it('goes to the wanted frame when it is decoded', () => {
    expect(furthestReady(10, 12, ready)).toBe(12);
    expect(furthestReady(14, 10, ready)).toBe(10);
  });

  it('stops at the decoded frame nearest the wanted one, never at an undecoded one', () => {
    expect(furthestReady(10, 13, ready)).toBe(12);
    expect(furthestReady(12, 19, ready)).toBe(14);
    expect(furthestReady(20, 15, ready)).toBe(20);
  });

  it('stays when nothing on the way is decoded', () => {
    expect(furthestReady(20, 25, ready)).toBe(20);
    expect(furthestReady(20, 20, ready)).toBe(20);
  });
});
