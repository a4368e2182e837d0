/**
 * Test and benchmark helpers of the privacy blur: real face photographs (test/assets), generated
 * videos with faces at known positions, and a measure of how much detail is left inside a face.
 *
 * Faces are the crops shown in `test/assets/screenshot-facedetect.jpg` (real photographs from `@vladmandic/human`'s
 * assets, MIT; see test/assets/README.md; nothing is downloaded).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ffmpegBinaries } from '../../src/media/ffmpeg-binaries.js';

const run = promisify(execFile);

const FACE_SAMPLE = fileURLToPath(new URL('../assets/screenshot-facedetect.jpg', import.meta.url));
/** Left edges of the five face crops of the sample screenshot's bottom row (800x718 image; 148 px squares at y 348). */
const FACE_LEFTS = [8, 163, 318, 475, 630] as const;

/** Face crop `i` (0–4) of the sample, as a `size`-pixel square PNG. */
export async function faceImage(i: number, size: number): Promise<Buffer> {
  return sharp(FACE_SAMPLE)
    .extract({ left: FACE_LEFTS[i]!, top: 348, width: 148, height: 148 })
    .resize(size, size)
    .png()
    .toBuffer();
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Grey levels' high-frequency energy (mean |Laplacian|) inside a rectangle of a packed RGB frame. */
export function energy(rgb: Uint8Array, width: number, r: Rect): number {
  const g = (x: number, y: number) => {
    const i = (y * width + x) * 3;
    return 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
  };
  let sum = 0;
  let n = 0;
  for (let y = r.y + 1; y < r.y + r.h - 1; y++) {
    for (let x = r.x + 1; x < r.x + r.w - 1; x++) {
      sum += Math.abs(4 * g(x, y) - g(x - 1, y) - g(x + 1, y) - g(x, y - 1) - g(x, y + 1));
      n++;
    }
  }
  return n ? sum / n : 0;
}

/** Every frame of a video as packed RGB at width x height. */
export async function decodeRgb(file: string, width: number, height: number): Promise<Buffer[]> {
  const { stdout } = await run(
    ffmpegBinaries().ffmpeg,
    ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${width}x${height}`, 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 2 * 1024 ** 3,
    },
  );
  const size = width * height * 3;
  return Array.from({ length: Math.floor(stdout.length / size) }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
}

/** A face moving over the picture: its crop, size in source pixels, position at time t and when it shows. */
export interface MovingFace {
  crop: number;
  size: number;
  /** ffmpeg expressions of t (overlay's x and y) and the same as JavaScript. */
  x: [string, (t: number) => number];
  y: [string, (t: number) => number];
  /** Shown only inside these [from, to) seconds (always when absent). */
  shown?: Array<[number, number]>;
}

/** Where each face is at time t (source pixels), for the faces shown then. */
export function facesAt(faces: MovingFace[], t: number): Array<Rect & { face: number }> {
  return faces.flatMap((f, face) =>
    !f.shown || f.shown.some(([a, b]) => t >= a && t < b)
      ? [{ face, x: Math.round(f.x[1](t)), y: Math.round(f.y[1](t)), w: f.size, h: f.size }]
      : [],
  );
}

/**
 * Writes an H.264 video: `background` (a lavfi source at width x height, fps) with the faces overlaid at their
 * positions. ultrafast, CRF 16, so the faces keep their detail.
 */
export async function faceVideo(
  out: string,
  o: {
    width: number;
    height: number;
    fps: number;
    seconds: number;
    background: string;
    faces: MovingFace[];
    dir: string;
  },
): Promise<string> {
  const { ffmpeg } = ffmpegBinaries();
  const inputs: string[] = ['-f', 'lavfi', '-i', o.background];
  const filters: string[] = [];
  let last = '0:v';
  for (const [k, f] of o.faces.entries()) {
    const png = join(o.dir, `face-${k}.png`);
    await sharp(await faceImage(f.crop, f.size)).toFile(png);
    inputs.push('-loop', '1', '-framerate', String(o.fps), '-i', png);
    const enable = f.shown ? `:enable='${f.shown.map(([a, b]) => `between(t,${a},${b - 0.0001})`).join('+')}'` : '';
    filters.push(`[${last}][${k + 1}:v]overlay=x='${f.x[0]}':y='${f.y[0]}':shortest=1:eval=frame${enable}[v${k}]`);
    last = `v${k}`;
  }
  filters.push(`[${last}]format=yuv420p[out]`);
  await run(
    ffmpeg,
    [
      '-v',
      'error',
      '-y',
      ...inputs,
      '-filter_complex',
      filters.join(';'),
      '-map',
      '[out]',
      '-t',
      String(o.seconds),
      '-r',
      String(o.fps),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '16',
      out,
    ],
    { timeout: 600_000 },
  );
  return out;
}
