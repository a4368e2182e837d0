/**
 * What phones really record becomes a correct tour: clip count, 36 frames per clip (last one counted), each clip
 * closed 12-frame GOPs starting on a keyframe, both renditions at the right size, a 16:9 thumbnail, nothing else left
 * in the work folder. Real ffmpeg on videos generated here.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP_FPS, CLIP_FRAMES, SLICES } from './encoding.js';
import { processVideo, type ProcessVideoResult } from './process-video.js';
import {
  claimDuration,
  expectedKeyframes,
  fileSize,
  generateVideo,
  inspectClip,
  listDir,
  makeTempDir,
  pictureSize,
  removeDir,
  slicesPerFrame,
  truncateFile,
  withRotation,
} from '../../test/support/media-videos.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('ok');
});
afterAll(async () => {
  await removeDir(dir);
});

interface Expected {
  portrait: boolean;
  /** Frames the tour should have: seconds of source × CLIP_FPS. */
  frames: number;
}

/** Checks every promise a processed tour makes to the player. */
async function expectTour(result: ProcessVideoResult, workDir: string, e: Expected): Promise<void> {
  const high = e.portrait ? { width: 720, height: 1280 } : { width: 1280, height: 720 };
  const low = e.portrait ? { width: 360, height: 640 } : { width: 640, height: 360 };
  expect(result.portrait).toBe(e.portrait);
  expect(result.fps).toBe(CLIP_FPS);
  expect(result.videoInfo).toMatchObject(high);

  const total = result.clips.reduce((s, c) => s + c.frameCount, 0);
  // The fps filter may round the very end by one frame.
  expect(Math.abs(total - e.frames)).toBeLessThanOrEqual(1);
  expect(result.clips).toHaveLength(Math.ceil(total / CLIP_FRAMES));

  for (const [i, clip] of result.clips.entries()) {
    expect(clip.index).toBe(i);
    const isLast = i === result.clips.length - 1;
    if (!isLast) expect(clip.frameCount).toBe(CLIP_FRAMES);
    expect(clip.frameCount).toBeGreaterThan(0);
    expect(clip.duration).toBeCloseTo(clip.frameCount / CLIP_FPS, 6);
    for (const [path, size] of [
      [clip.highPath, high],
      [clip.lowPath, low],
    ] as const) {
      const c = await inspectClip(path);
      expect({ path, ...c }).toEqual({
        path,
        codec: 'h264',
        streams: 1,
        ...size,
        frames: clip.frameCount,
        firstIsKey: true,
        keyframes: expectedKeyframes(clip.frameCount),
        bFrames: 0,
      });
    }
  }
  // 720p frames in four slices (the player's decoder spreads one frame over several cores), 360p in one.
  expect(await slicesPerFrame(result.clips[0]!.highPath)).toBe(SLICES.high);
  expect(await slicesPerFrame(result.clips[0]!.lowPath)).toBe(SLICES.low);

  const sum = async (paths: string[]) => (await Promise.all(paths.map(fileSize))).reduce((a, b) => a + b, 0);
  expect(result.videoInfo.fullSize).toBe(await sum(result.clips.map((c) => c.highPath)));
  expect(result.videoInfo.mediumSize).toBe(await sum(result.clips.map((c) => c.lowPath)));
  expect(result.videoInfo.smallSize).toBe(await fileSize(result.thumbnailPath));

  const thumb = await pictureSize(result.thumbnailPath);
  expect(thumb.width / thumb.height).toBeCloseTo(16 / 9, 1);

  // Only the outputs, nothing temporary.
  const expectedNames = [
    ...result.clips.flatMap((c) => [c.highPath, c.lowPath]).map((p) => p.slice(workDir.length + 1)),
    'thumbnail.jpg',
  ].sort();
  expect(await listDir(workDir)).toEqual(expectedNames);
}

