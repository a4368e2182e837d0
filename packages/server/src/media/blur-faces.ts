/**
 * Privacy: blurs faces in the tour clips, the thumbnail, reels and photos (docs/ai-and-media.md, "Privacy").
 *
 * Videos (clips, thumbnail and reels) are blurred while they are made, in one pass: ffmpeg decodes to raw frames,
 * {@link faceBlurFilter} blurs them, ffmpeg encodes them (media/frame-pipe.ts) — no second decode or encode. On the
 * copy path (a source in the clip format) only the sampled frames come here, and the clips the plan puts a box in are
 * decoded again from their copied clip and encoded (media/copy-faces.ts); steps 1 and 2 are the same (face-pass.ts).
 * 1. Detection: every DETECT_EVERY-th frame (and the last) goes through BlazeFace (services/ai/faces.ts) on a
 *    copy downscaled to about 360 px on its short side, straight from the yuv420p frame. The 360p rendition is
 *    made from the blurred 720p frames, so one detection serves both renditions and the thumbnail. It runs in a
 *    worker thread (face-detector-thread.ts: the sampled frame's buffer is transferred there and back), up to
 *    MAX_DETECTIONS_OUT samples behind, while this thread blurs and hands on the frames before them. Which samples
 *    it sees (face-samples.ts): while nothing is in view, one in SPARSE (a sentinel, 0.6 a second); the samples
 *    between wait and are detected after all (backfill) when a detection on either side of them finds a face or a cut
 *    follows them, so a face is found from the first sample it shows in and face-free footage pays a quarter of the
 *    detections. While sure faces are in view, every other sample follows them (face-track.ts, in the thread) instead of
 *    running BlazeFace. Reels (`letterbox`) detect every sample: their segments join different rooms at hard cuts that
 *    the cut test may miss.
 * 2. Boxes between samples (faces in a walkthrough move slowly): the same face found at two consecutive samples
 *    gets a box interpolated between them (grown by BOX_MARGIN + TRACK_MARGIN, a little more mid-way); a face
 *    found on one side only covers the frames up to the other sample, grown by BOX_MARGIN plus MOTION_MARGIN per
 *    frame of distance, and one more sampling step (a missed detection, or it left or arrived), so one missed sample
 *    leaves no gap. Nothing is matched across a cut (reel segments: a big change of the whole picture).
 * 3. Frames are held back until every sample that can put a box on them is in the plan (three samples ahead, the
 *    look-ahead those boxes need; more while samples wait for the next sentinel: at most (SPARSE + 3) × DETECT_EVERY
 *    frames, about 58 MB at 720p), then blurred (three box-blur passes inside each box, reading only inside it) and
 *    handed to the encoder.
 *
 * Images (shots): detection on a copy of at most 1280 px, then the same blur in each grown box.
 * Step 2 lives in face-plan.ts, the blur of step 3 in blur-plane.ts.
 */
import sharp from 'sharp';
import { detectFaces } from './faces.js';
import { BLUR_MIN_SCORE, plausibleFace, type Rect } from './face-detect.js';
import type { FrameFilter, FrameFilterFactory } from './frame-pipe.js';
import type { ProcessVideoOptions, ProcessVideoResult } from './process-video.js';
import { DETECT_EVERY, growBox } from './face-plan.js';
import { blurPlane } from './blur-plane.js';
import { type FaceBlurStats, FacePass, MAX_DETECTIONS_OUT, glance, newFaceBlurStats } from './face-pass.js';
import type { HeldFrame } from './face-samples.js';
import { SPARSE } from './face-samples.js';

export { CUT_DIFFERENCE, MAX_DETECTIONS_OUT, newFaceBlurStats, type FaceBlurStats } from './face-pass.js';

/**
 * The privacy frame filter (see the header): detects faces on every `every`-th frame and blurs them in every frame.
 * `letterbox`: one detector run per sample instead of two tiles (reels). `stats`, when given, is filled in as frames
 * pass. The factory's `facePass` gives the same pass to a holder of sampled frames only (the copy path, copy-faces.ts).
 */
