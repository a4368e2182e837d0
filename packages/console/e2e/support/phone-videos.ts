/**
 * Phone-format test videos made with the system's ffmpeg: HEVC 10-bit stored rotated (.mov, as an iPhone
 * films portrait), variable frame rate, 4K60, a WebM (no MP4 container: the <video> fallback) and a truncated MP4
 * (accepted by the screen, failed by processing); for the in-browser conversion, a 4K60 H.264 portrait clip and a 4K60
 * HEVC one. 11 s each and small. Made once per machine (scripts/test-video-cache.mjs: a hash of the ffmpeg
 * arguments and version), so a changed command makes its file again.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { cachedFolder, cachedVideo } from '../../../../scripts/test-video-cache.mjs';

const run = promisify(execFile);
const SECONDS = 11;

/** Moving detail so encoders and the server's scene cuts have something to work on. */
const source = (size: string, rate: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${size}:rate=${rate}:duration=${SECONDS}`,
];

export const PHONE_VIDEOS = {
  /** iPhone-like: HEVC Main 10 in a QuickTime .mov, coded 1280x720 with a 90° display rotation (portrait 720x1280). */
  hevcRotated: {
    name: 'IMG_0001.MOV',
    args: [
      ...source('1280x720', 30),
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      '-pix_fmt',
      'yuv420p10le',
      '-tag:v',
      'hvc1',
      '-f',
      'mov',
    ],
    // ffmpeg 5.1 drops the rotate tag when encoding; a stream copy writes it into the track's display matrix.
    remux: ['-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mov'],
    expect: { width: 720, height: 1280, rotation: 90, codecPrefix: 'hvc1' },
  },
  /** Variable frame rate: every third frame kept in alternate seconds (phones drop frames in low light). */
  vfr: {
    name: 'vfr.mp4',
    args: [
      ...source('1280x720', 30),
      '-vf',
      "select='lt(mod(t\\,2)\\,1)+not(mod(n\\,3))'",
      '-fps_mode',
      'vfr',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mp4',
    ],
    expect: { width: 1280, height: 720, rotation: 0, codecPrefix: 'avc1' },
  },
  /** 4K at 60 frames a second (flat content keeps it small and quick to make). */
  uhd60: {
    name: 'uhd60.mp4',
    args: [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x336699:size=3840x2160:rate=60:duration=${SECONDS}`,
      '-vf',
      "drawbox=x='mod(t*400\\,3400)':y=800:w=400:h=400:color=white:t=fill",
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '35',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mp4',
    ],
    expect: { width: 3840, height: 2160, rotation: 0, codecPrefix: 'avc1' },
  },
  /**
   * A phone filming portrait in 4K60 H.264 (docs/upload-conversion.md): stored 3840x2160 with a 90° display rotation,
   * at a phone's 40 Mbit/s, moving detail throughout; the upload screen converts it in the browser on a slow uplink.
   */
  uhd60Portrait: {
    name: 'IMG_0002.MP4',
    args: [
      ...source('3840x2160', 60),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '40M',
      '-pix_fmt',
      'yuv420p',
      '-f',
      'mp4',
    ],
    remux: ['-c', 'copy', '-metadata:s:v:0', 'rotate=90', '-f', 'mp4'],
    expect: { width: 2160, height: 3840, rotation: 90, codecPrefix: 'avc1' },
  },
  /**
   * 4K60 HEVC (8-bit): Debian's Chromium has no HEVC decoder, so the screen uploads the original (flat content: quick
   * to make).
   */
  hevcUhd60: {
    name: 'IMG_0003.MOV',
    args: [
      '-f',
      'lavfi',
      '-i',
      `color=c=0x996633:size=3840x2160:rate=60:duration=${SECONDS}`,
      '-vf',
      "drawbox=x='mod(t*400\\,3400)':y=800:w=400:h=400:color=white:t=fill",
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error',
      '-pix_fmt',
      'yuv420p',
      '-tag:v',
      'hvc1',
      '-f',
      'mov',
    ],
    expect: { width: 3840, height: 2160, rotation: 0, codecPrefix: 'hvc1' },
  },
  /** Not an MP4/MOV container: the screen falls back to the <video> element (Chromium plays VP9). */
  webm: {
    name: 'walk.webm',
    args: [
      ...source('1280x720', 30),
      '-c:v',
      'libvpx-vp9',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '500k',
      '-f',
      'webm',
    ],
    expect: null,
  },
  /** moov first (faststart), so cutting the file at 40 % keeps the header readable and loses most of the frames. */
  whole: {
    name: 'whole.mp4',
    args: [
      ...source('1280x720', 30),
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-movflags',
      '+faststart',
      '-f',
      'mp4',
    ],
    expect: { width: 1280, height: 720, rotation: 0, codecPrefix: 'avc1' },
  },
} as const;

export type PhoneVideo = keyof typeof PHONE_VIDEOS;

/** The file for one video, made once per machine and ffmpeg command (scripts/test-video-cache.mjs). */
export async function phoneVideo(which: PhoneVideo): Promise<string> {
  const v = PHONE_VIDEOS[which];
  const remux = 'remux' in v ? v.remux : null;
  if (!remux) return cachedVideo(v.args, { name: v.name });
  const dir = await cachedFolder([v.args, remux, v.name], async (work) => {
    const encoded = path.join(work, `encoded-${v.name}`);
    await run('ffmpeg', ['-v', 'error', '-y', ...v.args, encoded], { timeout: 600_000 });
    await run('ffmpeg', ['-v', 'error', '-y', '-i', encoded, ...remux, path.join(work, v.name)], { timeout: 600_000 });
    await fs.rm(encoded);
  });
  return path.join(dir, v.name);
}

/** The MP4 with only its first 40 %: the header says 11 s, the frames stop early (a file cut by a failed copy). */
export async function truncatedVideo(): Promise<string> {
  const whole = await phoneVideo('whole');
  const dir = await cachedFolder([PHONE_VIDEOS.whole.args, 'the first 40 %'], async (work) => {
    const data = await fs.readFile(whole);
    await fs.writeFile(path.join(work, 'truncated.mp4'), data.subarray(0, Math.floor(data.length * 0.4)));
  });
  return path.join(dir, 'truncated.mp4');
}
