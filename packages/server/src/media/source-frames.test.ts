/**
 * Decoding only what the tour keeps gives the tour the right frames: skipping non-reference frames of a 60 fps source
 * keeps every tour frame within half a tour frame of its time, in order, none repeated; rotating after the downscale
 * gives the picture autorotate gives; a video processed in segments (cut at keyframes, with a scene change exactly at a
 * segment boundary) gives frame for frame the frames of the whole, in the same clips. Real ffmpeg on generated videos.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP_FRAMES, RENDITIONS, buildNormaliseGraph, renditionSize } from './encoding.js';
import { ffmpegBinaries, ffmpegCapabilities } from './ffmpeg-binaries.js';
import { processVideo, processVideoSegment, probeVideo, type ProbeResult } from './process-video.js';
import { planSource, seekKeyframe, type FrameRange } from './source-frames.js';
import { makeTempDir, removeDir, withRotation } from '../../test/support/media-videos.js';

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('frames');
});
afterAll(async () => {
  await removeDir(dir);
});

interface Frame {
  md5: string;
  /** Mean luma of the picture. */
  luma: number;
}

/**
 * The normalised 720p frames (what the encoders get) of `range`, as processing decodes them; `plain` decodes every
 * frame.
 */
async function normalisedFrames(
  input: string,
  probe: ProbeResult,
  range?: FrameRange,
  o: { plain?: boolean } = {},
): Promise<Frame[]> {
  const { ffmpeg } = ffmpegBinaries();
  const plan = planSource(probe, range);
  const inputArgs = o.plain
    ? plan.inputArgs.filter((a, i, all) => a !== '-skip_frame' && all[i - 1] !== '-skip_frame')
    : plan.inputArgs;
  const graph = buildNormaliseGraph({
    stream: `0:${probe.streamIndex}`,
    portrait: probe.portrait,
    colour: probe.colour,
    toneMap: ffmpegCapabilities().toneMap,
    ...plan.graph,
  });
  const { stdout } = await run(
    ffmpeg,
    [
      '-v',
      'error',
      ...inputArgs,
      '-i',
      input,
      ...plan.outputArgs,
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'yuv420p',
      'pipe:1',
    ],
    {
      encoding: 'buffer',
      maxBuffer: 1024 ** 3,
      timeout: 300_000,
    },
  );
  const { width, height } = renditionSize(RENDITIONS.high, probe.portrait);
  const bytes = width * height * 1.5;
  const frames: Frame[] = [];
  for (let at = 0; at + bytes <= stdout.length; at += bytes) {
    const f = stdout.subarray(at, at + bytes);
    let sum = 0;
    for (let i = 0; i < width * height; i += 7) sum += f[i]!;
    frames.push({ md5: createHash('md5').update(f).digest('hex'), luma: sum / Math.ceil((width * height) / 7) });
  }
  return frames;
}

async function ffmpegRun(args: string[]): Promise<void> {
  await run(ffmpegBinaries().ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args], { timeout: 300_000 });
}

