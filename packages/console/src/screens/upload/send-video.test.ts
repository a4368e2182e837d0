/**
 * The upload flow's choice between the device's mezzanine and the original, with the worker and the multipart upload
 * scripted (the real ones run in e2e/upload-conversion.spec.ts): a declined conversion keeps the original's upload
 * going; a kept conversion aborts the original, and its parts, held during the race, go up while it converts and the
 * upload completes with the real size; cancelling stops both and deletes the mezzanine's parts.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadCalls } from './upload-calls.js';
import { sendVideo, type SendProgress } from './send-video.js';
import { uploadVideo, type UploadOptions } from './multipart-upload.js';
import { ConversionDeclined, startConversion, type ConversionStart, type RunningConversion } from './convert-video.js';
import { startPartStream, type PartStream, type PartStreamOptions } from './stream-upload.js';
import { UploadError } from './upload-error.js';

vi.mock('./multipart-upload.js', () => ({ uploadVideo: vi.fn() }));
vi.mock('./stream-upload.js', () => ({ startPartStream: vi.fn() }));
vi.mock('./convert-video.js', async (orig) => ({
  ...(await orig<typeof import('./convert-video.js')>()),
  canConvertHere: () => true,
  startConversion: vi.fn(),
}));
const upload = vi.mocked(uploadVideo);
const convert = vi.mocked(startConversion);
const streamStart = vi.mocked(startPartStream);

const original = new File([new Uint8Array(4096)], 'IMG_0002.MP4', { type: 'video/mp4' });
const started: ConversionStart = {
  durationSeconds: 60,
  decoder: 'software',
  decoderHint: 'no-preference',
  encoder: 'software',
  size: { width: 1080, height: 1920 },
  bitrate: 720_000,
  codec: 'avc1.640033',
};
const never = () => new Promise<never>(() => undefined);

/** The mezzanine's part stream, recording what it was given and when. */
let stream: { events: string[]; parts: number[]; finished: number | null };
beforeEach(() => {
  stream = { events: [], parts: [], finished: null };
  streamStart.mockReset();
  streamStart.mockImplementation(async (o) => {
    expect(o.limit).toBe(original.size);
    expect(o.fileName).toBe('IMG_0002.mp4');
    const s: PartStream = {
      key: 'uploads/mezzanine.mp4',
      partSize: 256,
      put: async (n) => {
        stream.parts.push(n);
        stream.events.push(`part ${n}`);
      },
      release: () => stream.events.push('release'),
      finish: async (size) => {
        stream.finished = size;
        return { key: 'uploads/mezzanine.mp4' };
      },
      abort: async () => void stream.events.push('abort'),
    };
    return s;
  });
});

/** A conversion that checks fine, then runs `body` when asked to convert (its answer is the mezzanine's size). */
function conversionOf(
  body: (
    onPart: (n: number, b: Uint8Array<ArrayBuffer>) => Promise<void>,
    signal: AbortSignal,
    onProgress: (f: number) => void,
  ) => Promise<number>,
  start = started,
) {
  convert.mockImplementation(
    (_file, signal, onProgress): RunningConversion => ({
      started: Promise.resolve(start),
      convert: (_size, _limit, onPart) => body(onPart, signal, onProgress),
    }),
  );
}

/** Uploads that finish (or fail) when told, each remembering its options. */
let uploads: Array<{ options: UploadOptions; finish: (key: string) => void; fail: (e: Error) => void }>;
beforeEach(() => {
  uploads = [];
  upload.mockReset();
  upload.mockImplementation(
    (options) =>
      new Promise((resolve, reject) => {
        uploads.push({ options, finish: (key) => resolve({ key }), fail: reject });
        options.signal.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
      }),
  );
});

function run(signal = new AbortController().signal) {
  const log: string[] = [];
  const progress: SendProgress[] = [];
  const sent = sendVideo({
    calls: {} as UploadCalls,
    file: original,
    signal,
    onProgress: (p) => progress.push(p),
    log: (l) => log.push(l),
  });
  return { sent, log, progress };
}

