/** Generated videos with known room boundaries, for the AI, reel and photo tests and the accuracy measurement. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { cachedVideo } from '../../../../scripts/test-video-cache.mjs';
import { ffmpegBinaries } from '../../src/media/ffmpeg-binaries.js';

/** One "room": a lavfi source that looks nothing like its neighbours. */
const SCENES = [
  (d: number, s: string) => `testsrc2=size=${s}:rate=15:duration=${d}`,
  (d: number, s: string) => `mandelbrot=size=${s}:rate=15,trim=duration=${d}`,
  (d: number, s: string) => `color=c=0x3a8d2c:size=${s}:rate=15:duration=${d},noise=alls=30:allf=t`,
  (d: number, s: string) => `smptehdbars=size=${s}:rate=15:duration=${d},hue=H=t*0.2`,
  (d: number, s: string) =>
    `color=c=0x8a5a3c:size=${s}:rate=15:duration=${d},noise=alls=20:allf=t,drawbox=x=mod(t*80\\,600):y=100:w=120:h=160:color=0xeeeeee:t=fill`,
  (d: number, s: string) =>
    `life=size=${s}:rate=15:mold=10:life_color=0x2050c0:death_color=0xd0d0d0,trim=duration=${d}`,
] as const;

/** A video whose scene k lasts durations[k] seconds; returns the file and the true boundaries (seconds). */
export async function multiSceneVideo(
  durations: number[],
  o: { width?: number; height?: number; dir?: string } = {},
): Promise<{ file: string; boundaries: number[] }> {
  const size = `${o.width ?? 640}x${o.height ?? 360}`;
  const dir = o.dir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'roomwalk-ai-video-')));
  const file = path.join(dir, `scenes-${durations.join('-')}-${size}.mp4`);
  const inputs = durations.flatMap((d, k) => ['-f', 'lavfi', '-i', SCENES[k % SCENES.length]!(d, size)]);
  const chain = durations.map((_, k) => `[${k}:v]format=yuv420p,setsar=1[v${k}]`).join(';');
  const concat = `${durations.map((_, k) => `[v${k}]`).join('')}concat=n=${durations.length}:v=1:a=0[out]`;
  // Made once per machine (scripts/test-video-cache.mjs), copied into the caller's folder.
  const made = await cachedVideo(
    [
      ...inputs,
      '-filter_complex',
      `${chain};${concat}`,
      '-map',
      '[out]',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-g',
      '15',
      '-pix_fmt',
      'yuv420p',
    ],
    { name: path.basename(file), ffmpeg: ffmpegBinaries().ffmpeg, timeout: 600_000 },
  );
  await fs.copyFile(made, file);
  const boundaries: number[] = [];
  let t = 0;
  for (const d of durations.slice(0, -1)) {
    t += d;
    boundaries.push(t);
  }
  return { file, boundaries };
}

/** Boundary accuracy: true boundaries found within `tolerance` seconds, false alarms, mean error of the hits. */
export function scoreBoundaries(
  truth: number[],
  found: number[],
  tolerance = 0.5,
): { hits: number; misses: number; falseAlarms: number; meanErrorSeconds: number } {
  const used = new Set<number>();
  const errors: number[] = [];
  for (const b of truth) {
    let best = -1;
    for (const [i, f] of found.entries())
      if (!used.has(i) && Math.abs(f - b) <= tolerance && (best < 0 || Math.abs(f - b) < Math.abs(found[best]! - b)))
        best = i;
    if (best >= 0) {
      used.add(best);
      errors.push(Math.abs(found[best]! - b));
    }
  }
  return {
    hits: errors.length,
    misses: truth.length - errors.length,
    falseAlarms: found.length - used.size,
    meanErrorSeconds: errors.length ? errors.reduce((a, b) => a + b, 0) / errors.length : 0,
  };
}
