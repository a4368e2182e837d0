import { describe, expect, it } from 'vitest';
import { DeliverySlots } from './webhook-slots.js';

describe('a worker node’s delivery slots', () => {
  it('keeps a slot for a company with nothing in flight while three companies hang on three each', () => {
    const slots = new DeliverySlots(8);
    const taken = (c: string) => [0, 1, 2].map(() => slots.take(c, false)).filter(Boolean).length;
    // a and b take three each; c its first only: the last free slots stay for companies holding none.
    expect([taken('a'), taken('b'), taken('c')]).toEqual([3, 3, 1]);
    expect(slots.take('d', false)).not.toBeNull();
    expect(slots.busy).toBe(8);
  });

  it('gives a company its first slot while one is free, its next ones only beyond the reserve', () => {
    const slots = new DeliverySlots(4, 1);
    const first = slots.take('a', false);
    expect(slots.take('a', false)).not.toBeNull();
    expect(slots.take('a', false)).not.toBeNull();
    expect(slots.take('a', false)).toBeNull(); // one free, kept for another company
    expect(slots.take('b', false)).not.toBeNull();
    expect(slots.take('c', false)).toBeNull(); // none free
    first!();
    first!(); // a release counts once
    expect(slots.busy).toBe(3);
    expect(slots.take('c', false)).not.toBeNull();
  });

  it('lets deliveries to failing endpoints hold at most half the slots together', () => {
    const slots = new DeliverySlots(8);
    const failing = ['a', 'b', 'c', 'd', 'e', 'f'].map((c) => slots.take(c, true));
    expect(failing.filter(Boolean)).toHaveLength(4);
    expect(slots.take('g', false)).not.toBeNull();
    failing[0]!();
    expect(slots.take('f', true)).not.toBeNull();
  });
});