describe('decoding only the frames the tour keeps', { timeout: 300_000 }, () => {
  it('skips non-reference frames of a 60 fps HEVC with B-frames; every tour frame stays within half a tour frame, in order, none repeated', async () => {
    // Each source frame shows its own grey level (frame n: 16 + 3·(n mod 72)), so a tour frame tells which it is.
    const input = join(dir, 'grey-60.mp4');
    await ffmpegRun([
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:size=320x180:rate=60',
      '-t',
      '8',
      '-vf',
      "geq=lum='16+3*mod(N,72)':cb=128:cr=128,scale=1280:720",
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error:keyint=60:bframes=4:b-adapt=0:b-pyramid=1:qp=4',
      '-pix_fmt',
      'yuv420p',
      input,
    ]);
    const probe = await probeVideo(input);
    expect(planSource(probe).skipNonRef).toBe(true);
    const skipped = await normalisedFrames(input, probe);
    const all = await normalisedFrames(input, probe, undefined, { plain: true });
    expect(skipped.length).toBe(all.length);
    expect(all.length).toBe(120);
    const sourceFrame = (f: Frame) => Math.round((f.luma - 16) / 3);
    for (let i = 0; i < all.length; i++) {
      // 72 grey levels repeat every 1.2 s: compare positions modulo 72. Half a tour frame is two 60 fps frames.
      const d = ((((sourceFrame(skipped[i]!) - sourceFrame(all[i]!)) % 72) + 108) % 72) - 36;
      expect(Math.abs(d), `tour frame ${i}`).toBeLessThanOrEqual(2);
      if (i > 0) expect(skipped[i]!.md5, `tour frame ${i} repeats ${i - 1}`).not.toBe(skipped[i - 1]!.md5);
    }
  });

  /** 6 s of 30 fps greys (frame n: 16 + 3·(n mod 72)) encoded with `codec` and its options. */
  const grey30 = async (name: string, codecArgs: string[]) => {
    const input = join(dir, name);
    await ffmpegRun([
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:size=320x180:rate=30',
      '-t',
      '6',
      '-vf',
      "geq=lum='16+3*mod(N,72)':cb=128:cr=128,scale=1280:720",
      ...codecArgs,
      '-pix_fmt',
      'yuv420p',
      input,
    ]);
    return input;
  };
  const x264 = (params: string) => ['-c:v', 'libx264', '-preset', 'ultrafast', '-x264-params', `${params}:qp=4`];

  it('skips the single B-frames between references of a 30 fps H.264 (read from the packets): same tour frames within one source frame, none repeated', async () => {
    const input = await grey30('grey-30-b1.mp4', x264('keyint=30:bframes=1:b-adapt=0'));
    const probe = await probeVideo(input);
    expect(probe.nonReferenceRun).toBe(1);
    expect(planSource(probe).skipNonRef).toBe(true);
    const skipped = await normalisedFrames(input, probe);
    const all = await normalisedFrames(input, probe, undefined, { plain: true });
    expect(all.length).toBe(90);
    expect(skipped.length).toBe(all.length);
    const sourceFrame = (f: Frame) => Math.round((f.luma - 16) / 3);
    for (let i = 0; i < all.length; i++) {
      // Half a tour frame is one 30 fps frame.
      const d = ((((sourceFrame(skipped[i]!) - sourceFrame(all[i]!)) % 72) + 108) % 72) - 36;
      expect(Math.abs(d), `tour frame ${i}`).toBeLessThanOrEqual(1);
      if (i > 0) expect(skipped[i]!.md5, `tour frame ${i} repeats ${i - 1}`).not.toBe(skipped[i - 1]!.md5);
    }
  });

  it('decodes every frame of a 30 fps source whose non-reference frames come two in a row, or that has none, or whose packets it cannot read', async () => {
    const two = await probeVideo(await grey30('grey-30-b2.mp4', x264('keyint=30:bframes=2:b-adapt=0:b-pyramid=none')));
    expect(two.nonReferenceRun).toBe(2);
    expect(planSource(two).skipNonRef).toBe(false);
    const none = await probeVideo(await grey30('grey-30-b0.mp4', x264('keyint=30:bframes=0')));
    expect(none.nonReferenceRun).toBe(0);
    expect(planSource(none).skipNonRef).toBe(false);
    // HEVC with single B-frames: x265 writes them as non-reference NAL types.
    const hevc = await probeVideo(
      await grey30('grey-30-hevc.mp4', [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-x265-params',
        'log-level=error:keyint=30:bframes=1:b-adapt=0:qp=4',
      ]),
    );
    expect(hevc.nonReferenceRun).toBe(1);
    expect(planSource(hevc).skipNonRef).toBe(true);
    // Raw Annex B (start codes, no lengths): unknown, nothing skipped.
    const raw = join(dir, 'grey-30.hevc');
    await ffmpegRun(['-i', join(dir, 'grey-30-hevc.mp4'), '-c', 'copy', '-f', 'hevc', raw]);
    const rawProbe = await probeVideo(raw);
    expect(rawProbe.nonReferenceRun ?? null).toBeNull();
    expect(planSource(rawProbe).skipNonRef).toBe(false);
    // A file cut off part-way (index at the front, packets past the end): unknown, nothing skipped.
    const whole = await grey30('grey-30-b1-front.mp4', [
      ...x264('keyint=30:bframes=1:b-adapt=0'),
      '-movflags',
      '+faststart',
    ]);
    const bytes = await readFile(whole);
    const cut = join(dir, 'grey-30-b1-cut.mp4');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const cutProbe = await probeVideo(cut);
    expect(cutProbe.nonReferenceRun ?? null).toBeNull();
    expect(planSource(cutProbe).skipNonRef).toBe(false);
  });

  it('turns a rotated source after the downscale into the picture autorotate gives', async () => {
    const plain = join(dir, 'landscape.mp4');
    await ffmpegRun([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=30',
      '-t',
      '2',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      plain,
    ]);
    for (const degrees of [90, 180, 270]) {
      const input = await withRotation(plain, join(dir, `rotated-${degrees}.mp4`), degrees);
      const probe = await probeVideo(input);
      const ours = await normalisedFrames(input, probe);
      // Reference: ffmpeg's own autorotate at full size, then the same scaling.
      const size = renditionSize(RENDITIONS.high, probe.portrait);
      const { stdout } = await run(
        ffmpegBinaries().ffmpeg,
        [
          '-v',
          'error',
          '-i',
          input,
          '-vf',
          `fps=15,scale=${size.width}:${size.height},format=yuv420p`,
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 64 * 1024 ** 2 },
      );
      let sum = 0;
      let diff = 0;
      for (let i = 0; i < size.width * size.height; i++) sum += stdout[i]!;
      // Mean absolute luma difference of the first frame against a mirrored or turned picture is large (> 20).
      const { stdout: ourRaw } = await run(
        ffmpegBinaries().ffmpeg,
        [
          '-v',
          'error',
          ...planSource(probe).inputArgs,
          '-i',
          input,
          '-filter_complex',
          buildNormaliseGraph({
            stream: '0:0',
            portrait: probe.portrait,
            colour: probe.colour,
            toneMap: false,
            ...planSource(probe).graph,
          }),
          '-map',
          '[out]',
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          'pipe:1',
        ],
        { encoding: 'buffer', maxBuffer: 64 * 1024 ** 2 },
      );
      for (let i = 0; i < size.width * size.height; i++) diff += Math.abs(stdout[i]! - ourRaw[i]!);
      expect(ours.length).toBeGreaterThan(0);
      expect(sum).toBeGreaterThan(0);
      expect(diff / (size.width * size.height), `rotation ${degrees}`).toBeLessThan(3);
    }
  });

  it('gives, segment by segment, exactly the frames and clips of the whole video (scene change on a segment boundary)', async () => {
    // 12 s at 60 fps HEVC, keyframes every second; the picture changes scene at 4.75 s, between tour frames 71 (4.73 s)
    // and 72 (4.8 s, the second segment's first frame; segments of 72 tour frames: two clips each), so whichever source
    // frame within half a tour frame the selection takes, the two sides of the boundary are different scenes.
    const input = join(dir, 'scene-change.mp4');
    await ffmpegRun([
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=1280x720:rate=60:duration=4.75',
      '-f',
      'lavfi',
      '-i',
      'color=c=0x181818:size=1280x720:rate=60:duration=7.25',
      '-filter_complex',
      '[1:v]noise=alls=20:allf=t,format=yuv420p[b];[0:v][b]concat=n=2:v=1[v]',
      '-map',
      '[v]',
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error:keyint=60:min-keyint=60:bframes=4:scenecut=0',
      '-pix_fmt',
      'yuv420p',
      input,
    ]);
    const probe = await probeVideo(input);
    const SEGMENT = 2 * CLIP_FRAMES;
    const ranges: FrameRange[] = [
      { first: 0, end: SEGMENT },
      { first: SEGMENT, end: 2 * SEGMENT },
      { first: 2 * SEGMENT },
    ];
    // The later segments really start decoding at a keyframe inside the video, not at its start.
    expect(seekKeyframe(probe, SEGMENT)).toBe(4);
    expect(seekKeyframe(probe, 2 * SEGMENT)).toBe(9);

    const whole = await normalisedFrames(input, probe);
    const pieces = [];
    for (const r of ranges) pieces.push(await normalisedFrames(input, probe, r));
    expect(pieces.map((p) => p.length)).toEqual([SEGMENT, SEGMENT, whole.length - 2 * SEGMENT]);
    expect(pieces.flat().map((f) => f.md5)).toEqual(whole.map((f) => f.md5));
    // The scene change falls between the segments: the last frame of one and the first of the next differ wholly.
    expect(Math.abs(pieces[0]!.at(-1)!.luma - pieces[1]![0]!.luma)).toBeGreaterThan(10);

    // The product's processing: the same clips, frame counts and thumbnail rule either way.
    const one = await processVideo({ input, workDir: join(dir, 'whole') });
    const segs = [];
    for (const [i, r] of ranges.entries())
      segs.push(await processVideoSegment({ input, workDir: join(dir, `seg-${i}`), probe, range: r }));
    expect(segs.flatMap((s) => s.clips.map((c) => c.frameCount))).toEqual(one.clips.map((c) => c.frameCount));
    expect(segs.map((s) => s.thumbnailPath !== null)).toEqual([true, false, false]);
  });
});
