import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIP_FRAMES, VisibleFrames, hiddenRoomRanges } from './visible-frames.js';

/** Five clips of 10 frames: frames 0–49. */
const clips = [0, 1, 2, 3, 4].map((index) => ({ index, frameCount: 10 }));
const markers = [
  { id: 'hall', frameIndex: 0 },
  { id: 'kitchen', frameIndex: 12 },
  { id: 'bedroom', frameIndex: 25 },
  { id: 'garden', frameIndex: 40 },
];

describe('hidden rooms', () => {
  it('a room runs from its marker to the next marker, the last one to the end', () => {
    expect(hiddenRoomRanges(markers, new Set(['kitchen', 'garden']), 50)).toEqual([
      { start: 12, end: 25 },
      { start: 40, end: 50 },
    ]);
  });

  it('markers out of order are sorted first', () => {
    expect(hiddenRoomRanges([...markers].reverse(), new Set(['bedroom']), 50)).toEqual([{ start: 25, end: 40 }]);
  });
});

describe('VisibleFrames', () => {
  it('hiding nothing keeps every clip and maps frames to themselves', () => {
    const v = new VisibleFrames(clips, markers, []);
    expect(v.keptClips).toEqual([0, 1, 2, 3, 4]);
    expect(v.ranges).toEqual([{ start: 0, end: 50 }]);
    expect(v.hidesAny).toBe(false);
    expect(v.toVisible(37)).toBe(37);
    expect(v.toTour(37)).toBe(37);
  });

  it('a hidden room takes out every clip holding any of its frames, never a clip of its frames kept', () => {
    // Bedroom: frames 25–39, in clips 2 (20–29) and 3 (30–39).
    const v = new VisibleFrames(clips, markers, ['bedroom']);
    expect(v.keptClips).toEqual([0, 1, 4]);
    expect(v.ranges).toEqual([
      { start: 0, end: 20 },
      { start: 40, end: 50 },
    ]);
    expect(v.count).toBe(30);
    for (let f = 25; f < 40; f++) expect(v.toVisible(f)).toBeNull();
  });

  it('maps both ways across the gap', () => {
    const v = new VisibleFrames(clips, markers, ['bedroom']);
    expect(v.toVisible(19)).toBe(19);
    expect(v.toVisible(40)).toBe(20);
    expect(v.toVisible(49)).toBe(29);
    expect(v.toTour(20)).toBe(40);
    expect(v.toTour(29)).toBe(49);
    for (let i = 0; i < v.count; i++) expect(v.toVisible(v.toTour(i))).toBe(i);
    // Clamped to the visible frames.
    expect(v.toTour(999)).toBe(49);
    expect(v.toTour(-3)).toBe(0);
  });

  it('a room whose start was swallowed by a hidden neighbour starts at its first visible frame; a room with nothing left has no start', () => {
    const v = new VisibleFrames(clips, markers, ['kitchen']);
    // Kitchen 12–24 hides clips 1 and 2 (10–29): the bedroom (25–39) keeps 30–39, seen as 10–19.
    expect(v.keptClips).toEqual([0, 3, 4]);
    expect(v.roomStart(25, 40)).toBe(10);
    expect(v.roomStart(40, 50)).toBe(20);
    const tiny = new VisibleFrames(clips, [...markers, { id: 'nook', frameIndex: 22 }], ['kitchen', 'bedroom']);
    expect(tiny.roomStart(22, 25)).toBeNull();
  });

  it('clips are taken in play order whatever order they come in; unknown frame counts count as the player counts them', () => {
    const v = new VisibleFrames(
      [
        { index: 1, frameCount: null },
        { index: 0, frameCount: 10 },
      ],
      [
        { id: 'a', frameIndex: 0 },
        { id: 'b', frameIndex: 10 },
      ],
      ['a'],
    );
    expect(v.totalFrames).toBe(10 + DEFAULT_CLIP_FRAMES);
    expect(v.keptClips).toEqual([1]);
    expect(v.ranges).toEqual([{ start: 10, end: 10 + DEFAULT_CLIP_FRAMES }]);
  });

  it('hiding every room leaves nothing', () => {
    const v = new VisibleFrames(
      clips,
      markers,
      markers.map((m) => m.id),
    );
    expect(v.count).toBe(0);
    expect(v.keptClips).toEqual([]);
  });
});
