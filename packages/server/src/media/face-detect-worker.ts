/**
 * The face detection thread (face-detector-thread.ts starts it): owns its own TensorFlow.js runtime and BlazeFace,
 * answers one request per sampled frame, in order. The frame's buffer comes in transferred and goes back transferred
 * with the faces found (the caller blurs and encodes that same buffer afterwards): no copy either way.
 */
import { parentPort } from 'node:worker_threads';
import { loadFaceDetector } from './faces.js';
import { detectFacesInYuv420 } from './face-detect.js';
import type { DetectReply, DetectRequest } from './face-detector-thread.js';

const port = parentPort!;
// The model loads while the caller's decoder starts, not on the first sample.
const ready = loadFaceDetector();
port.on('message', (m: DetectRequest) => {
  void (async () => {
    const frame = new Uint8Array(m.frame);
    try {
      await ready;
      const t0 = performance.now();
      const faces = await detectFacesInYuv420(frame, m.width, m.height, m.letterbox);
      const reply: DetectReply = { id: m.id, faces, seconds: (performance.now() - t0) / 1000, frame: m.frame };
      port.postMessage(reply, [m.frame]);
    } catch (err) {
      const reply: DetectReply = {
        id: m.id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        frame: m.frame,
      };
      port.postMessage(reply, [m.frame]);
    }
  })();
});