describe('processVideo', () => {
  it('turns a landscape video with audio into 720p and 360p clips of 36 frames, the last one shorter', async () => {
    const input = await generateVideo(join(dir, 'landscape.mp4'), {
      width: 1280,
      height: 720,
      seconds: 11,
      audio: true,
    });
    const workDir = join(dir, 'landscape-out');
    const progress: number[] = [];
    const result = await processVideo({ input, workDir, onProgress: (p) => progress.push(p.progress) });
    await expectTour(result, workDir, { portrait: false, frames: 11 * CLIP_FPS });
    expect(result.clips.at(-1)!.frameCount).toBe(11 * CLIP_FPS - 4 * CLIP_FRAMES);
    expect(result.durationSeconds).toBeCloseTo(11, 1);
    // Progress climbs step by step, not only at the end.
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.filter((p) => p > 0.05 && p < 0.97).length).toBeGreaterThan(0);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('keeps a portrait video without audio portrait: 720x1280 and 360x640, thumbnail cropped to 16:9', async () => {
    const input = await generateVideo(join(dir, 'portrait.mp4'), { width: 720, height: 1280, seconds: 10.5 });
    const workDir = join(dir, 'portrait-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe.hasAudio).toBe(false);
    await expectTour(result, workDir, { portrait: true, frames: Math.round(10.5 * CLIP_FPS) });
    expect(await pictureSize(result.thumbnailPath)).toEqual({ width: 720, height: 404 });
  });

  it('applies rotation metadata: a 1280x720 recording rotated 90° becomes a portrait tour', async () => {
    const plain = await generateVideo(join(dir, 'rot-src.mp4'), { width: 1280, height: 720, seconds: 10.5 });
    const input = await withRotation(plain, join(dir, 'rotated.mov'), 90);
    const workDir = join(dir, 'rotated-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe.rotation === 90 || result.probe.rotation === 270).toBe(true);
    expect({ w: result.sourceWidth, h: result.sourceHeight }).toEqual({ w: 720, h: 1280 });
    await expectTour(result, workDir, { portrait: true, frames: Math.round(10.5 * CLIP_FPS) });
  });

  it('tone-maps 10-bit HDR HEVC to 8-bit H.264', async () => {
    const input = await generateVideo(join(dir, 'hevc10.mp4'), {
      width: 1280,
      height: 720,
      seconds: 10.4,
      fps: 25,
      codecArgs: [
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-crf',
        '32',
        '-pix_fmt',
        'yuv420p10le',
        '-tag:v',
        'hvc1',
        '-color_primaries',
        'bt2020',
        '-color_trc',
        'smpte2084',
        '-colorspace',
        'bt2020nc',
        '-x265-params',
        'log-level=error',
      ],
    });
    const workDir = join(dir, 'hevc-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe).toMatchObject({ codec: 'hevc', highBitDepth: true, colour: { transfer: 'smpte2084' } });
    await expectTour(result, workDir, { portrait: false, frames: Math.round(10.4 * CLIP_FPS) });
  });

  it('brings 4K at 60 fps down to 720p at the clip rate', async () => {
    const input = await generateVideo(join(dir, '4k60.mp4'), {
      width: 3840,
      height: 2160,
      seconds: 10.2,
      fps: 60,
      codecArgs: ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '35', '-pix_fmt', 'yuv420p'],
    });
    const workDir = join(dir, '4k60-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe).toMatchObject({ width: 3840, height: 2160, packetCount: 612 });
    await expectTour(result, workDir, { portrait: false, frames: Math.round(10.2 * CLIP_FPS) });
  }, 240_000);

  it('resamples variable frame rate to a constant rate', async () => {
    const input = await generateVideo(join(dir, 'vfr.mp4'), {
      width: 1280,
      height: 720,
      seconds: 11,
      // Drop frames irregularly and keep the original timestamps: gaps of 1 to 3 frame intervals.
      filter: "select='not(eq(mod(n\\,5)\\,1))*not(eq(mod(n\\,7)\\,3))'",
      outputArgs: ['-fps_mode', 'vfr'],
    });
    const workDir = join(dir, 'vfr-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe.variableFrameRate).toBe(true);
    await expectTour(result, workDir, { portrait: false, frames: 11 * CLIP_FPS });
  });

  it('measures a file whose header claims 10 hours by its frames and makes the real 11 s tour', async () => {
    const plain = await generateVideo(join(dir, 'claim-src.mp4'), { width: 1280, height: 720, seconds: 11 });
    const input = await claimDuration(plain, join(dir, 'claims-10h.mp4'), 36_000);
    const workDir = join(dir, 'claim-out');
    const result = await processVideo({ input, workDir });
    expect(result.probe.headerDurationSeconds).toBe(36_000);
    expect(result.durationSeconds).toBeCloseTo(11, 1);
    await expectTour(result, workDir, { portrait: false, frames: 11 * CLIP_FPS });
  });

  it('makes a best-effort tour of the frames a cut-off upload still holds', async () => {
    const full = await generateVideo(join(dir, 'faststart.mp4'), {
      width: 1280,
      height: 720,
      seconds: 20,
      outputArgs: ['-movflags', '+faststart'],
    });
    const input = await truncateFile(full, join(dir, 'cut.mp4'), 0.7);
    const workDir = join(dir, 'cut-out');
    const result = await processVideo({ input, workDir });
    // The index promises 20 s; the data holds about 14 s, and the tour is what the data holds.
    expect(result.probe.headerDurationSeconds).toBe(20);
    expect(result.durationSeconds).toBeGreaterThan(10);
    expect(result.durationSeconds).toBeLessThan(17);
    const frames = result.clips.reduce((s, c) => s + c.frameCount, 0);
    expect(Math.abs(frames - result.durationSeconds * CLIP_FPS)).toBeLessThanOrEqual(2);
    await expectTour(result, workDir, { portrait: false, frames });
  });
});
