/**
 * Faces that come and go, for `npm run bench:privacy` (bench/privacy.ts runs it after its own figures).
 *
 * The privacy source of bench/privacy.ts always has a face in view, so every sample of it is detected and the
 * sampler's sentinels (face-samples.ts: while nothing is in view, one sample in `sparse` is detected) are never put to
 * the test. This source is the case they exist for: 60 s of a moving, noisy background with no face, where one face
 * at a time shows up for a while and leaves. Each appearance lasts 0.5 to 3.3 s, each duration twice, at different
 * times against the sampling grid and at different places; a face drifts slowly while shown.
 *
 * For each `sparse` in BENCH_SPARSE (default `4,8`; 4 is the product's), the media core processes the source with the
 * blur on, and for every appearance the tour frames in which the face was hidden (the detail test of bench/privacy.ts)
 * are counted. Printed: the detector's runs (what the face pass costs on face-free footage grows with them), and per
 * duration how many appearances were hidden in every frame they show in, and how many were never blurred at all.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { faceBlurFilter, newFaceBlurStats } from '../src/media/blur-faces.js';
import { CLIP_FPS } from '../src/media/encoding.js';
import { DETECT_EVERY } from '../src/media/face-plan.js';
import { processVideo, type ProcessVideoResult } from '../src/media/process-video.js';
import { decodeRgb, energy, faceVideo, facesAt, type MovingFace } from '../test/support/faces.js';
import { timed } from './timing.js';

const WIDTH = 1280;
const HEIGHT = 720;
const SECONDS = 60;
/** How long each appearance lasts (s); each twice, the second round in reverse order and shifted against the grid. */
const DURATIONS = [0.5, 1.0, 1.3, 1.7, 2.0, 2.5, 3.3];
/** Seconds without a face between two appearances. */
const GAP = 2.4;
/** Face size at 720p: a person a few metres from the phone. */
const FACE_SIZE = 130;

interface Appearance {
  face: MovingFace;
  from: number;
  to: number;
}

/** The appearances, in time order: round one from 1.0 s, round two (durations reversed) 0.7 s later on the grid. */
function appearances(): Appearance[] {
  const out: Appearance[] = [];
  let t = 1.0;
  const order = [...DURATIONS, ...[...DURATIONS].reverse()];
  for (const [i, d] of order.entries()) {
    if (i === DURATIONS.length) t += 0.7;
    const from = Math.round(t * 100) / 100;
    const to = Math.round((t + d) * 100) / 100;
    const x0 = 120 + ((i * 173) % (WIDTH - FACE_SIZE - 240));
    const y0 = 80 + ((i * 97) % (HEIGHT - FACE_SIZE - 160));
    // Drifts 30 px a second from where it shows up (the overlay's t is the video's).
    out.push({
      from,
      to,
      face: {
        crop: i % 5,
        size: FACE_SIZE,
        x: [`${x0}+30*(t-${from})`, (s) => x0 + 30 * (s - from)],
        y: [`${y0}`, () => y0],
        shown: [[from, to]],
      },
    });
    t += d + GAP;
  }
  if (t > SECONDS) throw new Error(`the appearances need ${t.toFixed(1)} s, more than the source's ${SECONDS}`);
  return out;
}

async function source(dir: string, shown: Appearance[]): Promise<string> {
  const path = join(dir, 'faces-come-and-go-720p30-60s-v1.mp4');
  if (existsSync(path)) return path;
  await mkdir(dir, { recursive: true });
  console.log('Generating the 60 s 720p30 source with faces that come and go (once)...');
  const partial = `${path}.part.mp4`;
  await faceVideo(partial, {
    width: WIDTH,
    height: HEIGHT,
    fps: 30,
    seconds: SECONDS,
    background: `testsrc2=size=${WIDTH}x${HEIGHT}:rate=30,noise=alls=4:allf=t`,
    faces: shown.map((a) => a.face),
    dir,
  });
  await rename(partial, path);
  await Promise.all(shown.map((_, k) => rm(join(dir, `face-${k}.png`), { force: true })));
  return path;
}

