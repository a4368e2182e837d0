/**
 * Generated sources of the processing benchmark, cached in the OS temp folder under a name keyed by the commands
 * that make them (a change of any argument makes a new file; an interrupted run leaves only a `.part` file).
 *
 * - `hd`: 60 s 1080p30 H.264 at 16 Mbit/s, a pan and zoom across a 4K Mandelbrot render, a moving testsrc2 inset and
 *   temporal noise (the benchmark's original source).
 * - `phone`: what an iPhone records in 4K60 HDR: 60 s of 3840x2160 60 fps HEVC Main 10 (yuv420p10le) at 40 Mbit/s,
 *   tagged HLG (arib-std-b67) / BT.2020, stored landscape with a 90° display matrix (a portrait recording), with
 *   B-frames (x265 bframes 4, b-pyramid: about half the frames are non-reference, as in phone HEVC) and a keyframe a
 *   second. Content: a 5K Mandelbrot render panned in a 10 s loop, a moving 960x540 testsrc2 inset and temporal noise
 *   everywhere. Encoding 4K60 10-bit HEVC costs about 0.3 CPU seconds a frame here, so 2 s are encoded and repeated
 *   thirty times by stream copy (the motion path is periodic with the same 2 s, so the seam does not jump); decoding
 *   it costs the same as 60 s of unique footage. `-r 60` on the output: without it ffmpeg took the still's 25 fps (the
 *   first version of this source was 25 fps; its cache name differs, so it is not reused).
 * - `clip`: the held-out iPhone-like clip, made the same way: 11 s of that format from a 1 s piece.
 * - `mezzanine`: what the console's on-device conversion uploads where the device cannot make the clip format (the
 *   old mezzanine): 60 s 1080x1920 30 fps H.264, full range, from the hd source.
 * - `converted`: what it uploads where it can (console convert-rules.ts CLIP_FORMAT): 60 s 720x1280 at 15 fps, H.264
 *   High, a keyframe every 12 frames, no B-frames, one slice, 720 kbit/s, fragmented MP4, from the hd source turned
 *   upright; the server cuts its 720p clips by stream copy (media/copy-clips.ts).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../src/media/ffmpeg-binaries.js';

const run = promisify(execFile);
export const cacheDir = join(tmpdir(), 'roomwalk-bench');
export const SOURCE_SECONDS = 60;

export interface BenchSource {
  name: 'hd' | 'phone' | 'clip' | 'mezzanine' | 'converted';
  label: string;
  path: string;
  seconds: number;
}

type Step = string[];

const key = (steps: Step[]) => createHash('sha256').update(JSON.stringify(steps)).digest('hex').slice(0, 12);

async function make(
  name: string,
  ext: string,
  steps: (paths: { still: string; piece: string; list: string; out: string }) => Step[],
  label: string,
): Promise<string> {
  const probeSteps = steps({ still: 'STILL', piece: 'PIECE', list: 'LIST', out: 'OUT' });
  const path = join(cacheDir, `source-${name}-${key(probeSteps)}.${ext}`);
  if (existsSync(path)) return path;
  await mkdir(cacheDir, { recursive: true });
  const { ffmpeg } = ffmpegBinaries();
  const tmp = `${path}.part`;
  const files = {
    still: `${tmp}.still.png`,
    piece: `${tmp}.piece.${ext}`,
    list: `${tmp}.list.txt`,
    out: `${tmp}.${ext}`,
  };
  console.log(`Generating the ${label} source (once; cached as ${path})...`);
  try {
    for (const args of steps(files)) {
      if (args[0] === 'WRITE_LIST') {
        await writeFile(files.list, Array.from({ length: Number(args[1]) }, () => `file '${files.piece}'`).join('\n'));
        continue;
      }
      await run(ffmpeg, args, { timeout: 3_600_000, maxBuffer: 16 * 1024 ** 2 });
    }
    await rename(files.out, path);
  } finally {
    await Promise.all(Object.values(files).map((f) => rm(f, { force: true })));
  }
  return path;
}

export async function hdSource(): Promise<BenchSource> {
  const path = await make(
    '1080p30-h264',
    'mp4',
    (f) => [
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'mandelbrot=size=3840x2160:rate=1:start_scale=1.2:maxiter=512',
        '-frames:v',
        '1',
        f.still,
      ],
      [
        '-v',
        'error',
        '-y',
        '-i',
        f.still,
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=480x270:rate=30',
        '-filter_complex',
        [
          `[0:v]format=yuv420p,loop=loop=-1:size=1:start=0,setpts=N/30/TB,` +
            `zoompan=z='1+0.6*on/1800':x='(iw-iw/zoom)*(0.5+0.45*sin(on/150))':y='(ih-ih/zoom)*(0.5+0.4*cos(on/210))':d=1:s=1920x1080:fps=30[bg]`,
          `[bg][1:v]overlay=x='100+(W-w-200)*(0.5+0.5*sin(t/3))':y=80,noise=alls=4:allf=t,format=yuv420p[v]`,
        ].join(';'),
        '-map',
        '[v]',
        '-t',
        String(SOURCE_SECONDS),
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-b:v',
        '16M',
        '-maxrate',
        '20M',
        '-bufsize',
        '32M',
        '-g',
        '60',
        f.out,
      ],
    ],
    '60 s 1080p30 H.264',
  );
  return { name: 'hd', label: '60 s 1920x1080 30 fps H.264', path, seconds: SOURCE_SECONDS };
}

/** The bench's 60 s phone source (2 s pieces); bench:processing-steps cuts its first seconds. */
export const phoneSource = () => phoneLike(SOURCE_SECONDS, 2);

