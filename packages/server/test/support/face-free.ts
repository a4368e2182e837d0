/**
 * Test and benchmark helpers of the privacy blur's false positives: face-free footage (lavfi test patterns and
 * textures, generated room-like scenes, and a face-free photo an installed package ships), decoded to the raw 720p
 * yuv420p frames the blur filter sees, and run through the filter to count frames that got any box.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { ffmpegBinaries } from '../../src/media/ffmpeg-binaries.js';
import { faceBlurFilter, newFaceBlurStats, type FaceBlurStats } from '../../src/media/blur-faces.js';
import { yuv420pBytes } from '../../src/media/frame-pipe.js';

const run = promisify(execFile);

/** A face-free clip: a lavfi graph producing `W`x`H` frames (moving, like a walkthrough) or a still image panned. */
export interface FaceFreeSource {
  name: string;
  lavfi?: string;
  image?: string;
}

const W = 1280;
const H = 720;

/** Room-like scene: wall, floor, skirting, a door, a window with panes, a picture, a lamp; the camera pans across. */
const room = (wall: string, floor: string, door: string) =>
  [
    `color=c=${wall}:s=1920x1080:r=15`,
    `drawbox=x=0:y=760:w=1920:h=320:c=${floor}:t=fill`,
    'drawbox=x=0:y=740:w=1920:h=20:c=0xf2efe8:t=fill',
    `drawbox=x=260:y=250:w=300:h=510:c=${door}:t=fill`,
    'drawbox=x=500:y=500:w=24:h=24:c=0xc0a060:t=fill',
    'drawbox=x=900:y=200:w=420:h=330:c=0xbcd4e6:t=fill',
    'drawbox=x=900:y=200:w=420:h=330:c=0xffffff:t=12',
    'drawbox=x=1104:y=200:w=12:h=330:c=0xffffff:t=fill',
    'drawbox=x=900:y=360:w=420:h=12:c=0xffffff:t=fill',
    'drawbox=x=1500:y=300:w=180:h=140:c=0x3a3a3a:t=8',
    'drawbox=x=1515:y=315:w=150:h=110:c=0x8f6f4f:t=fill',
    'drawbox=x=1580:y=560:w=60:h=200:c=0x555555:t=fill',
    'drawbox=x=1540:y=500:w=140:h=70:c=0xf5e9c8:t=fill',
    'noise=alls=5:allf=t',
    `crop=${W}:${H}:x='320+300*sin(t*0.6)':y='180+120*sin(t*0.4)'`,
  ].join(',');

/** The face-free footage: test patterns, textures, room-like scenes, and real face-free photos (panned). */
export function faceFreeSources(): FaceFreeSource[] {
  const require = createRequire(import.meta.url);
  const sample = require.resolve('@fastify/static/example/public/images/sample.jpg');
  return [
    { name: 'testsrc2', lavfi: `testsrc2=s=${W}x${H}:r=15` },
    { name: 'mandelbrot', lavfi: `mandelbrot=s=640x360:r=15,scale=${W}:${H}` },
    { name: 'cellauto', lavfi: `cellauto=s=320x180:r=15:rule=110,scale=${W}:${H}:flags=neighbor` },
    {
      name: 'life',
      lavfi: `life=s=320x180:r=15:seed=3:mold=10:life_color=0x90c0a0:death_color=0x402010,scale=${W}:${H}:flags=neighbor`,
    },
    { name: 'gradients', lavfi: `gradients=s=${W}x${H}:r=15:speed=0.05:seed=7` },
    { name: 'smptehdbars', lavfi: `smptehdbars=s=${W}x${H}:r=15,noise=alls=8:allf=t` },
    { name: 'noise', lavfi: `color=c=0x808080:s=${W}x${H}:r=15,noise=alls=90:allf=t+u` },
    {
      name: 'wood texture',
      lavfi: `nullsrc=s=${W}x${H}:r=15,geq=r='150+40*sin(X/9+8*sin(Y/70+T))':g='100+30*sin(X/9+8*sin(Y/70+T))':b='60+20*sin(X/9+8*sin(Y/70+T))'`,
    },
    { name: 'room: white walls', lavfi: room('0xe9e4da', '0x9c7a54', '0x6b4a2f') },
    { name: 'room: grey walls', lavfi: room('0xa8aaa6', '0x5a4a3a', '0xf0f0f0') },
    { name: 'room: dark', lavfi: `${room('0x4a4038', '0x2e2620', '0x1c1410')},eq=brightness=-0.1` },
    { name: 'photo: sample.jpg (@fastify/static)', image: sample },
  ];
}

/** Every frame of a face-free source as raw 1280x720 yuv420p, `seconds` long at 15 fps. */
export async function faceFreeFrames(s: FaceFreeSource, seconds: number): Promise<Buffer[]> {
  const { ffmpeg } = ffmpegBinaries();
  const input = s.image
    ? [
        '-loop',
        '1',
        '-framerate',
        '15',
        '-i',
        s.image,
        '-vf',
        `scale=1600:900:force_original_aspect_ratio=increase,crop=1600:900,crop=${W}:${H}:x='160+150*sin(t*0.7)':y='90+80*sin(t*0.5)'`,
      ]
    : ['-f', 'lavfi', '-i', s.lavfi!];
  const { stdout } = await run(
    ffmpeg,
    [
      '-v',
      'error',
      ...input,
      '-t',
      String(seconds),
      '-r',
      '15',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      '-s',
      `${W}x${H}`,
      'pipe:1',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 2 * 1024 ** 3,
      timeout: 300_000,
    },
  );
  const size = yuv420pBytes(W, H);
  return Array.from({ length: Math.floor(stdout.length / size) }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
}

/** Runs the privacy blur filter over raw frames (as processVideo does, without the encoding): its figures. */
export async function blurStats(frames: Buffer[], width = W, height = H): Promise<FaceBlurStats> {
  const stats = newFaceBlurStats();
  const filter = faceBlurFilter({ stats })({ width, height });
  async function* source() {
    // The filter may blur in place: give it copies.
    for (const f of frames) yield Buffer.from(f);
  }
  for await (const out of filter(source())) void out;
  return stats;
}