export function faceBlurFilter(
  o: { every?: number; letterbox?: boolean; sparse?: number; stats?: FaceBlurStats } = {},
): FrameFilterFactory {
  const every = o.every ?? DETECT_EVERY;
  const stats = o.stats ?? newFaceBlurStats();
  const facePass = ({ width, height }: { width: number; height: number }) =>
    new FacePass({
      width,
      height,
      every,
      // Reels detect every sample: their segments join different rooms at hard cuts the cut test may miss.
      sparse: o.letterbox ? 1 : (o.sparse ?? SPARSE),
      letterbox: !!o.letterbox,
      stats,
    });
  const factory = ({ width, height }: { width: number; height: number }): FrameFilter => {
    const pass = facePass({ width, height });
    return Object.assign(blurFaces, { changed: pass.changed });
    async function* blurFaces(frames: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      const { plan } = pass;
      const held: HeldFrame[] = [];
      let ended = false;
      const release = (h: HeldFrame) => {
        pass.blur(h.frame!, h.index);
        return h.frame!;
      };
      try {
        let index = 0;
        for await (const frame of frames) {
          stats.framesInNode = (stats.framesInNode ?? 0) + 1;
          pass.look(glance(frame, width, height));
          const h: HeldFrame = { frame, index };
          held.push(h);
          index++;
          // Detection sees the frame before any blur (frames are blurred only when they leave, after their answer).
          if (h.index % every === 0) {
            pass.offer(h, h.index === 0);
            // The thread works on this sample while the frames before it are blurred and written; at most
            // MAX_DETECTIONS_OUT are out (the frames held grow by `every` with each).
            await pass.settle(MAX_DETECTIONS_OUT);
          } else {
            await pass.settle(Infinity);
          }
          while (held.length && plan.ready(held[0]!.index)) yield release(held.shift()!);
        }
        const last = held.at(-1);
        if (last && last.index % every !== 0) pass.offer(last, true);
        await pass.finish();
        while (held.length) yield release(held.shift()!);
        ended = true;
      } finally {
        // Kept for the next video after a normal end; stopped after a failure or an early stop.
        await pass.close(ended);
      }
    }
  };
  return Object.assign(factory, { facePass });
}

/** Face rectangles (grown for blurring) in an image, detected on a copy of at most 1280 px. */
export async function findFacesInImage(
  image: Buffer | string,
): Promise<{ rects: Rect[]; width: number; height: number }> {
  const meta = await sharp(image, { limitInputPixels: 100_000_000 }).rotate().metadata();
  const oriented = (meta.orientation ?? 1) >= 5;
  const width = (oriented ? meta.height : meta.width) ?? 0;
  const height = (oriented ? meta.width : meta.height) ?? 0;
  const k = Math.min(1, 1280 / Math.max(width, height));
  const small = await sharp(image, { limitInputPixels: 100_000_000 })
    .rotate()
    .resize(Math.round(width * k), Math.round(height * k), { fit: 'fill' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  // A photo has no neighbouring samples to confirm a face: plausible size, shape and keypoints decide.
  const faces = (await detectFaces(small.data, small.info.width, small.info.height, BLUR_MIN_SCORE)).filter((b) =>
    plausibleFace(b, small.info.width, small.info.height),
  );
  return { rects: faces.map((f) => growBox(f, width / small.info.width, 0, width, height)), width, height };
}

/** Blurs faces (plus `extra` rectangles) in an image; answers null when there was nothing to blur. */
export async function blurFacesInImage(image: Buffer | string, extra: Rect[] = []): Promise<Buffer | null> {
  const found = await findFacesInImage(image);
  const rects = [...found.rects, ...extra].filter((r) => r.width >= 2 && r.height >= 2);
  if (!rects.length) return null;
  const base = sharp(image, { limitInputPixels: 100_000_000 }).rotate().removeAlpha();
  const { data, info } = await base.raw().toBuffer({ resolveWithObject: true });
  const ch = info.channels;
  // Per channel: the same blur as the clips, so a face is equally unreadable in a photo.
  for (let c = 0; c < ch; c++) {
    const plane = new Uint8Array(info.width * info.height);
    for (let i = 0; i < plane.length; i++) plane[i] = data[i * ch + c]!;
    for (const r of rects) blurPlane(plane, info.width, clampRect(r, info.width, info.height));
    for (let i = 0; i < plane.length; i++) data[i * ch + c] = plane[i]!;
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: ch } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

function clampRect(r: Rect, width: number, height: number): Rect {
  const x = Math.max(0, Math.min(width, r.x));
  const y = Math.max(0, Math.min(height, r.y));
  return {
    x,
    y,
    width: Math.max(0, Math.min(width - x, r.width)),
    height: Math.max(0, Math.min(height - y, r.height)),
  };
}

/** Options of the media core plus the tour's privacy switch. */
export type PrivacyOptions = { blurFaces?: boolean };

/**
 * The media core with the privacy blur: unless `blurFaces` is false, processVideo runs with faceBlurFilter between
 * its decoding and its encoding. Injected stand-ins (tests of the job's bookkeeping) are not wrapped, so they never
 * see the option's effect.
 */
export function withFaceBlur<F extends (o: ProcessVideoOptions) => Promise<ProcessVideoResult>>(processVideo: F): F {
  return (async (opts: ProcessVideoOptions & PrivacyOptions) => {
    const { blurFaces, ...rest } = opts;
    return processVideo(blurFaces === false ? rest : { ...rest, frameFilter: faceBlurFilter() });
  }) as unknown as F;
}
