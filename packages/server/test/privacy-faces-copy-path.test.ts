/**
 * Privacy on the copy path: an upload in the clip format keeps its own 720p clips, except those in which the privacy
 * pass blurred a face; those are encoded again from the blurred frames, in the clip format, and show no face.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFaceBlur } from '../src/media/blur-faces.js';
import { CLIP_FPS, CLIP_FRAMES } from '../src/media/encoding.js';
import { detectFaces } from '../src/media/faces.js';
import { processVideo, type ProcessVideoResult } from '../src/media/process-video.js';
import { decodeRgb, energy, faceVideo } from './support/faces.js';
import {
  expectedKeyframes,
  inspectClip,
  listDir,
  makeTempDir,
  packetHashes,
  removeDir,
  slicesPerFrame,
  toClipFormat,
} from './support/media-videos.js';

const FACE = { size: 220, x: 500, y: 250, shown: [3.2, 4] as [number, number] };

describe('a face on the copy path', { timeout: 300_000 }, () => {
  let dir: string;
  let source: string;
  let packets: string[];
  let result: ProcessVideoResult;

  beforeAll(async () => {
    dir = await makeTempDir('privacy-copy');
    const drawn = join(dir, 'drawn.mp4');
    // 10.5 s at the clip rate on testsrc2; a still face shown from 3.2 s to 4 s (tour frames 48–59, clip 1).
    await faceVideo(drawn, {
      width: 1280,
      height: 720,
      fps: CLIP_FPS,
      seconds: 10.5,
      background: `testsrc2=size=1280x720:rate=${CLIP_FPS}`,
      dir,
      faces: [
        {
          crop: 0,
          size: FACE.size,
          x: [String(FACE.x), () => FACE.x],
          y: [String(FACE.y), () => FACE.y],
          shown: [FACE.shown],
        },
      ],
    });
    source = await toClipFormat(drawn, join(dir, 'source.mp4'));
    packets = await packetHashes(source);
    result = await withFaceBlur(processVideo)({ input: source, workDir: join(dir, 'out'), blurFaces: true } as never);
  }, 300_000);
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  it('copies every clip without a blurred frame and encodes again, in the clip format, those with one', async () => {
    expect(result.probe.clipFormat).toMatchObject({ copy: true });
    const faceClip = Math.floor((FACE.shown[0] * CLIP_FPS) / CLIP_FRAMES);
    expect(result.clips[faceClip]!.changedFrames).toBeGreaterThan(0);
    const copied = result.clips.filter((c) => c.changedFrames === 0);
    expect(copied.length).toBeGreaterThan(0);
    for (const c of result.clips) {
      const own = packets.slice(c.index * CLIP_FRAMES, c.index * CLIP_FRAMES + c.frameCount);
      const hashes = await packetHashes(c.highPath);
      if (c.changedFrames === 0) {
        expect(hashes, `clip ${c.index}`).toEqual(own);
        continue;
      }
      expect(hashes, `clip ${c.index}`).not.toEqual(own);
      const high = await inspectClip(c.highPath);
      expect([high.width, high.height, high.frames, high.bFrames]).toEqual([1280, 720, c.frameCount, 0]);
      expect(high.keyframes).toEqual(expectedKeyframes(c.frameCount));
      expect(await slicesPerFrame(c.highPath)).toBe(4);
    }
    // Nothing but the clips and the thumbnail is left (the blurred clips took the copied ones' names).
    expect(
      (await listDir(join(dir, 'out')))?.filter((n) => !/^(high|low)-\d{5}\.mp4$|^thumbnail\.jpg$/.test(n)),
    ).toEqual([]);
  });

  it('shows no detectable face in any frame of the encoded 720p and 360p clips; the source does', async () => {
    const c = result.clips[Math.floor((FACE.shown[0] * CLIP_FPS) / CLIP_FRAMES)]!;
    const high = await decodeRgb(c.highPath, 1280, 720);
    const low = await decodeRgb(c.lowPath, 640, 360);
    const original = await decodeRgb(source, 1280, 720);
    const r = { x: FACE.x + 20, y: FACE.y + 20, w: FACE.size - 40, h: FACE.size - 40 };
    let shown = 0;
    for (let i = 0; i < c.frameCount; i++) {
      const n = c.index * CLIP_FRAMES + i;
      expect(await detectFaces(high[i]!, 1280, 720, 0.5), `720p frame ${n}`).toEqual([]);
      expect(await detectFaces(low[i]!, 640, 360, 0.5), `360p frame ${n}`).toEqual([]);
      const t = n / CLIP_FPS;
      if (t < FACE.shown[0] || t >= FACE.shown[1]) continue;
      shown++;
      expect((await detectFaces(original[n]!, 1280, 720, 0.5)).length, `source frame ${n}`).toBeGreaterThan(0);
      expect(energy(high[i]!, 1280, r), `frame ${n}`).toBeLessThan(energy(original[n]!, 1280, r) * 0.4);
    }
    expect(shown).toBe(12);
  });
});
