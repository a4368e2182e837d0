// What the decoder's frames answer the canvas, without a browser: the best frame to show, and the frames ahead.
import { describe, expect, it } from 'vitest';
import type { DecodedFrame, Rendition } from '../workers/decode-types.js';
import { DecodedFrames, pickDrawable } from './decoded-frames.js';

const frame = (n: number, rendition: Rendition): DecodedFrame => ({
  frame: n,
  clipIndex: 0,
  rendition,
  format: 'I420' as const,
  width: 1,
  height: 1,
  data: new ArrayBuffer(1),
});

describe('pickDrawable', () => {
  const cache = (entries: [Rendition, number][]) => {
    const kept = { low: new Map<number, DecodedFrame>(), high: new Map<number, DecodedFrame>() };
    for (const [r, f] of entries) kept[r].set(f, frame(f, r));
    return {
      kept,
      nearest: (f: number) => {
        const [r, n] = [...entries].sort((a, b) => Math.abs(a[1] - f) - Math.abs(b[1] - f))[0] ?? [];
        return n === undefined ? undefined : { frame: n, data: frame(n, r!) };
      },
    };
  };
  const base = { highEnabled: true, starts: [0, 36], counts: [36, 36], thumbs: [] as (ImageBitmap | undefined)[] };

  it('exact high, else exact low, else a frame of the same clip, else the clip thumbnail', () => {
    expect(
      pickDrawable(5, {
        ...base,
        cache: cache([
          ['high', 5],
          ['low', 5],
        ]),
      }),
    ).toMatchObject({ tourFrame: 5, exact: true, frame: { rendition: 'high' } });
    expect(pickDrawable(5, { ...base, cache: cache([['low', 5]]) })).toMatchObject({ tourFrame: 5, exact: false });
    expect(pickDrawable(40, { ...base, cache: cache([['low', 38]]) })).toMatchObject({ tourFrame: 38 });
    const bitmap = {} as ImageBitmap;
    expect(pickDrawable(40, { ...base, thumbs: [undefined, bitmap], cache: cache([['low', 30]]) })).toEqual({
      bitmap,
      rendition: 'thumbnail',
      tourFrame: 36,
      exact: false,
    });
    expect(pickDrawable(40, { ...base, cache: cache([]) })).toBeUndefined();
  });

  it('`own`: the exact frame or nothing (a frame ahead is never stood in for)', () => {
    expect(pickDrawable(5, { ...base, cache: cache([['low', 5]]) }, true)).toMatchObject({ tourFrame: 5 });
    expect(pickDrawable(40, { ...base, cache: cache([['low', 38]]) }, true)).toBeUndefined();
  });
});

describe('DecodedFrames.drawables', () => {
  const sink = { framePixels: () => {}, frameDropped: () => {} } as never;

  it('answers the playhead as drawable does, and each frame ahead with its own frame only', () => {
    const frames = new DecodedFrames({ high: 1e6, low: 1e6 }, sink, () => {});
    frames.reset([0, 36], [36, 36]);
    for (const f of [10, 12]) frames.put(f, frame(f, 'high'));
    const found = frames.drawables([11, 12, 13]);
    expect(found).toHaveLength(3);
    // The playhead's frame 11 is not decoded: its nearest stands in, as drawable(11) says.
    expect(found[0]).toEqual(frames.drawable(11));
    expect(found[0]).toMatchObject({ exact: false });
    expect(found[1]).toMatchObject({ tourFrame: 12, exact: true });
    expect(found[2]).toBeUndefined();
  });

  it("thumbnail: the clip's keyframe thumbnail, whatever decoded frame of the clip is kept", () => {
    const frames = new DecodedFrames({ high: 1e6, low: 1e6 }, sink, () => {});
    frames.reset([0, 36], [36, 36]);
    frames.put(40, frame(40, 'high'));
    expect(frames.thumbnail(40)).toBeUndefined();
    const bitmap = { width: 320, height: 180 } as ImageBitmap;
    frames.addThumbnail(1, bitmap);
    expect(frames.thumbnail(41)).toEqual({ bitmap, rendition: 'thumbnail', tourFrame: 36, exact: false });
    expect(frames.drawable(41)).toMatchObject({ tourFrame: 40, exact: false, frame: { rendition: 'high' } });
    expect(frames.state.thumbnails).toEqual([undefined, bitmap]);
    expect(frames.state.thumbBytes).toBe(320 * 180 * 4);
  });

  it('counts every change to its answer', () => {
    const frames = new DecodedFrames({ high: 1e6, low: 1e6 }, sink, () => {});
    const c0 = frames.state.changes;
    frames.reset([0], [36]);
    frames.put(3, frame(3, 'low'));
    frames.setHighEnabled(false, { high: 0, low: 1e6 });
    expect(frames.state.changes).toBe(c0 + 3);
  });
});
