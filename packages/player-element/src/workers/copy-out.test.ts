import { expect } from '@esm-bundle/chai';
import { createCopyOut } from './copy-out.js';
import type { DecodedFrame, DecodeRequest, Rush } from './decode-types.js';

/** A 64x36 I420 VideoFrame (grey), as a decoder hands one out. */
const frame = (i: number) =>
  new VideoFrame(new Uint8Array(64 * 36 * 1.5).fill(128), {
    format: 'I420',
    codedWidth: 64,
    codedHeight: 36,
    timestamp: i * 66_667,
  });

/** Lets tasks run until `done()` holds; fails naming `what` after 100 task turns. */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100; turn++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r));
  }
  expect.fail(`${what}: not after 100 task turns`);
}

// The copy-out step of a decode (workers/copy-out.ts) when the finger comes to rest (decode-scheduler.ts rest): the
// frame it rests on is sent at once, whether it is still to come or already copied and waiting for its batch to fill.
describe('copy-out: the frame a rest waits for', () => {
  const req: DecodeRequest = { rendition: 'high', clipIndex: 0, url: '', from: 0, to: 35, batchSize: 36, id: 1 };

  it('sends a batch that already holds the rest frame at once, that frame as a bitmap, and copies no frame before a later rest frame', async () => {
    const batches: number[][] = [];
    const bitmaps: [number, number, number][] = [];
    let copied = 0;
    let closed = 0;
    let rush: Rush | undefined;
    const out = createCopyOut(
      req,
      { from: 0, last: 35, clip: { fullRange: false } },
      (frames: DecodedFrame[]) => {
        batches.push(frames.map((f) => f.frame));
        for (const f of frames) if (f.bitmap) bitmaps.push([f.frame, f.bitmap.width, f.bitmap.height]);
      },
      (f) => {
        f.close();
        closed++;
      },
      () => copied++,
      () => rush,
    );
    for (let i = 0; i < 4; i++) out.take(frame(i), i);
    await until('frames 0-3 copied', () => copied === 4);
    // A batch of 36 is not full: nothing sent yet.
    expect(batches).to.deep.equal([]);
    rush = { frame: 2, canvas: { width: 32, height: 18 } };
    out.rush();
    await until('the batch holding frame 2 sent', () => batches.length === 1);
    expect(batches).to.deep.equal([[0, 1, 2, 3]]);
    // Frame 2 comes as a bitmap of the painter's size too, the others without one.
    expect(bitmaps).to.deep.equal([[2, 32, 18]]);
    // The finger moves on and rests on 30: frames 4-29 come out of the decoder but are closed uncopied.
    rush = { frame: 30 };
    for (let i = 4; i <= 31; i++) out.take(frame(i), i);
    await out.finish();
    expect(batches).to.deep.equal([[0, 1, 2, 3], [30], [31]]);
    expect(copied).to.equal(6);
    expect(closed).to.equal(32);
  });
});
