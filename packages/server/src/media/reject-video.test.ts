/**
 * Videos that cannot become a tour end in a VideoRejectedError with the spec's code and text, leave nothing behind,
 * and never hang. Real ffmpeg on files generated here.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ERROR_CODES, ERROR_TEXTS, VALIDATION } from '@roomwalk/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processVideo, VideoRejectedError, type ProcessVideoOptions } from './process-video.js';
import { probeVideo } from './probe-video.js';
import { sniffBytes } from './sniff-container.js';
import { generateVideo, listDir, makeTempDir, removeDir, truncateFile } from '../../test/support/media-videos.js';

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir('reject');
});
afterAll(async () => {
  await removeDir(dir);
});

/** Runs processVideo expecting a rejection; returns it after checking the work folder is gone. */
async function expectRejected(
  input: string,
  name: string,
  code: string,
  userMessage: string,
): Promise<VideoRejectedError> {
  const workDir = join(dir, `${name}-out`);
  const err = await processVideo({ input, workDir }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(VideoRejectedError);
  const rejected = err as VideoRejectedError;
  expect({ code: rejected.code, userMessage: rejected.userMessage }).toEqual({ code, userMessage });
  expect(await listDir(workDir)).toBeNull();
  return rejected;
}

describe('processVideo rejects', () => {
  it('a video shorter than 10 s with the spec text', async () => {
    const input = await generateVideo(join(dir, 'short.mp4'), { width: 1280, height: 720, seconds: 6 });
    await expectRejected(input, 'short', ERROR_CODES.VIDEO_TOO_SHORT, VALIDATION.videoTooShort);
  });

  it('a video longer than 600 s, measured from its frames', async () => {
    // 601 s at 2 fps and a tiny bitrate: long in time, cheap to make.
    const input = await generateVideo(join(dir, 'long.mp4'), {
      width: 1280,
      height: 720,
      seconds: 601,
      fps: 2,
      codecArgs: ['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '45', '-pix_fmt', 'yuv420p'],
    });
    await expectRejected(input, 'long', ERROR_CODES.VIDEO_TOO_LONG, VALIDATION.videoTooLong);
  });

  it('a landscape video below 1280x720', async () => {
    const input = await generateVideo(join(dir, 'small.mp4'), { width: 960, height: 540, seconds: 11 });
    await expectRejected(input, 'small', ERROR_CODES.VIDEO_RESOLUTION_LOW, VALIDATION.videoResolutionLow);
  });

  it('a portrait video below 720x1280', async () => {
    const input = await generateVideo(join(dir, 'small-portrait.mp4'), { width: 540, height: 960, seconds: 11 });
    await expectRejected(input, 'small-portrait', ERROR_CODES.VIDEO_RESOLUTION_LOW, VALIDATION.videoResolutionLow);
  });

  it('a non-video file renamed .mp4', async () => {
    const input = join(dir, 'notes.mp4');
    await writeFile(input, 'These are my notes, not a video.\n'.repeat(200));
    await expectRejected(input, 'notes', ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoUnreadable);
  });

  it('a file that starts like an MP4 but holds garbage', async () => {
    const input = join(dir, 'fake.mp4');
    const head = Buffer.from('00000018667479706d703432000000006d703432', 'hex'); // a valid ftyp box
    await writeFile(input, Buffer.concat([head, Buffer.alloc(100_000, 0x5a)]));
    await expectRejected(input, 'fake', ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoUnreadable);
  });

  it('an upload cut off before its index (moov at the end)', async () => {
    const full = await generateVideo(join(dir, 'moov-last.mp4'), { width: 1280, height: 720, seconds: 11 });
    const input = await truncateFile(full, join(dir, 'moov-last-cut.mp4'), 0.6);
    await expectRejected(input, 'moov-last-cut', ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoIncomplete);
  });

  it('an upload cut off after its index (moov first): incomplete, not "too short"', async () => {
    // 20 s with the index at the front: the 40 % left holds about 8 s of frames, which alone read as a short video.
    const full = await generateVideo(join(dir, 'moov-first.mp4'), {
      width: 1280,
      height: 720,
      seconds: 20,
      outputArgs: ['-movflags', '+faststart'],
    });
    const input = await truncateFile(full, join(dir, 'moov-first-cut.mp4'), 0.4);
    await expectRejected(input, 'moov-first-cut', ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoIncomplete);
  });

  it('an empty file', async () => {
    const input = join(dir, 'empty.mp4');
    await writeFile(input, '');
    await expectRejected(input, 'empty', ERROR_CODES.VIDEO_INVALID, ERROR_TEXTS.videoUnreadable);
  });

  it('without touching files it did not make in an existing work folder', async () => {
    const workDir = join(dir, 'existing-out');
    await mkdir(workDir);
    await writeFile(join(workDir, 'keep.txt'), 'mine');
    // A leftover of an interrupted earlier attempt, which must not survive.
    await writeFile(join(workDir, 'high-00000.mp4'), 'stale');
    const input = await generateVideo(join(dir, 'short2.mp4'), { width: 1280, height: 720, seconds: 5 });
    await expect(processVideo({ input, workDir })).rejects.toBeInstanceOf(VideoRejectedError);
    expect(await listDir(workDir)).toEqual(['keep.txt']);
  });
});

describe('processVideo abort', () => {
  it('kills ffmpeg when the signal fires and removes the partial clips', async () => {
    const input = await generateVideo(join(dir, 'abort.mp4'), { width: 1280, height: 720, seconds: 20 });
    const workDir = join(dir, 'abort-out');
    const controller = new AbortController();
    const opts: ProcessVideoOptions = {
      input,
      workDir,
      signal: controller.signal,
      // Abort once the transcode is under way.
      onProgress: (p) => {
        if (p.progress > 0.05) controller.abort();
      },
    };
    const err = await processVideo(opts).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.name).toBe('AbortError');
    expect(await listDir(workDir)).toBeNull();
  });
});

describe('probeVideo', () => {
  it('forces the demuxer from the magic bytes and refuses unknown containers', async () => {
    expect(sniffBytes(Buffer.from('00000018667479706d703432', 'hex'))).toBe('mp4');
    expect(sniffBytes(Buffer.from('1a45dfa3a3428681', 'hex'))).toBe('matroska');
    expect(sniffBytes(Buffer.from('0000000140010c01ffff', 'hex'))).toBe('hevc');
    expect(sniffBytes(Buffer.from('89504e470d0a1a0a0000000d', 'hex'))).toBeNull(); // PNG
    expect(sniffBytes(Buffer.from('#EXTM3U\nhttp://example.com/a.ts\n'))).toBeNull(); // a playlist pointing at the network
  });

  it('reads a WebM (matroska) upload', async () => {
    const input = await generateVideo(join(dir, 'clip.webm'), {
      width: 1280,
      height: 720,
      seconds: 2,
      fps: 10,
      codecArgs: ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k'],
    });
    const probe = await probeVideo(input);
    expect(probe).toMatchObject({ container: 'matroska', codec: 'vp8', width: 1280, height: 720, packetCount: 20 });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
  });
});
