import { expect } from '@esm-bundle/chai';
import { transfer, wrap } from 'comlink';
import type { Clip } from '../api/types.js';
import { VideoFallback } from '../frames/video-fallback.js';
import { createPaintWorker } from './create-paint-worker.js';
import type { DecodedFrame } from './decode-types.js';
import { BitmapMaker } from './frame-bitmap.js';
import type { PaintWorkerApi } from './paint-worker.js';
import { timeline } from './timeline.js';
import { WorkerBridge } from './worker-bridge.js';

// Full-range and limited-range clips painted by the paths the player takes in this engine: the decode worker's copy
// and its bitmap of the frame a jump waits for, the paint worker's bitmaps, and the <video> fallback. The clips
// (test/fixtures.mjs generateRangeClips: the tour's clip format, 1280x720) hold eight flat columns of known colours,
// their samples written exactly: full.mp4 as the console's on-device conversion in Chromium writes an upload
// (video_full_range_flag 1: black is Y 0, white Y 255), limited.mp4 as the pipeline's clips (Y 16..235). Each must
// paint the same colours; a range ignored moves the greys by 8 to 14 (full-range Y 64 read as limited paints 56).
const FIXTURES = new URL('/packages/player-element/.fixtures/range/', location.origin);
const W = 1280;
const H = 720;
const COLUMNS = 8;
/**
 * Greys (black, white and the three between): rounding of the encoder and the 8-bit conversions only; a range ignored
 * moves them by 8 to 14. Colours: 10, because Chromium's own conversion (copyTo and <video> alike) paints limited-range
 * (50, 60, 200) as (50, 59, 192) and (40, 180, 60) as (40, 181, 64) where ffmpeg gives (49, 58, 197) and (39, 180, 59):
 * the browser's fixed-point BT.709 coefficients, in the pipeline's clips as much as here, not the range.
 */
const GREY_TOLERANCE = 4;
const COLOUR_TOLERANCE = 10;
const UA = navigator.userAgent;
const ENGINE = UA.includes('Firefox/') ? 'firefox' : UA.includes('Chrome/') ? 'chromium' : 'webkit';
/**
 * Engines whose own <video> paints a full-range clip as limited range (no page can change it: the player's script sees
 * only the bitmap the engine made, its clipped ends already lost). Measured on the greys Y 64 / 128 / 200: Firefox ESR
 * 153 paints 56 / 130 / 214 (as its WebCodecs decoder does before full-range.ts reads it back), WebKitGTK 2.50
 * 54 / 128 / 212. Visitors there see full-range 720p clips this way only when the decoder has failed.
 */
const VIDEO_IGNORES_FULL_RANGE: Record<string, string> = {
  firefox: 'Firefox ESR 153',
  webkit: 'WebKitGTK 2.50',
};

/**
 * Engines whose `VideoFrame.copyTo` cannot convert to RGBA, so the paint worker converts I420 in WebAssembly SIMD
 * (workers/yuv-wasm.ts): WebKitGTK 2.50 copies I420 whatever format is asked.
 */
const CONVERTS_IN_WASM: Record<string, string> = { webkit: 'WebKitGTK 2.50' };

let colours: [number, number, number][] = [];
before(async () => {
  colours = (await (await fetch(new URL('range.json', FIXTURES))).json()).colours;
});

/**
 * Each column's worst channel difference from its known colour, over its inside (a fifth of a column in from its
 * edges, where 4:2:0 chroma and scaling blend neighbours), read from `source` drawn at its own size.
 */
function columnErrors(source: ImageBitmap): { grey: number; colour: number; seen: number[][] } {
  const { width, height } = source;
  const ctx = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(source, 0, 0);
  const data = ctx.getImageData(0, 0, width, height).data;
  const col = width / COLUMNS;
  let grey = 0;
  let colour = 0;
  const seen: number[][] = [];
  for (let c = 0; c < COLUMNS; c++) {
    const x0 = Math.ceil(c * col + col / 5);
    const x1 = Math.floor((c + 1) * col - col / 5);
    const want = colours[c]!;
    const isGrey = want[0] === want[1] && want[1] === want[2];
    let worst = 0;
    let mid: number[] = [];
    for (let y = Math.floor(height / 8); y < height - height / 8; y += 7)
      for (let x = x0; x < x1; x += 3) {
        const i = (y * width + x) * 4;
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(data[i + k]! - want[k]!));
        mid = [data[i]!, data[i + 1]!, data[i + 2]!];
      }
    seen.push(mid);
    if (isGrey) grey = Math.max(grey, worst);
    else colour = Math.max(colour, worst);
  }
  return { grey, colour, seen };
}

/** Asserts a bitmap shows the known colours; the message names the path, the clip and what was painted. */
function expectColours(bitmap: ImageBitmap, what: string): void {
  const { grey, colour, seen } = columnErrors(bitmap);
  const message = `${what}: painted ${JSON.stringify(seen)}, want ${JSON.stringify(colours)}`;
  expect(grey, `greys of the ${message}`).to.be.at.most(GREY_TOLERANCE);
  expect(colour, `colours of the ${message}`).to.be.at.most(COLOUR_TOLERANCE);
}

