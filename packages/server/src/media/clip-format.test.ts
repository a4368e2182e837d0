/**
 * An upload is found to be in the tour's clip format by probing its stream (header and packets), never from anything
 * the client says: real ffprobe on videos made here, plus the packet rules on packet lists written out.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClipFormatScan, MAX_CLIP_BYTES, type ClipFormatHeader } from './clip-format.js';
import { CLIP_FPS } from './encoding.js';
import { probeVideo } from './probe-video.js';
import {
  clipFormatVideo,
  generateVideo,
  makeTempDir,
  removeDir,
  withRotation,
} from '../../test/support/media-videos.js';

const HEADER: ClipFormatHeader = {
  demuxer: 'mov',
  codec_name: 'h264',
  codec_tag_string: 'avc1',
  profile: 'High',
  pix_fmt: 'yuv420p',
  width: 1280,
  height: 720,
  sample_aspect_ratio: '1:1',
  field_order: 'progressive',
  has_b_frames: 0,
  r_frame_rate: '15/1',
  avg_frame_rate: '15/1',
  color_range: 'tv',
  rotation: 0,
};
const WHOLE = { partial: false, stoppedAtLimit: false };

/** Scans `n` packets at the clip rate (keyframes every 12), changed by `edit` where it says. */
function scan(n: number, edit: (k: number) => { pts?: number | null; key?: boolean; bytes?: number } = () => ({})) {
  const s = new ClipFormatScan();
  for (let k = 0; k < n; k++) {
    const e = edit(k);
    s.packet(e.pts === undefined ? k / CLIP_FPS : e.pts, e.key ?? k % 12 === 0, e.bytes ?? 4000);
  }
  return s;
}

describe('the packet rules', () => {
  it('accepts packets on the grid with a keyframe every 12 frames, within the bytes a clip may hold', () => {
    expect(scan(150).verdict(HEADER, WHOLE)).toMatchObject({ copy: true });
    // A time base of 1/1000 rounds 1/15 s to 66 or 67 ms: still on the grid.
    expect(scan(150, (k) => ({ pts: Math.round((k * 1000) / CLIP_FPS) / 1000 })).verdict(HEADER, WHOLE).copy).toBe(
      true,
    );
  });

  it('refuses a missing or doubled frame, reordered frames, a missing keyframe and a heavy clip', () => {
    expect(scan(150, (k) => ({ pts: (k < 50 ? k : k + 1) / CLIP_FPS })).verdict(HEADER, WHOLE).why).toMatch(
      /packet 50/,
    );
    expect(
      scan(150, (k) => (k === 7 ? { pts: 8 / CLIP_FPS } : k === 8 ? { pts: 7 / CLIP_FPS } : {})).verdict(HEADER, WHOLE)
        .copy,
    ).toBe(false);
    expect(scan(150, (k) => (k === 36 ? { key: false } : {})).verdict(HEADER, WHOLE).why).toMatch(/frame 36/);
    expect(scan(150, () => ({ bytes: MAX_CLIP_BYTES / 30 })).verdict(HEADER, WHOLE).why).toMatch(/clip 0 over/);
    expect(scan(150).verdict(HEADER, { partial: true, stoppedAtLimit: false }).copy).toBe(false);
  });

  it("accepts full range with an sRGB transfer, as Chromium's encoder writes frames from a canvas", () => {
    const chromium = { pix_fmt: 'yuvj420p', color_range: 'pc', color_transfer: 'iec61966-2-1', color_space: 'bt709' };
    expect(scan(150).verdict({ ...HEADER, ...chromium }, WHOLE).copy).toBe(true);
  });

  it('refuses a header outside the format', () => {
    for (const change of [
      { width: 1920, height: 1080 },
      { has_b_frames: 2 },
      { r_frame_rate: '30/1', avg_frame_rate: '30/1' },
      { profile: 'High 10', pix_fmt: 'yuv420p10le' },
      { rotation: 90 },
      { color_space: 'smpte170m' },
      { color_transfer: 'arib-std-b67' },
      { demuxer: 'matroska' },
      { codec_tag_string: 'avc3' },
    ] satisfies Partial<ClipFormatHeader>[])
      expect(scan(150).verdict({ ...HEADER, ...change }, WHOLE).copy, JSON.stringify(change)).toBe(false);
  });
});

describe('probing real files', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('clip-format');
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  it('finds a stream made in the clip format (one slice a frame), landscape and portrait', async () => {
    const landscape = await probeVideo(await clipFormatVideo(join(dir, 'in.mp4'), { seconds: 11 }));
    expect(landscape.clipFormat).toMatchObject({ copy: true });
    const portrait = await probeVideo(await clipFormatVideo(join(dir, 'up.mp4'), { seconds: 11, portrait: true }));
    expect(portrait.clipFormat).toMatchObject({ copy: true });
    // Full range, BT.709 with the sRGB transfer: what Chromium's encoder writes from canvas frames (through mediabunny).
    const chromiumLike = await clipFormatVideo(join(dir, 'full.mp4'), {
      seconds: 11,
      args: ['-pix_fmt', 'yuvj420p', '-color_range', 'pc', '-color_trc', 'iec61966-2-1'],
    });
    expect(await probeVideo(chromiumLike)).toMatchObject({ clipFormat: { copy: true }, colour: { fullRange: true } });
  }, 120_000);

  it('does not find it in a stream that misses the format in one respect', async () => {
    const cases: Array<[RegExp, Promise<string>]> = [
      [/has_b_frames/, clipFormatVideo(join(dir, 'bf.mp4'), { seconds: 11, args: ['-bf', '2'] })],
      [
        /frame 12 is not a keyframe/,
        clipFormatVideo(join(dir, 'gop.mp4'), {
          seconds: 11,
          args: ['-g', '36', '-keyint_min', '36', '-force_key_frames', 'expr:eq(mod(n,36),0)'],
        }),
      ],
      [/frame rate/, clipFormatVideo(join(dir, 'fps.mp4'), { seconds: 11, fps: 30 })],
      [/size 1920x1080/, generateVideo(join(dir, 'hd.mp4'), { width: 1920, height: 1080, seconds: 11, fps: 15 })],
      [/container matroska/, clipFormatVideo(join(dir, 'mkv.mkv'), { seconds: 11 })],
      [
        /rotation/,
        withRotation(await clipFormatVideo(join(dir, 'in.mp4'), { seconds: 11 }), join(dir, 'turned.mp4'), 90),
      ],
    ];
    for (const [why, made] of cases)
      expect((await probeVideo(await made)).clipFormat).toMatchObject({ copy: false, why: expect.stringMatching(why) });
  }, 240_000);
});
