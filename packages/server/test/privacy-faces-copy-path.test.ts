/**
 * Privacy on the copy path: an upload in the clip format keeps its own 720p clips, except those in which the privacy
 * pass blurred a face; those are decoded again from their copied clip, blurred, encoded in both renditions in the clip
 * format, and show no face. Only the sampled frames come through this process (no raw frame pipe), with faces or
 * without.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceBlurFilter, newFaceBlurStats } from '../src/media/blur-faces.js';
import { CLIP_FPS, CLIP_FRAMES } from '../src/media/encoding.js';
import { detectFaces, type FaceBox } from '../src/media/faces.js';
import { DETECT_EVERY } from '../src/media/face-plan.js';
import { processVideo, processVideoSegment, probeVideo, type ProcessVideoResult } from '../src/media/process-video.js';
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
  clipFormatVideo,
} from './support/media-videos.js';

/** The frames the face pass needs whole: every DETECT_EVERY-th one, and the last. */
const sampledFrames = (frames: number) => Math.ceil(frames / DETECT_EVERY) + ((frames - 1) % DETECT_EVERY ? 1 : 0);

const FACE = { size: 220, x: 500, y: 250, shown: [4.4, 5.2] as [number, number] };
/** The face is shown in tour frames 66–77: clips 1 and 2, encoded again together (one decoder, one encoder). */
const FACE_CLIPS = [1, 2];

