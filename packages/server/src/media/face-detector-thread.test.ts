/**
 * The detection thread: answers in order with the frame's own bytes back, follows faces within a video, and is kept
 * for the next video only after a normal end.
 */
import sharp from 'sharp';
import { beforeEach, describe, expect, it } from 'vitest';
import { faceImage } from '../../test/support/faces.js';
import { faceBlurFilter } from './blur-faces.js';
import { FaceDetectorThread } from './face-detector-thread.js';
import { yuv420pBytes } from './frame-pipe.js';

const W = 320;
const H = 180;
const grey = (n: number) => Buffer.alloc(yuv420pBytes(W, H), n);
const grey1280 = () => Buffer.alloc(yuv420pBytes(1280, 720), 120);

async function* frames(count: number, failAt = -1) {
  for (let i = 0; i < count; i++) {
    if (i === failAt) throw new Error('decoder gone');
    yield grey(i);
  }
}

/** A 1280x720 yuv420p frame (BT.709 limited range): a plain wall with face crop 0, 200 px, at (x, y). */
async function faceFrame(x: number, y: number): Promise<Buffer> {
  const w = 1280;
  const h = 720;
  const rgb = await sharp({ create: { width: w, height: h, channels: 3, background: '#9a8c7a' } })
    .composite([{ input: await faceImage(0, 200), left: x, top: y }])
    .removeAlpha()
    .raw()
    .toBuffer();
  const out = Buffer.alloc(yuv420pBytes(w, h));
  const at = (px: number, py: number, c: number) => rgb[(py * w + px) * 3 + c]!;
  for (let py = 0; py < h; py++)
    for (let px = 0; px < w; px++)
      out[py * w + px] = 16 + 0.1826 * at(px, py, 0) + 0.6142 * at(px, py, 1) + 0.062 * at(px, py, 2);
  for (let py = 0; py < h / 2; py++)
    for (let px = 0; px < w / 2; px++) {
      const [r, g, b] = [0, 1, 2].map((c) => at(2 * px, 2 * py, c));
      out[w * h + py * (w / 2) + px] = 128 - 0.1006 * r! - 0.3386 * g! + 0.4392 * b!;
      out[w * h + (w * h) / 4 + py * (w / 2) + px] = 128 + 0.4392 * r! - 0.3989 * g! - 0.0403 * b!;
    }
  return out;
}

describe('FaceDetectorThread', () => {
  // A file before this one in the same worker process may have left a thread kept for the next video.
  beforeEach(() => FaceDetectorThread.stopKept());

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

  it('follows a sure face to the next sample in order instead of detecting it; a cut or a sample out of order is detected', async () => {
    const t = new FaceDetectorThread();
    try {
      const first = await t.detect(await faceFrame(300, 200), 1280, 720, { index: 0 });
      expect(first.tracked).toBe(false);
      expect(first.faces).toHaveLength(1);
      expect(first.faces[0]!.score).toBeGreaterThanOrEqual(0.8);
      // Moved 40 px right and 10 down by the next sample: followed, the box moved with it.
      const next = await t.detect(await faceFrame(340, 210), 1280, 720, { index: 6 });
      expect(next.tracked).toBe(true);
      expect(next.faces).toHaveLength(1);
      expect(Math.abs(next.faces[0]!.x - first.faces[0]!.x - 40)).toBeLessThanOrEqual(8);
      expect(Math.abs(next.faces[0]!.y - first.faces[0]!.y - 10)).toBeLessThanOrEqual(8);
      // The sample after a followed one is detected again.
      expect((await t.detect(await faceFrame(340, 210), 1280, 720, { index: 12 })).tracked).toBe(false);
      // A cut since the sample before: detected.
      expect((await t.detect(await faceFrame(360, 210), 1280, 720, { index: 18, cut: true })).tracked).toBe(false);
      // A backfilled sample (before the last one asked): detected, and the next in order is followed again.
      expect((await t.detect(await faceFrame(360, 210), 1280, 720, { index: 15 })).tracked).toBe(false);
      expect((await t.detect(await faceFrame(360, 210), 1280, 720, { index: 24 })).tracked).toBe(true);
      // A face gone: lost, so the detector runs (and finds nothing).
      const gone = await t.detect(grey1280(), 1280, 720, { index: 30 });
      expect(gone).toMatchObject({ tracked: false, faces: [] });
    } finally {
      await t.close();
    }
  });

  it('the blur filter keeps its thread for the next video when it ends, and stops it when its input fails or its reader stops early', async () => {
    const out: number[] = [];
    for await (const f of faceBlurFilter()({ width: W, height: H })(frames(20))) out.push(f[0]!);
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // Kept, model loaded, for the next video.
    expect(FaceDetectorThread.running).toBe(1);
    // The next video takes that thread: no second one starts.
    for await (const f of faceBlurFilter()({ width: W, height: H })(frames(8))) void f;
    expect(FaceDetectorThread.running).toBe(1);

    // It fails while it holds the kept thread: stopped.
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

    for await (const f of faceBlurFilter()({ width: W, height: H })(frames(8))) void f;
    expect(FaceDetectorThread.running).toBe(1);
    await FaceDetectorThread.stopKept();
    expect(FaceDetectorThread.running).toBe(0);
  });

  it('a thread kept for another video follows nothing of the last one', async () => {
    const t = FaceDetectorThread.take();
    try {
      expect((await t.detect(await faceFrame(300, 200), 1280, 720, { index: 0 })).faces).toHaveLength(1);
      await t.release();
      const next = FaceDetectorThread.take();
      expect(next).toBe(t);
      // Index 6 would be followed in the same video; in the next one it is detected.
      expect((await next.detect(await faceFrame(310, 200), 1280, 720, { index: 6 })).tracked).toBe(false);
    } finally {
      await FaceDetectorThread.stopKept();
      await t.close();
    }
    expect(FaceDetectorThread.running).toBe(0);
  });
});
