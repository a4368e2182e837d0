import { expect } from '@esm-bundle/chai';
import { DecodeScheduler, type DecodeTour } from './decode-scheduler.js';
import type { Clip } from '../api/types.js';
import type { DecodedFrame, DecodeRequest, Rendition, Rush } from '../workers/decode-types.js';
import type { WorkerBridge } from '../workers/worker-bridge.js';

type OnBatch = (frames: DecodedFrame[]) => void | Promise<void>;
interface Call {
  method: 'decode' | 'keyframe';
  req: DecodeRequest;
  signal?: AbortSignal;
}

/** A running pass told to hand back the frame the finger rests on first (WorkerBridge.rush). */
type RushCall = Rush & { id: number };

const CLIPS = 20;
const FRAMES = 36;

/**
 * A worker pool that decodes at once (its frames handed back in the next task), except the 720p passes of the clips in
 * `hold`, which run until cancelled: a pass still on its way when the playhead jumps.
 */
function fakePool(n: number, hold: Set<number>, calls: Call[], rushes: RushCall[] = []): WorkerBridge[] {
  const bridge = () => {
    const run =
      (method: Call['method']) =>
      (req: DecodeRequest, onBatch: OnBatch, signal?: AbortSignal): Promise<number> => {
        calls.push({ method, req, ...(signal ? { signal } : {}) });
        if (method === 'decode' && req.rendition === 'high' && hold.has(req.clipIndex))
          return new Promise((resolve) => signal?.addEventListener('abort', () => resolve(0), { once: true }));
        return new Promise((resolve) =>
          setTimeout(() => {
            const frames: DecodedFrame[] = [];
            for (let f = req.from; f <= req.to; f++)
              frames.push({
                rendition: req.rendition,
                clipIndex: req.clipIndex,
                frame: f,
                width: 4,
                height: 4,
                data: new ArrayBuffer(24),
                format: 'I420',
              });
            void onBatch(frames);
            resolve(frames.length);
          }),
        );
      };
    const rush = (id: number, r: Rush) => void rushes.push({ id, ...r });
    return { decode: run('decode'), keyframe: run('keyframe'), rush } as unknown as WorkerBridge;
  };
  return Array.from({ length: n }, bridge);
}

/**
 * Lets tasks run until `done()` holds (the fake pool answers in the next task, the scheduler reacts in microtasks): a
 * condition waited for, not a time. Fails naming `what` when 100 task turns did not bring it.
 */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100; turn++) {
    if (done()) return;
    await new Promise((r) => setTimeout(r));
  }
  expect.fail(`${what}: not after 100 task turns`);
}
const highPass = (calls: Call[], clip: number) =>
  calls.find((c) => c.method === 'decode' && c.req.rendition === 'high' && c.req.clipIndex === clip);

/** A scheduler on a 20-clip tour (36 frames each) with two fake workers, started, its first frame decoded. */
async function started(hold: Set<number>, calls: Call[], rushes: RushCall[] = []) {
  const kept: Record<Rendition, Map<number, DecodedFrame>> = { low: new Map(), high: new Map() };
  const starts = Array.from({ length: CLIPS }, (_, i) => i * FRAMES);
  const tour: DecodeTour = {
    clips: starts.map((_, i) => ({ highURI: `high-${i}`, lowURI: `low-${i}` }) as unknown as Clip),
    starts,
    counts: starts.map(() => FRAMES),
    clipOf: Array.from({ length: CLIPS * FRAMES }, (_, f) => Math.floor(f / FRAMES)),
    bridges: fakePool(2, hold, calls, rushes),
    batch: 20,
  };
  const scheduler = new DecodeScheduler(
    {
      put: (tourFrame: number, f: DecodedFrame) => void kept[f.rendition].set(tourFrame, f),
      state: { thumbnails: [] },
      cache: { kept, focus: () => {} },
    } as never,
    { bitmapSize: { width: 650, height: 366 } },
    {
      downloads: () => ({ highReady: { has: () => true }, highFetchMs: 1, lowFetchMs: 1 }),
      fetchHigh: () => Promise.resolve(),
      startLow: () => {},
      decoded: () => {},
    } as never,
    { failed: (e) => expect.fail(String(e)), framesArrived: () => {}, notePeak: () => {} },
  );
  scheduler.start(tour);
  await until('the first frame decoded', () => kept.high.has(0));
  // At 520, then a step back to 514 (clip 14, frame 10): going backward, clip 13's 720p frames are decoded whole
  // (0-35) in a pass of the window, which is still running (held) when the playhead goes there.
  hold.add(13);
  scheduler.setPosition(520);
  await until('frame 520 decoded', () => kept.high.has(520));
  scheduler.setPosition(514);
  await until('frame 514 decoded, a 720p pass of clip 13 asked', () => kept.high.has(514) && !!highPass(calls, 13));
  const windowPass = highPass(calls, 13);
  expect(windowPass?.req.from).to.equal(0);
  expect(windowPass?.req.urgent).to.equal(undefined);
  hold.clear();
  return { scheduler, kept, windowPass: windowPass! };
}

describe('decode scheduler: a jump onto a frame already on its way in a pass that copies others first', () => {
  it("gives a jump's frame a pass of its own instead of waiting for the frames before it", async () => {
    const calls: Call[] = [];
    const { scheduler, kept, windowPass } = await started(new Set(), calls);
    // The jump to 477 (clip 13, frame 9): its frame is on its way in that pass, after nine others.
    const before = calls.length;
    scheduler.setPosition(477);
    await until("the jump's frame 477 decoded", () => kept.high.has(477));
    // That pass is stopped, and the first 720p pass after the jump is the exact frame's own, asked as its urgent frame
    // (a bitmap at once); before, nothing was asked until the window pass had copied frames 0-8.
    expect(windowPass.signal?.aborted).to.equal(true);
    const after = calls.slice(before).filter((c) => c.method === 'decode' && c.req.rendition === 'high');
    expect(after[0]?.req).to.include({ clipIndex: 13, from: 9, urgent: 9 });
    expect(kept.high.has(477)).to.equal(true);
    scheduler.stop();
  });
});

describe('decode scheduler: the finger rests on a frame a running pass has not copied yet', () => {
  // decode-scheduler.ts rest: in Firefox ESR the engines bench's first rest waited for the frames from the keyframe to
  // be copied, 10 ms each (107 ms quiet, 387 beside a busy core).
  it("has that pass hand the rest's frame back first, and starts nothing else meanwhile", async () => {
    const calls: Call[] = [];
    const rushes: RushCall[] = [];
    const { scheduler, kept, windowPass } = await started(new Set(), calls, rushes);
    // A step from 514 to 500 (clip 13, frame 32), on its way in the window pass with 32 frames before it; then the
    // finger rests.
    const before = calls.length;
    scheduler.setPosition(500);
    await until('the rest told to the pass', () => rushes.length > 0);
    expect(rushes).to.deep.equal([{ id: windowPass.req.id, frame: 32, canvas: { width: 650, height: 366 } }]);
    expect(windowPass.signal?.aborted, 'the pass goes on').to.equal(false);
    expect(kept.high.has(500)).to.equal(false);
    // No 720p pass of clip 13's frames before 32 was started meanwhile (they come after the rest's frame).
    const after = calls.slice(before).filter((c) => c.method === 'decode' && c.req.rendition === 'high');
    expect(after.filter((c) => c.req.clipIndex === 13)).to.deep.equal([]);
    scheduler.stop();
  });
});