/** Per appearance: tour frames it shows in, and of those the frames where the face was hidden. */
async function hiddenFrames(plain: ProcessVideoResult, blurred: ProcessVideoResult, shown: Appearance[]) {
  const per = shown.map(() => ({ frames: 0, hidden: 0 }));
  const faces = shown.map((a) => a.face);
  let n = 0;
  const clips = [...blurred.clips].sort((a, b) => a.index - b.index);
  for (const [k, c] of clips.entries()) {
    const [b, p] = await Promise.all([
      decodeRgb(c.highPath, WIDTH, HEIGHT),
      decodeRgb(plain.clips[k]!.highPath, WIDTH, HEIGHT),
    ]);
    for (let i = 0; i < b.length; i++, n++) {
      for (const f of facesAt(faces, n / CLIP_FPS)) {
        // The face's inner 76 %, inside the frame (bench/privacy.ts's test).
        const inset = Math.round(f.w * 0.12);
        const r = { x: f.x + inset, y: f.y + inset, w: f.w - 2 * inset, h: f.h - 2 * inset };
        if (r.x < 0 || r.y < 0 || r.x + r.w > WIDTH || r.y + r.h > HEIGHT) continue;
        per[f.face]!.frames++;
        if (energy(b[i]!, WIDTH, r) < 0.4 * energy(p[i]!, WIDTH, r)) per[f.face]!.hidden++;
      }
    }
  }
  return per;
}

/** Processes the source once plain and once per `sparse`, and prints the figures of the header. */
export async function briefFaces(dir: string): Promise<void> {
  const sparses = (process.env.BENCH_SPARSE ?? '4,8').split(',').map(Number);
  const shown = appearances();
  const input = await source(dir, shown);
  const work = join(dir, 'privacy-brief-run');
  await rm(work, { recursive: true, force: true });
  const plain = await processVideo({ input, workDir: join(work, 'off') });
  console.log(
    `\nfaces that come and go: ${SECONDS} s ${WIDTH}x${HEIGHT} 30 fps, ${shown.length} appearances of one face at a time (${FACE_SIZE} px), ${GAP} s apart`,
  );
  for (const sparse of sparses) {
    const stats = newFaceBlurStats();
    const dirOn = join(work, `sparse-${sparse}`);
    const r = await timed(() =>
      processVideo({ input, workDir: dirOn, frameFilter: faceBlurFilter({ sparse, stats }) }),
    );
    const per = await hiddenFrames(plain, r.value, shown);
    // `samples` counts the samples the detection thread answered (detected or followed); the rest were left out.
    const tracked = stats.trackedSamples ?? 0;
    const skipped = stats.skippedSamples ?? 0;
    console.log(
      `sparse ${sparse} (a sentinel every ${((sparse * DETECT_EVERY) / CLIP_FPS).toFixed(1)} s): ${stats.samples + skipped} samples, detector run on ${stats.samples - tracked}, ${tracked} followed, ${skipped} left out; processing ${r.timing.cpu.toFixed(2)} s cpu, ${r.timing.wall.toFixed(2)} s wall`,
    );
    for (const d of DURATIONS) {
      const of = shown.flatMap((a, i) => (Math.abs(a.to - a.from - d) < 1e-6 ? [per[i]!] : []));
      const whole = of.filter((x) => x.frames > 0 && x.hidden === x.frames).length;
      const never = of.filter((x) => x.hidden === 0).length;
      console.log(
        `  shown ${d.toFixed(1)} s: hidden in every frame ${whole}/${of.length}, never hidden ${never}/${of.length}; frames hidden ${of.map((x) => `${x.hidden}/${x.frames}`).join(', ')}`,
      );
    }
    await rm(dirOn, { recursive: true, force: true });
  }
  await rm(work, { recursive: true, force: true });
}