describe('a face on the copy path', { timeout: 300_000 }, () => {
  let dir: string;
  let source: string;
  let packets: string[];
  let result: ProcessVideoResult;
  const stats = newFaceBlurStats();

  beforeAll(async () => {
    dir = await makeTempDir('privacy-copy');
    const drawn = join(dir, 'drawn.mp4');
    // 10.5 s at the clip rate on testsrc2; a still face shown from 4.4 s to 5.2 s (tour frames 66–77, clips 1 and 2).
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
    result = await processVideo({ input: source, workDir: join(dir, 'out'), frameFilter: faceBlurFilter({ stats }) });
  }, 300_000);
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  it('copies every clip without a blurred frame and encodes again, in the clip format, those with one', async () => {
    expect(result.probe.clipFormat, JSON.stringify(result.probe.clipFormat)).toMatchObject({ copy: true });
    // Only the clips the face is in are encoded again; no frame but the samples came through this process.
    expect(result.clips.filter((c) => c.changedFrames! > 0).map((c) => c.index)).toEqual(FACE_CLIPS);
    expect(stats.clipsEncodedAgain).toBe(FACE_CLIPS.length);
    const frames = result.clips.reduce((n, c) => n + c.frameCount, 0);
    expect([stats.frames, stats.framesInNode]).toEqual([frames, sampledFrames(frames)]);
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

  it('blurs exactly the frames the raw frame pipe blurs in the same source', async () => {
    const piped = newFaceBlurStats();
    const probe = await probeVideo(source);
    const encoded = await processVideo({
      input: source,
      workDir: join(dir, 'piped'),
      probe: { ...probe, clipFormat: { copy: false, why: 'the raw frame pipe, for comparison' } },
      frameFilter: faceBlurFilter({ stats: piped }),
    });
    expect(piped.framesInNode).toBe(piped.frames);
    expect(result.clips.map((c) => c.changedFrames)).toEqual(encoded.clips.map((c) => c.changedFrames));
    // Which samples wait for a sentinel depends on when answers arrive (face-samples.ts), so detections are not
    // compared; the frames blurred are.
    expect(stats.blurredFrames).toBe(piped.blurredFrames);
  });

  // The face drawn must not be detectable. A detection elsewhere is the detector's own, on testsrc2's pattern: once in
  // CI (stop 51) a 360p frame's top right corner, far from the face, scored 0.508 against the 0.5 threshold; the
  // encoder's output there moves with which frames were blurred, so it comes and goes.
  const onTheFace = (faces: FaceBox[], scale: number) =>
    faces.filter(
      (f) =>
        f.x < (FACE.x + FACE.size) * scale &&
        f.x + f.width > FACE.x * scale &&
        f.y < (FACE.y + FACE.size) * scale &&
        f.y + f.height > FACE.y * scale,
    );

  it('shows the face drawn in no frame of the encoded 720p and 360p clips; the source does', async () => {
    const original = await decodeRgb(source, 1280, 720);
    const r = { x: FACE.x + 20, y: FACE.y + 20, w: FACE.size - 40, h: FACE.size - 40 };
    let shown = 0;
    for (const c of FACE_CLIPS.map((k) => result.clips[k]!)) {
      const high = await decodeRgb(c.highPath, 1280, 720);
      const low = await decodeRgb(c.lowPath, 640, 360);
      for (let i = 0; i < c.frameCount; i++) {
        const n = c.index * CLIP_FRAMES + i;
        expect(onTheFace(await detectFaces(high[i]!, 1280, 720, 0.5), 1), `720p frame ${n}`).toEqual([]);
        expect(onTheFace(await detectFaces(low[i]!, 640, 360, 0.5), 0.5), `360p frame ${n}`).toEqual([]);
        const t = n / CLIP_FPS;
        if (t < FACE.shown[0] || t >= FACE.shown[1]) continue;
        shown++;
        expect(
          onTheFace(await detectFaces(original[n]!, 1280, 720, 0.5), 1).length,
          `source frame ${n}`,
        ).toBeGreaterThan(0);
        expect(energy(high[i]!, 1280, r), `frame ${n}`).toBeLessThan(energy(original[n]!, 1280, r) * 0.4);
      }
    }
    expect(shown).toBe(12);
  });
});

describe('a face-free upload on the copy path', { timeout: 300_000 }, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await makeTempDir('privacy-copy-free');
  });
  afterAll(async () => {
    if (dir) await removeDir(dir);
  });

  it('copies every clip and sends only the sampled frames through this process, whole video and segment', async () => {
    // 11 s: 165 frames, the last (164) not a sample, so it is decoded from the last copied clip.
    const source = await clipFormatVideo(join(dir, 'in.mp4'), { seconds: 11, portrait: true });
    const packets = await packetHashes(source);
    const stats = newFaceBlurStats();
    const result = await processVideo({
      input: source,
      workDir: join(dir, 'out'),
      frameFilter: faceBlurFilter({ stats }),
    });
    expect(result.probe.clipFormat).toMatchObject({ copy: true });
    expect(packets.length).toBe(165);
    for (const c of result.clips) {
      expect(c.changedFrames, `clip ${c.index}`).toBe(0);
      expect(await packetHashes(c.highPath), `clip ${c.index}`).toEqual(
        packets.slice(c.index * CLIP_FRAMES, c.index * CLIP_FRAMES + c.frameCount),
      );
    }
    // The raw frame pipe would have brought all 165 frames here.
    expect([stats.frames, stats.framesInNode, stats.clipsEncodedAgain ?? 0]).toEqual([165, sampledFrames(165), 0]);
    expect(stats.samples).toBeGreaterThan(0);

    // A segment from clip 2 on: its own samples (frames 72–164), its clips the whole video's.
    const segStats = newFaceBlurStats();
    const part = await processVideoSegment({
      input: source,
      workDir: join(dir, 'part'),
      probe: await probeVideo(source),
      range: { first: 2 * CLIP_FRAMES },
      frameFilter: faceBlurFilter({ stats: segStats }),
    });
    for (const [i, c] of part.clips.entries())
      expect(await packetHashes(c.highPath), `segment clip ${i}`).toEqual(
        await packetHashes(result.clips[i + 2]!.highPath),
      );
    expect([segStats.frames, segStats.framesInNode]).toEqual([93, sampledFrames(93)]);
  });
});
