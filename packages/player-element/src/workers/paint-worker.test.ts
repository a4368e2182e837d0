import { expect } from '@esm-bundle/chai';
import { WorkerBridge } from './worker-bridge.js';
import { createPaintWorker } from './create-paint-worker.js';
import type { DecodedFrame } from './decode-types.js';
import { type Remote, transfer, wrap } from 'comlink';
import type { PaintMessage, PaintReply } from './paint-types.js';
import type { PaintWorkerApi } from './paint-worker.js';
import { real, serverClips } from '../../test/helpers.js';

/** The bitmap's pixels, read from a 2D copy of its own size. */
function pixels(b: ImageBitmap): ImageData {
  const c = new OffscreenCanvas(b.width, b.height);
  const ctx = c.getContext('2d')!;
  ctx.drawImage(b, 0, 0);
  return ctx.getImageData(0, 0, b.width, b.height);
}

/** The frame index burnt into the top strip, read from RGBA pixels. */
function barcode(p: ImageData): number {
  const y = Math.floor((20 * p.height) / 720);
  let n = 0;
  for (let k = 0; k < 16; k++) {
    const i = (y * p.width + Math.floor(((40 * k + 20) * p.width) / 1280)) * 4;
    if (p.data[i]! * 0.3 + p.data[i + 1]! * 0.59 + p.data[i + 2]! * 0.11 > 128) n |= 1 << k;
  }
  return n;
}

/** Mean absolute difference per channel between two pictures of the same size. */
function meanDiff(a: ImageData, b: ImageData): number {
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) if (i % 4 !== 3) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / ((a.data.length / 4) * 3);
}

// On a 720p clip the real pipeline made of the main tour (clip 1 starts at tour frame 36).
describe('paint worker', () => {
  let frame: DecodedFrame;
  let worker: Worker;
  /**
   * One comlink proxy per worker, kept for the worker's life, as paint-bridge.ts keeps its own: when the last proxy of
   * an endpoint is garbage-collected, comlink sends the worker RELEASE and the worker stops listening. A proxy made per
   * call and dropped (this file did that) left WebKit's paint worker deaf after its first bitmap in most runs: JSC
   * collects the dropped proxy between two calls, Chromium's V8 later.
   */
  let api: Remote<PaintWorkerApi>;
  before(async () => {
    const clips = await serverClips(real.main);
    const bridge = new WorkerBridge((m) => {
      throw new Error(m);
    });
    const got: DecodedFrame[] = [];
    await bridge.decode(
      { rendition: 'high', clipIndex: 1, url: clips[1]!.highURI, batchSize: 4, from: 5, to: 5, id: 1 },
      (f: DecodedFrame[]) => void got.push(...f),
    );
    bridge.dispose();
    frame = got[0]!;
  });
  beforeEach(() => {
    worker = createPaintWorker();
    api = wrap<PaintWorkerApi>(worker);
  });
  afterEach(() => worker.terminate());

  const make = async (
    id: number,
    width: number,
    height: number,
    ops?: PaintMessage['ops'],
    transfers: Transferable[] = [],
  ): Promise<PaintReply> =>
    (await api.run(
      transfer({ ...(ops ? { ops } : {}), make: { id, key: 'high:41', width, height, urgent: true } }, transfers),
    ))!;

  it('makes bitmaps of a frame at the canvas size and at its own, with the colours of the frame drawn directly', async () => {
    // The reference: the same I420 pixels drawn as a VideoFrame (the browser's own conversion), before they go.
    const vf = new VideoFrame(frame.data, {
      format: 'I420',
      codedWidth: frame.width,
      codedHeight: frame.height,
      timestamp: 0,
    });
    const refCanvas = new OffscreenCanvas(frame.width, frame.height);
    const refCtx = refCanvas.getContext('2d')!;
    refCtx.drawImage(vf, 0, 0);
    vf.close();
    const ref = refCtx.getImageData(0, 0, frame.width, frame.height);

    const copy = frame.data.slice(0);
    const own = await make(
      1,
      frame.width,
      frame.height,
      [{ put: 'high:41', format: frame.format, width: frame.width, height: frame.height, data: copy }],
      [copy],
    );
    expect([own.bitmap?.width, own.bitmap?.height]).to.deep.equal([1280, 720]);
    const p = pixels(own.bitmap!);
    expect(barcode(p)).to.equal(41);
    // Same picture and colours as the browser's drawing of the VideoFrame (rounding apart).
    expect(meanDiff(p, ref)).to.be.below(3);

    // Scaled to a 650x366 canvas: the same frame, scaled like a drawImage of the reference.
    const small = await make(2, 650, 366);
    expect([small.bitmap?.width, small.bitmap?.height]).to.deep.equal([650, 366]);
    const s = pixels(small.bitmap!);
    expect(barcode(s)).to.equal(41);
    const scaled = new OffscreenCanvas(650, 366);
    const sctx = scaled.getContext('2d')!;
    sctx.drawImage(refCanvas, 0, 0, 650, 366);
    expect(meanDiff(s, sctx.getImageData(0, 0, 650, 366))).to.be.below(3);
  });

  it('answers without a bitmap for a frame it does not hold', async () => {
    const reply = await make(1, 650, 366);
    expect(reply.bitmap).to.equal(undefined);
  });
});
