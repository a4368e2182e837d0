/** The detection thread: answers in order with the frame's own bytes back, and never outlives the filter using it. */
import { describe, expect, it } from 'vitest';
import { faceBlurFilter } from './blur-faces.js';
import { FaceDetectorThread } from './face-detector-thread.js';
import { yuv420pBytes } from './frame-pipe.js';

const W = 320;
const H = 180;
const grey = (n: number) => Buffer.alloc(yuv420pBytes(W, H), n);

async function* frames(count: number, failAt = -1) {
  for (let i = 0; i < count; i++) {
    if (i === failAt) throw new Error('decoder gone');
    yield grey(i);
  }
}

describe('FaceDetectorThread', () => {
  it('moves the frame to the thread and back, unchanged, and stops on close', async () => {
    const t = new FaceDetectorThread();
    const frame = grey(99);
    const answer = t.detect(frame, W, H);
    expect(frame.length).toBe(0);
    const r = await answer;
    expect(r.faces).toEqual([]);
    expect(r.frame.equals(grey(99))).toBe(true);
    await t.close();
    expect(FaceDetectorThread.running).toBe(0);
    await expect(t.detect(grey(1), W, H)).rejects.toThrow(/closed/);
  });

  it('the blur filter stops its thread when it ends, when its input fails and when its reader stops early', async () => {
    const out: number[] = [];
    for await (const f of faceBlurFilter()({ width: W, height: H })(frames(20))) out.push(f[0]!);
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(FaceDetectorThread.running).toBe(0);

    await expect(
      (async () => {
        for await (const f of faceBlurFilter()({ width: W, height: H })(frames(40, 25))) void f;
      })(),
    ).rejects.toThrow('decoder gone');
    expect(FaceDetectorThread.running).toBe(0);

    let taken = 0;
    for await (const f of faceBlurFilter()({ width: W, height: H })(frames(60))) {
      void f;
      if (++taken === 3) break;
    }
    expect(FaceDetectorThread.running).toBe(0);
  });
});