/**
 * The held-out iPhone-like clip of issue 43: 11 s of 4K60 HEVC Main 10, HLG, rotated 90°, made like the phone source
 * from a 1 s piece (a keyframe each), repeated by stream copy.
 */
export const phoneClipSource = () => phoneLike(11, 1);

async function phoneLike(seconds: number, pieceSeconds: number): Promise<BenchSource> {
  const name = seconds === SOURCE_SECONDS ? '4k60-hevc10-hlg-rot90' : `4k60-hevc10-hlg-rot90-${seconds}s`;
  const path = await make(
    name,
    'mov',
    (f) => [
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'mandelbrot=size=5120x2880:rate=1:start_scale=1.2:maxiter=256',
        '-frames:v',
        '1',
        f.still,
      ],
      [
        '-v',
        'error',
        '-y',
        '-i',
        f.still,
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=960x540:rate=60',
        '-filter_complex',
        [
          `[0:v]format=yuv420p10le,loop=loop=-1:size=1:start=0,setpts=N/60/TB,` +
            `crop=3840:2160:x='(iw-ow)*(0.5+0.5*sin(2*PI*t/${pieceSeconds}))':y='(ih-oh)*(0.5+0.5*cos(2*PI*t/${pieceSeconds}))'[bg]`,
          `[bg][1:v]overlay=x='200+(W-w-400)*(0.5+0.5*sin(2*PI*t/${pieceSeconds / 2}))':y=200,noise=alls=3:allf=t,format=yuv420p10le[v]`,
        ].join(';'),
        '-map',
        '[v]',
        '-t',
        String(pieceSeconds),
        '-r',
        '60',
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-b:v',
        '40M',
        '-tag:v',
        'hvc1',
        '-x265-params',
        'log-level=error:keyint=60:min-keyint=60:bframes=4:b-pyramid=1:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc',
        '-color_primaries',
        'bt2020',
        '-color_trc',
        'arib-std-b67',
        '-colorspace',
        'bt2020nc',
        f.piece,
      ],
      ['WRITE_LIST', String(seconds / pieceSeconds)],
      [
        '-v',
        'error',
        '-y',
        '-f',
        'concat',
        '-safe',
        '0',
        '-i',
        f.list,
        '-c',
        'copy',
        '-tag:v',
        'hvc1',
        '-metadata:s:v:0',
        'rotate=90',
        f.out,
      ],
    ],
    `${seconds} s 4K60 HEVC 10-bit HLG (rotated 90°)`,
  );
  return {
    name: seconds === SOURCE_SECONDS ? 'phone' : 'clip',
    label: `${seconds} s 3840x2160 60 fps HEVC Main 10, HLG/BT.2020, rotated 90°`,
    path,
    seconds,
  };
}

/**
 * What the console's on-device conversion uploads for a portrait phone video (the old mezzanine): 1080x1920 30 fps
 * H.264 at about 5 Mbit/s, full range (Chromium's encoder from canvas RGB), no B-frames, a keyframe every 2 s; made
 * from the hd source turned upright.
 */
export async function mezzanineSource(): Promise<BenchSource> {
  const hd = await hdSource();
  const path = await make(
    `mezzanine-1080x1920-h264-from-${hd.path.slice(-19, -4)}`,
    'mp4',
    (f) => [
      [
        '-v',
        'error',
        '-y',
        '-i',
        hd.path,
        '-vf',
        'scale=3414:1920,crop=1080:1920,format=yuvj420p',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-profile:v',
        'high',
        '-bf',
        '0',
        '-g',
        '60',
        '-b:v',
        '5M',
        '-maxrate',
        '6M',
        '-bufsize',
        '10M',
        '-movflags',
        '+frag_keyframe+empty_moov+default_base_moof',
        f.out,
      ],
    ],
    '60 s 1080x1920 30 fps H.264 mezzanine',
  );
  return {
    name: 'mezzanine',
    label: '60 s 1080x1920 30 fps H.264, the converted mezzanine',
    path,
    seconds: hd.seconds,
  };
}

/**
 * What the console's on-device conversion uploads for that video where the device's encoder can make the clip format:
 * a hardware or OpenH264-like encode (x264 here, one slice, no B-frames, constant 720 kbit/s budget) of the hd source
 * turned upright, cropped to 720x1280 and resampled to 15 fps, a keyframe every 12 frames; full range, tagged BT.709
 * with the sRGB transfer, as Debian's Chromium writes it from canvas frames.
 */
export async function convertedSource(): Promise<BenchSource> {
  const hd = await hdSource();
  const path = await make(
    `converted-720x1280-15fps-from-${hd.path.slice(-19, -4)}`,
    'mp4',
    (f) => [
      [
        '-v',
        'error',
        '-y',
        '-i',
        hd.path,
        '-vf',
        'fps=15,scale=2276:1280:out_range=pc,crop=720:1280,setsar=1,format=yuvj420p',
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-profile:v',
        'high',
        '-bf',
        '0',
        '-g',
        '12',
        '-keyint_min',
        '12',
        '-sc_threshold',
        '0',
        '-slices',
        '1',
        '-b:v',
        '720k',
        '-maxrate',
        '720k',
        '-bufsize',
        '1440k',
        '-color_primaries',
        'bt709',
        '-color_trc',
        'iec61966-2-1',
        '-colorspace',
        'bt709',
        '-color_range',
        'pc',
        '-movflags',
        '+frag_keyframe+empty_moov+default_base_moof',
        f.out,
      ],
    ],
    '60 s 720x1280 15 fps H.264 in the clip format',
  );
  return {
    name: 'converted',
    label: '60 s 720x1280 15 fps H.264 in the clip format, the converted upload',
    path,
    seconds: hd.seconds,
  };
}
