/**
 * The face detection thread (face-detector-thread.ts starts it): owns its own TensorFlow.js runtime and BlazeFace,
 * answers one request per sampled frame, in order. The frame's buffer comes in transferred and goes back transferred
 * with the faces found (the caller blurs and encodes that same buffer afterwards): no copy either way.
 *
 * While sure faces are in view, every other sample is answered by following them (face-track.ts) instead of running
 * BlazeFace: a sample right after a detection whose faces all scored at least CONFIRM_SCORE, in frame order, with no
 * cut between. Any face lost by the tracker, any unsure face (it must be confirmed by a detection of its own, see
 * FacePlan), a cut, a sample sent out of order (a backfilled one, face-samples.ts) or a reel's letterboxed sample runs
 * the detector. A face arriving meanwhile is found one sample later, which the plan's boxes reach back over (as over a
 * missed detection).
 */
import { parentPort } from 'node:worker_threads';
import { loadFaceDetector } from './faces.js';
import { CONFIRM_SCORE, detectFacesInYuv420, type Rect } from './face-detect.js';
import { type FaceTemplate, TRACK_MIN_SCORE, faceTemplate, trackFace } from './face-track.js';
import type { DetectReply, DetectRequest } from './face-detector-thread.js';

/** Faces of the last sample detected in frame order, to follow at the next one. */
let following: FaceTemplate[] | null = null;
/** The latest frame index asked about: a request for an earlier one is a backfill (detected, following untouched). */
let lastIndex = -1;
/** The video those belong to (a kept thread serves several, face-detector-thread.ts). */
let video = 0;

/** The faces at a sample: followed from the last detection where it can (see the header), else detected. */
async function facesAt(m: DetectRequest, frame: Uint8Array): Promise<{ faces: Rect[]; tracked: boolean }> {
  if (m.video !== video) {
    // The thread was kept for another video: nothing of the last one is followed.
    video = m.video;
    following = null;
    lastIndex = -1;
  }
  if (m.index <= lastIndex)
    return { faces: await detectFacesInYuv420(frame, m.width, m.height, m.letterbox), tracked: false };
  lastIndex = m.index;
  const luma = frame.subarray(0, m.width * m.height);
  const from = following;
  following = null;
  if (from && !m.cut && !m.letterbox) {
    const moved = from.map((t) => trackFace(t, luma, m.width, m.height));
    if (moved.every((r) => r.score >= TRACK_MIN_SCORE)) return { faces: moved.map((r) => r.face), tracked: true };
  }
  const faces = await detectFacesInYuv420(frame, m.width, m.height, m.letterbox);
  // Only sure faces are followed; an unsure one is detected again at the next sample (its confirmation).
  if (!m.letterbox && faces.length && faces.every((f) => (f.score ?? 0) >= CONFIRM_SCORE))
    following = faces.map((f) => faceTemplate(luma, m.width, m.height, f));
  return { faces, tracked: false };
}

const port = parentPort!;
// The model loads while the caller's decoder starts, not on the first sample.
const ready = loadFaceDetector();
// One request at a time, in the order sent: following a face needs the sample before it answered.
let queue: Promise<unknown> = ready.catch(() => {});
port.on('message', (m: DetectRequest) => {
  queue = queue.then(async () => {
    const frame = new Uint8Array(m.frame);
    try {
      await ready;
      const t0 = performance.now();
      const { faces, tracked } = await facesAt(m, frame);
      const reply: DetectReply = { id: m.id, faces, tracked, seconds: (performance.now() - t0) / 1000, frame: m.frame };
      port.postMessage(reply, [m.frame]);
    } catch (err) {
      const reply: DetectReply = {
        id: m.id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        frame: m.frame,
      };
      port.postMessage(reply, [m.frame]);
    }
  });
});
