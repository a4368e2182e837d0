import type { DecodeController } from '../decode/decode-controller.js';
import type { CanvasController } from '../controllers/canvas-controller.js';
import type { HostBridgeController } from '../controllers/host-bridge-controller.js';

const NO_WORKER = {
  openFrames: 0,
  maxOpenFrames: 0,
  decodedFrames: 0,
  decodeMsPerFrame: 0,
  framesThroughDecoder: 0,
  stallFlushes: 0,
  resumedPasses: 0,
  resumedSamples: 0,
  resumedSingles: 0,
};

/** Memory and frame counters of one player (the element's `stats()`, for tests and the benchmark). */
export async function playerStats(d: DecodeController, c: CanvasController, bridge: HostBridgeController) {
  const w = await d.workerStats().catch(() => NO_WORKER);
  const paint = c.paintStats;
  const bitmaps = c.bitmapBytes;
  return {
    cacheBytes: d.frames.cache.totalBytes,
    cacheFrames: d.frames.cache.size,
    peakCacheBytes: d.frames.cache.peakBytes,
    // The decoder's peak and the paint's, added: never below the bytes held at any one moment.
    peakDecodedBytes: d.peakDecodedBytes + bitmaps.peak,
    thumbnailBytes: d.frames.state.thumbBytes,
    workers: d.workers,
    readyBitmapBytes: bitmaps.now,
    peakBitmapBytes: bitmaps.peak,
    bitmapsMade: paint.made,
    paintWorkerMsMean: paint.made ? paint.workerMsTotal / paint.made : 0,
    workerOpenFrames: w.openFrames,
    workerMaxOpenFrames: w.maxOpenFrames,
    decodedFrames: w.decodedFrames,
    decodeMsPerFrame: w.decodeMsPerFrame,
    framesThroughDecoder: w.framesThroughDecoder,
    stallFlushes: w.stallFlushes,
    resumedPasses: w.resumedPasses,
    resumedSamples: w.resumedSamples,
    resumedSingles: w.resumedSingles,
    rejectedHostMessages: bridge.rejected,
    paints: c.paintCount,
    drawMsMax: c.drawMsMax,
    drawMsMean: c.paintCount ? c.drawMsTotal / c.paintCount : 0,
    cancelledDecodes: d.cancelledJobs,
    rushedRests: d.rushedRests,
  };
}
