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
  return {
    cacheBytes: d.cache.totalBytes,
    cacheFrames: d.cache.size,
    peakCacheBytes: d.cache.peakBytes,
    peakDecodedBytes: d.peakDecodedBytes,
    thumbnailBytes: d.paint.thumbBytes,
    workers: d.workers,
    readyBitmapBytes: d.paint.bitmapBytes,
    bitmapsMade: d.paint.made,
    paintWorkerMsMean: d.paint.made ? d.paint.workerMsTotal / d.paint.made : 0,
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
  };
}