for (const range of ['full', 'limited'] as const) {
  const url = new URL(`${range}.mp4`, FIXTURES).href;

  describe(`a ${range}-range clip is painted in its known colours (${ENGINE})`, () => {
    let bridge: WorkerBridge;
    let paint: Worker;
    beforeEach(() => {
      bridge = new WorkerBridge((m) => {
        throw new Error(m);
      });
      paint = createPaintWorker();
    });
    afterEach(() => {
      bridge.dispose();
      paint.terminate();
    });

    it('through the decode worker: its bitmap of the frame a jump waits for, and the paint worker at two sizes', async () => {
      const frames: DecodedFrame[] = [];
      // Frames 0..13: a keyframe, delta frames, the second keyframe (12) and a delta after it; 13 is the urgent frame,
      // made as a bitmap at a 640x360 canvas in the decode worker.
      await bridge.decode(
        {
          rendition: 'high',
          clipIndex: 0,
          url,
          from: 0,
          to: 13,
          batchSize: 14,
          urgent: 13,
          canvas: { width: 640, height: 360 },
        },
        (batch) => void frames.push(...batch),
      );
      expect(frames.map((f) => f.frame)).to.deep.equal([...Array(14).keys()]);
      const urgent = frames[13]!;
      expect([urgent.bitmap?.width, urgent.bitmap?.height]).to.deep.equal([640, 360]);
      expectColours(urgent.bitmap!, `decode worker's 640x360 bitmap of frame 13`);
      urgent.bitmap!.close();

      const api = wrap<PaintWorkerApi>(paint);
      let id = 1;
      for (const frame of [frames[0]!, frames[5]!, urgent]) {
        const { bitmap: _b, rendition: _r, clipIndex: _c, frame: n, ...pixels } = frame;
        expect([pixels.width, pixels.height]).to.deep.equal([W, H]);
        await api.run(transfer({ ops: [{ put: `high:${n}`, ...pixels }] }, [pixels.data]));
        for (const [width, height] of [
          [W, H],
          [640, 360],
        ] as const) {
          const reply = await api.run({ make: { id: id++, key: `high:${n}`, width, height, urgent: true } });
          expect(reply?.bitmap, `paint worker's bitmap of frame ${n}`).to.not.equal(undefined);
          expectColours(reply!.bitmap!, `paint worker's ${width}x${height} bitmap of frame ${n}`);
          reply!.bitmap!.close();
        }
      }
      // Who converted (the paint worker's timeline marks): the browser's copyTo, and the browser's drawing of the
      // first frame to compare (frame-bitmap.ts Way), or WebAssembly SIMD where copyTo cannot convert, never drawn;
      // never the script conversion in these engines (all three validate SIMD wasm in a worker).
      const marks = await api.timeline;
      const by = Object.keys(marks).filter((k) => k.startsWith('rgba '));
      expect(by.sort(), 'the paint worker converted').to.deep.equal(
        CONVERTS_IN_WASM[ENGINE] ? ['rgba in wasm'] : ['rgba by copyTo', 'rgba by drawImage'],
      );
    });

    // The browser's drawing of a VideoFrame of the copied pixels (frame-bitmap.ts Way 'draw'): the same colours as
    // the conversion, for each range; and the way a maker keeps is chosen after its trials, never drawing where copyTo
    // cannot convert (WebKitGTK: a VideoFrame drawn in two workers at once crashes the page).
    it('drawn by the browser where it may draw, and a way chosen after the trials', async () => {
      const frames: DecodedFrame[] = [];
      await bridge.decode(
        { rendition: 'high', clipIndex: 0, url, from: 0, to: 13, batchSize: 14 },
        (batch) => void frames.push(...batch),
      );
      const sizes = [
        [W, H],
        [640, 360],
        [650, 366],
      ] as const;
      if (!CONVERTS_IN_WASM[ENGINE]) {
        const drawn = new BitmapMaker('draw');
        for (const n of [0, 5, 13])
          for (const [width, height] of sizes) {
            const bitmap = await drawn.make(frames[n]!, width, height);
            expectColours(bitmap, `${width}x${height} drawing of frame ${n}`);
            bitmap.close();
          }
      }
      // The first bitmap made both ways and compared, then four of each way (way-chooser.ts TRIALS).
      const maker = new BitmapMaker();
      for (let i = 0; i < 9; i++) {
        const bitmap = await maker.make(frames[i]!, 650, 366);
        expectColours(bitmap, `chosen way's 650x366 bitmap of frame ${i}`);
        bitmap.close();
      }
      const kept = maker.wayFor(frames[0]!, 650, 366);
      if (CONVERTS_IN_WASM[ENGINE]) {
        expect(kept, 'the way kept').to.equal('copy');
        expect(timeline, 'drawn').to.not.have.property('rgba by drawImage');
      } else expect(kept, 'the way kept').to.be.oneOf(['copy', 'draw']);
    });

    const videoGap = range === 'full' ? VIDEO_IGNORES_FULL_RANGE[ENGINE] : undefined;
    const title = videoGap
      ? `through the <video> fallback (skipped: ${videoGap}'s own <video> paints full range as limited)`
      : 'through the <video> fallback';
    it(title, async function () {
      if (videoGap) this.skip();
      const clip = { index: 0, highURI: url, lowURI: url, frameCount: 15, duration: 1 } as Clip;
      let ready = () => {};
      let failed = (_m: string) => {};
      const fallback = new VideoFallback(
        [clip],
        () => ({ width: 640, height: 360 }),
        () => ready(),
        (m) => failed(m),
      );
      try {
        for (const frame of [0, 13]) {
          const shown = new Promise<void>((resolve, reject) => {
            ready = resolve;
            failed = (m) => reject(new Error(m));
          });
          fallback.setPosition(frame);
          await shown;
          const drawn = fallback.drawable(frame);
          expect(drawn, `frame ${frame} shown`).to.not.equal(undefined);
          expectColours(drawn!.bitmap!, `<video> fallback's 640x360 bitmap of frame ${frame}`);
        }
      } finally {
        fallback.dispose();
      }
    });
  });
}
