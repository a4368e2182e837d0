import { expect } from '@esm-bundle/chai';
import { WorkerBridge } from './worker-bridge.js';
import type { DecodedFrame, DecodeRequest } from './decode-types.js';
import { real, serverClips } from '../../test/helpers.js';

/** The frame index burnt into the top strip of the sources, read from a decoded I420 luma plane. */
function barcode(f: DecodedFrame): number {
  const y = new Uint8Array(f.data, 0, f.width * f.height);
  const sx = f.width / 1280;
  const row = Math.floor((20 * f.height) / 720) * f.width;
  let n = 0;
  for (let k = 0; k < 16; k++) if (y[row + Math.floor((40 * k + 20) * sx)]! > 128) n |= 1 << k;
  return n;
}

// On the 720p clips the real pipeline made of the main tour (36 frames each, a keyframe every 12).
describe('decode worker', () => {
  let bridge: WorkerBridge;
  let clips: { highURI: string }[] = [];
  before(async () => {
    clips = await serverClips(real.main);
  });
  beforeEach(() => {
    bridge = new WorkerBridge((m) => {
      throw new Error(m);
    });
  });
  afterEach(() => bridge.dispose());

  const decode = async (
    req: Omit<DecodeRequest, 'rendition' | 'clipIndex' | 'url' | 'batchSize'>,
    clip = 1,
  ): Promise<DecodedFrame[]> => {
    const got: DecodedFrame[] = [];
    const url = clips[clip]!.highURI;
    await bridge.decode(
      { rendition: 'high', clipIndex: clip, url, batchSize: 4, ...req },
      (frames: DecodedFrame[]) => void got.push(...frames),
    );
    return got;
  };

  it('goes on from where the decoder stopped in a clip instead of decoding again from the keyframe', async () => {
    const a = await decode({ from: 0, to: 9, id: 1 });
    expect(a.map((f) => f.frame)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(10);
    // The next frames of the same clip: only samples 10..20 go through the decoder.
    const b = await decode({ from: 10, to: 20, id: 2 });
    expect(b.map((f) => f.frame)).to.deep.equal([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(21);
    // Frames are the right pictures (clip 1 starts at tour frame 36).
    expect(b.map(barcode)).to.deep.equal(b.map((f) => 36 + f.frame));
    // Frames before the decoder's position need the keyframe again: samples 0..6.
    const c = await decode({ from: 4, to: 6, id: 3 });
    expect(c.map(barcode)).to.deep.equal([40, 41, 42]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(28);
    // Another clip starts at its own keyframe, and coming back to this one starts again too.
    const d = await decode({ from: 0, to: 2, id: 4 }, 2);
    expect(d.map(barcode)).to.deep.equal([72, 73, 74]);
    const e = await decode({ from: 7, to: 8, id: 5 });
    expect(e.map(barcode)).to.deep.equal([43, 44]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(28 + 3 + 9);
    expect((await bridge.api.stats()).openFrames).to.equal(0);
  });

  it('starts a decode deep in a clip at the last keyframe before it, not at the clip start', async () => {
    // Clips carry a keyframe every 12 frames: frames 30..31 need samples 24..31 only.
    const a = await decode({ from: 30, to: 31, id: 1 });
    expect(a.map(barcode)).to.deep.equal([66, 67]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(8);
    // Going on from there needs nothing again; going back before 24 starts at keyframe 12.
    const b = await decode({ from: 32, to: 33, id: 2 });
    expect(b.map(barcode)).to.deep.equal([68, 69]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(10);
    const c = await decode({ from: 20, to: 20, id: 3 });
    expect(c.map(barcode)).to.deep.equal([56]);
    expect((await bridge.api.stats()).framesThroughDecoder).to.equal(10 + 9);
    expect((await bridge.api.stats()).openFrames).to.equal(0);
  });

  it('stops a cancelled decode and decodes the right frames after it', async () => {
    const first = decode({ from: 0, to: 35, id: 1 });
    await bridge.api.cancel(1);
    const cut = await first;
    // Whatever was delivered before the cancel took hold is a run of right frames from the start.
    expect(cut.map(barcode)).to.deep.equal(cut.map((f) => 36 + f.frame));
    expect(cut.map((f) => f.frame)).to.deep.equal(cut.map((_f, i) => i));
    const next = await decode({ from: 30, to: 31, id: 2 });
    expect(next.map(barcode)).to.deep.equal([66, 67]);
    expect((await bridge.api.stats()).openFrames).to.equal(0);
  });

  it('makes the frame a jump waits for also as a bitmap at the canvas size, never above the frame', async () => {
    // A 650x366 canvas: the 720p frame comes as a 650x366 bitmap beside its I420 copy, the others without one.
    const a = await decode({ from: 14, to: 18, id: 1, urgent: 16, canvas: { width: 650, height: 366 } });
    expect(a.map((f) => f.frame)).to.deep.equal([14, 15, 16, 17, 18]);
    expect(a.filter((f) => f.bitmap).map((f) => [f.frame, f.bitmap!.width, f.bitmap!.height])).to.deep.equal([
      [16, 650, 366],
    ]);
    // The bitmap is the frame's picture: its barcode, read from a 2D copy.
    const c = new OffscreenCanvas(650, 366);
    const ctx = c.getContext('2d')!;
    ctx.drawImage(a[2]!.bitmap!, 0, 0);
    let n = 0;
    for (let k = 0; k < 16; k++) {
      const d = ctx.getImageData(Math.floor(((40 * k + 20) * 650) / 1280), Math.floor((20 * 366) / 720), 1, 1).data;
      if (d[0]! * 0.3 + d[1]! * 0.59 + d[2]! * 0.11 > 128) n |= 1 << k;
    }
    expect(n).to.equal(36 + 16);
    // On a 2560x1440 canvas (DPR 2 on a large screen) the bitmap stays at the frame's 1280x720.
    const b = await decode({ from: 20, to: 20, id: 2, urgent: 20, canvas: { width: 2560, height: 1440 } });
    expect([b[0]!.bitmap!.width, b[0]!.bitmap!.height]).to.deep.equal([1280, 720]);
    expect((await bridge.api.stats()).openFrames).to.equal(0);
  });

  // The finger rests on frame 30 while a pass of the whole clip runs (decode-scheduler.ts rest): the frames before it
  // are decoded, as the decoder needs, but not copied (Firefox ESR: 10 ms a frame), and 30 comes at once, as a bitmap.
  it('hands back the frame the finger rests on first, the frames before it decoded but not copied', async () => {
    const batches: number[][] = [];
    const got: DecodedFrame[] = [];
    const url = clips[1]!.highURI;
    const run = bridge.decode(
      { rendition: 'high', clipIndex: 1, url, batchSize: 4, from: 0, to: 35, id: 1 },
      (frames: DecodedFrame[]) => {
        batches.push(frames.map((f) => f.frame));
        got.push(...frames);
      },
    );
    // Told while the clip is still being fetched: before any frame is out.
    bridge.rush(1, { frame: 30, canvas: { width: 650, height: 366 } });
    await run;
    expect(batches[0], 'the first batch: the rest frame alone').to.deep.equal([30]);
    expect(got.map((f) => f.frame)).to.deep.equal([30, 31, 32, 33, 34, 35]);
    expect(got.map(barcode)).to.deep.equal([66, 67, 68, 69, 70, 71]);
    expect(got.filter((f) => f.bitmap).map((f) => [f.frame, f.bitmap!.width, f.bitmap!.height])).to.deep.equal([
      [30, 650, 366],
    ]);
    const stats = await bridge.api.stats();
    // All 36 decoded (the pass began at the clip's start), 6 copied.
    expect(stats.framesThroughDecoder).to.equal(36);
    expect(stats.decodedFrames).to.equal(6);
    expect(stats.openFrames).to.equal(0);
  });
});