describe('sendVideo', () => {
  it('keeps uploading the original when the device declines (no decoder), and says why in the debug log', async () => {
    let decline!: (e: Error) => void;
    convert.mockReturnValue({ started: new Promise((_, reject) => (decline = reject)), convert: never });
    const { sent, log, progress } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    // While the device reads the source, the bar shows the original's upload (a drop's 'Resuming…' included).
    const resuming = {
      bytesUploaded: 10,
      bytesTotal: 4096,
      percent: 0,
      bytesPerSecond: null,
      secondsLeft: null,
      resuming: true,
    };
    uploads[0]!.options.onProgress(resuming);
    expect(progress).toEqual([{ phase: 'uploading', ...resuming }]);
    decline(new ConversionDeclined('no decoder for hev1.1.6.L153.90 on this device'));
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(uploads[0]!.options.file).toBe(original);
    expect(uploads[0]!.options.signal.aborted).toBe(false);
    expect(log).toEqual(['original: no decoder for hev1.1.6.L153.90 on this device']);
    expect(streamStart).not.toHaveBeenCalled();
  });

  it('uploads the mezzanine when the conversion ends first: the original is aborted, the parts complete with the real size', async () => {
    conversionOf(async (onPart, _signal, onProgress) => {
      onProgress(0.5);
      await onPart(1, new Uint8Array(256));
      await onPart(2, new Uint8Array(256));
      return 512;
    });
    const { sent, log, progress } = run();
    await expect(sent).resolves.toEqual({ key: 'uploads/mezzanine.mp4', converted: true });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.options.signal.aborted).toBe(true);
    expect(stream.finished).toBe(512);
    expect(stream.events).toEqual(['part 1', 'part 2', 'release']);
    expect(progress).toContainEqual({ phase: 'preparing', percent: 50 });
    expect(log[0]).toBe(
      "converting avc1.640033 to 1080x1920 with the software decoder (asked with 'no-preference') and the software encoder",
    );
    expect(log[1]).toBe('convert: the conversion finished first');
    expect(log[2]).toMatch(
      /^converted: 512 bytes, 12\.5 % of the original, in [\d.]+ s; 2 of 2 parts handed to the upload while converting$/,
    );
  });

  it("holds the mezzanine's parts until the race keeps it, then sends them while it still converts", async () => {
    let more!: () => void;
    const later = new Promise<void>((r) => (more = r));
    conversionOf(
      async (onPart, _signal, onProgress) => {
        onProgress(0.5);
        await onPart(1, new Uint8Array(256));
        await later;
        await onPart(2, new Uint8Array(256));
        await onPart(3, new Uint8Array(10));
        return 522;
      },
      { ...started, durationSeconds: 0.001 },
    );
    const { sent, log } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    await vi.waitFor(() => expect(stream.events).toEqual(['part 1']));
    // A crawling uplink: after the first 3 s the race keeps the conversion, and only then are parts sent.
    uploads[0]!.options.onProgress({
      bytesUploaded: 1,
      bytesTotal: 4096,
      percent: 0,
      bytesPerSecond: 1,
      secondsLeft: 4095,
      resuming: false,
    });
    await vi.waitFor(() => expect(stream.events).toEqual(['part 1', 'release']), { timeout: 10_000 });
    expect(log[1]).toMatch(/^convert: converting /);
    more();
    await expect(sent).resolves.toEqual({ key: 'uploads/mezzanine.mp4', converted: true });
    expect(stream.events).toEqual(['part 1', 'release', 'part 2', 'part 3']);
    expect(stream.finished).toBe(522);
  }, 15_000);

  it("keeps the original when the mezzanine's upload is refused at its start", async () => {
    streamStart.mockRejectedValueOnce(new Error('You have 5 unfinished uploads.'));
    conversionOf(never);
    const { sent, log } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(log.at(-1)).toBe("original: the mezzanine's upload was refused: You have 5 unfinished uploads.");
  });

  it('keeps the original when it finishes uploading before the conversion', async () => {
    let abortedConversion = false;
    conversionOf((_onPart, signal) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      return never();
    });
    const { sent, log } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    await vi.waitFor(() => expect(streamStart).toHaveBeenCalled());
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(abortedConversion).toBe(true);
    expect(stream.events).toEqual(['abort']);
    expect(log.at(-1)).toBe('original: it finished uploading first');
  });

  it('gives up a kept conversion that stops moving: the worker is ended and the original is uploaded again', async () => {
    let abortedConversion = false;
    // A tiny duration and a crawling uplink: after the first 3 s the race keeps the conversion.
    conversionOf(
      (_onPart, signal, onProgress) => {
        signal.addEventListener('abort', () => (abortedConversion = true));
        onProgress(0.5);
        return never();
      },
      { ...started, durationSeconds: 0.001 },
    );
    const log: string[] = [];
    const sent = sendVideo({
      calls: {} as UploadCalls,
      file: original,
      signal: new AbortController().signal,
      onProgress: () => undefined,
      log: (l) => log.push(l),
      stallMs: 4000,
    });
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.options.onProgress({
      bytesUploaded: 1,
      bytesTotal: 4096,
      percent: 0,
      bytesPerSecond: 1,
      secondsLeft: 4095,
      resuming: false,
    });
    await vi.waitFor(() => expect(uploads).toHaveLength(2), { timeout: 15_000 });
    expect(uploads[0]!.options.signal.aborted).toBe(true);
    expect(uploads[1]!.options.file).toBe(original);
    expect(abortedConversion).toBe(true);
    expect(log).toContain('original: conversion failed after the verdict: no progress for 4 s');
    expect(stream.events).toEqual(['release', 'abort']);
    uploads[1]!.finish('uploads/original-again.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original-again.mp4', converted: false });
  }, 20_000);

  it('a kept conversion held back by a slow uplink is not given up as stalled', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      // The mezzanine's upload takes part 1 only when the test says (a slow uplink with parts unsent).
      let room!: () => void;
      streamStart.mockImplementationOnce(async () => ({
        key: 'uploads/mezzanine.mp4',
        partSize: 256,
        put: () => new Promise<void>((r) => (room = r)),
        release: () => undefined,
        finish: async () => ({ key: 'uploads/mezzanine.mp4' }),
        abort: async () => undefined,
      }));
      conversionOf(
        async (onPart, _signal, onProgress) => {
          onProgress(0.5);
          await onPart(1, new Uint8Array(256));
          return 256;
        },
        { ...started, durationSeconds: 0.001 },
      );
      const log: string[] = [];
      const sent = sendVideo({
        calls: {} as UploadCalls,
        file: original,
        signal: new AbortController().signal,
        onProgress: () => undefined,
        log: (l) => log.push(l),
        stallMs: 4000,
      });
      await vi.advanceTimersByTimeAsync(100);
      uploads[0]!.options.onProgress({
        bytesUploaded: 1,
        bytesTotal: 4096,
        percent: 0,
        bytesPerSecond: 1,
        secondsLeft: 4095,
        resuming: false,
      });
      // The verdict after 3 s keeps the conversion; then 20 s without progress while the upload holds part 1.
      await vi.advanceTimersByTimeAsync(23_000);
      expect(log.some((l) => l.startsWith('convert:'))).toBe(true);
      expect(log.some((l) => l.includes('failed'))).toBe(false);
      expect(uploads).toHaveLength(1);
      room();
      await expect(sent).resolves.toEqual({ key: 'uploads/mezzanine.mp4', converted: true });
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancelling stops the conversion and the upload', async () => {
    let abortedConversion = false;
    conversionOf((_onPart, signal) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      return never();
    });
    const cancel = new AbortController();
    const { sent } = run(cancel.signal);
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    await vi.waitFor(() => expect(streamStart).toHaveBeenCalled());
    cancel.abort();
    await expect(sent).rejects.toThrow(/cancelled/);
    expect(abortedConversion).toBe(true);
    expect(uploads[0]!.options.signal.aborted).toBe(true);
    // The mezzanine's upload is aborted too (its parts deleted): nothing is saved.
    await vi.waitFor(() => expect(stream.events).toContain('abort'));
  });
  it('a failure of the original while the device checks the source is the error, and the worker is ended', async () => {
    let abortedConversion = false;
    convert.mockImplementation((_file, signal) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      return { started: never(), convert: never };
    });
    const { sent } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    const lost = new UploadError('NETWORK', 'The connection was lost during the upload.');
    uploads[0]!.fail(lost);
    await expect(sent).rejects.toBe(lost);
    expect(abortedConversion).toBe(true);
  });

  it("a mezzanine's upload that opens after the original won is deleted, never used", async () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    const base = streamStart.getMockImplementation()!;
    streamStart.mockImplementationOnce(async (o) => {
      await opened;
      return base(o);
    });
    conversionOf(never);
    const { sent, log } = run();
    await vi.waitFor(() => expect(streamStart).toHaveBeenCalled());
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(log.at(-1)).toBe('original: it finished uploading first');
    open();
    await vi.waitFor(() => expect(stream.events).toEqual(['abort']));
  });

  it("a part lost for good mid-upload ends the upload with the user's error: the worker ends, the parts are deleted", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'] });
    try {
      let options!: PartStreamOptions;
      const base = streamStart.getMockImplementation()!;
      streamStart.mockImplementationOnce(async (o) => {
        options = o;
        // The first part waits for room: the uplink is slow.
        return { ...(await base(o)), put: () => new Promise<void>(() => undefined) };
      });
      let abortedConversion = false;
      conversionOf(
        async (onPart, signal, onProgress) => {
          signal.addEventListener('abort', () => (abortedConversion = true));
          onProgress(0.5);
          await onPart(1, new Uint8Array(256));
          return 256;
        },
        { ...started, durationSeconds: 0.001 },
      );
      const { sent, log } = run();
      sent.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(100);
      uploads[0]!.options.onProgress({
        bytesUploaded: 1,
        bytesTotal: 4096,
        percent: 0,
        bytesPerSecond: 1,
        secondsLeft: 4095,
        resuming: false,
      });
      await vi.advanceTimersByTimeAsync(3_500);
      expect(log.some((l) => l.startsWith('convert:'))).toBe(true);
      const lost = new UploadError('NETWORK', 'The connection was lost during the upload.');
      options.onFailure!(lost);
      await expect(sent).rejects.toBe(lost);
      expect(abortedConversion).toBe(true);
      expect(stream.events).toContain('abort');
      expect(uploads).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
