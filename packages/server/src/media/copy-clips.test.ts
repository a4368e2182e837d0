/**
 * The copy path: an upload already in the clip format keeps its own 720p packets (each clip's packets are the source's,
 * byte for byte, cut at the clip boundaries), only the 360p rendition is encoded; an upload that misses the format in
 * one respect is encoded as before. Real ffmpeg on videos made here.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIP_FRAMES } from './encoding.js';
import { processVideo, processVideoSegment, probeVideo } from './process-video.js';
import {
  clipFormatVideo,
  expectedKeyframes,
  inspectClip,
  listDir,
  makeTempDir,
  packetHashes,
  removeDir,
  slicesPerFrame,
} from '../../test/support/media-videos.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('copy');
});
afterAll(async () => {
  await removeDir(dir);
});

describe('an upload in the clip format', () => {
  it("is cut by stream copy: each 720p clip's packets are the source's, the 360p clips encoded frame for frame", async () => {
    const source = await clipFormatVideo(join(dir, 'in.mp4'), { seconds: 11 });
    const packets = await packetHashes(source);
    const result = await processVideo({ input: source, workDir: join(dir, 'out') });
    expect(result.probe.clipFormat).toMatchObject({ copy: true });
    expect(result.clips.map((c) => c.frameCount)).toEqual([36, 36, 36, 36, packets.length - 144]);
    for (const [k, clip] of result.clips.entries()) {
      expect(await packetHashes(clip.highPath), `clip ${k}`).toEqual(
        packets.slice(k * CLIP_FRAMES, k * CLIP_FRAMES + clip.frameCount),
      );
      const low = await inspectClip(clip.lowPath);
      expect([low.width, low.height, low.frames]).toEqual([640, 360, clip.frameCount]);
      expect(low.keyframes).toEqual(expectedKeyframes(clip.frameCount));
      const high = await inspectClip(clip.highPath);
      expect([high.width, high.height, high.bFrames]).toEqual([1280, 720, 0]);
      expect(high.keyframes).toEqual(expectedKeyframes(clip.frameCount));
    }
    expect(result.videoInfo).toMatchObject({ width: 1280, height: 720 });
    expect(await listDir(join(dir, 'out'))).toEqual(
      [...result.clips.flatMap((c) => [c.highPath, c.lowPath]).map((p) => p.split('/').pop()), 'thumbnail.jpg'].sort(),
    );
  }, 180_000);

  it("gives a segment exactly the whole video's clips from its first one", async () => {
    const source = await clipFormatVideo(join(dir, 'long.mp4'), { seconds: 20 });
    const packets = await packetHashes(source);
    const probe = await probeVideo(source);
    const part = await processVideoSegment({
      input: source,
      workDir: join(dir, 'part'),
      probe,
      range: { first: 2 * CLIP_FRAMES, end: 5 * CLIP_FRAMES },
    });
    expect(part.clips.map((c) => c.frameCount)).toEqual([36, 36, 36]);
    for (const [k, clip] of part.clips.entries())
      expect(await packetHashes(clip.highPath)).toEqual(packets.slice((k + 2) * CLIP_FRAMES, (k + 3) * CLIP_FRAMES));
    expect(part.thumbnailPath).toBeNull();
  }, 180_000);
});

describe('an upload in the clip format with a damaged frame', () => {
  it('is not copied: the strict decode fails on the damage and the tour is encoded, as any upload', async () => {
    const source = await clipFormatVideo(join(dir, 'whole.mp4'), { seconds: 11 });
    const damaged = join(dir, 'damaged.mp4');
    const bytes = await readFile(source);
    // Garbage over slice data in the middle of the file (the packet list, which the probe reads, is untouched).
    const at = Math.floor(bytes.length * 0.6);
    for (let i = 0; i < 400; i++) bytes[at + i] = (i * 37 + 11) & 0xff;
    await writeFile(damaged, bytes);
    expect((await probeVideo(damaged)).clipFormat).toMatchObject({ copy: true });
    const result = await processVideo({ input: damaged, workDir: join(dir, 'damaged') });
    expect(result.probe.clipFormat).toMatchObject({ copy: false, why: expect.stringMatching(/^not copied/) });
    expect(result.clips.length).toBe(5);
    for (const clip of result.clips) expect(await slicesPerFrame(clip.highPath)).toBe(4);
  }, 180_000);
});

describe('an upload that misses the format', () => {
  it('is encoded as before (four slices, its own packets), whatever it resembles', async () => {
    // The clip format but with B-frames: everything else the same.
    const source = await clipFormatVideo(join(dir, 'bf.mp4'), { seconds: 11, args: ['-bf', '2'] });
    const packets = await packetHashes(source);
    const result = await processVideo({ input: source, workDir: join(dir, 'bf') });
    expect(result.probe.clipFormat).toMatchObject({ copy: false });
    const first = await packetHashes(result.clips[0]!.highPath);
    expect(first).not.toEqual(packets.slice(0, CLIP_FRAMES));
    expect(await slicesPerFrame(result.clips[0]!.highPath)).toBe(4);
    expect((await inspectClip(result.clips[0]!.highPath)).bFrames).toBe(0);
  }, 180_000);
});
