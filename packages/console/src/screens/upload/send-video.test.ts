/**
 * The upload flow's choice between the device's mezzanine and the original, with the worker and the multipart upload
 * scripted (the real ones run in e2e/upload-conversion.spec.ts): a declined conversion keeps the original's upload
 * going, a finished conversion aborts the original and uploads the mezzanine, cancelling stops both.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Client } from 'urql';
import { sendVideo, type SendProgress } from './send-video.js';
import { uploadVideo, type UploadOptions } from './multipart-upload.js';
import { ConversionDeclined, startConversion, type ConversionStart } from './convert-video.js';

vi.mock('./multipart-upload.js', () => ({ uploadVideo: vi.fn() }));
vi.mock('./convert-video.js', async (orig) => ({ ...(await orig<typeof import('./convert-video.js')>()), canConvertHere: () => true, startConversion: vi.fn() }));
const upload = vi.mocked(uploadVideo);
const convert = vi.mocked(startConversion);

const original = new File([new Uint8Array(4096)], 'IMG_0002.MP4', { type: 'video/mp4' });
const mezzanine = new File([new Uint8Array(512)], 'IMG_0002.mp4', { type: 'video/mp4' });
const started: ConversionStart = { type: 'started', durationSeconds: 60, decoder: 'software', size: { width: 1080, height: 1920 }, codec: 'avc1.640033' };

/** Uploads that finish when told, each remembering its options. */
let uploads: Array<{ options: UploadOptions; finish: (key: string) => void }>;
beforeEach(() => {
  uploads = [];
  upload.mockReset();
  upload.mockImplementation(
    (options) =>
      new Promise((resolve, reject) => {
        uploads.push({ options, finish: (key) => resolve({ key }) });
        options.signal.addEventListener('abort', () => reject(new DOMException('Upload cancelled', 'AbortError')));
      }),
  );
});

function run(signal = new AbortController().signal) {
  const log: string[] = [];
  const progress: SendProgress[] = [];
  const sent = sendVideo({ client: {} as Client, file: original, signal, onProgress: (p) => progress.push(p), log: (l) => log.push(l) });
  return { sent, log, progress };
}

describe('sendVideo', () => {
  it('keeps uploading the original when the device declines (no decoder), and says why in the debug log', async () => {
    let decline!: (e: Error) => void;
    convert.mockReturnValue({ started: new Promise((_, reject) => (decline = reject)), result: new Promise(() => undefined) });
    const { sent, log, progress } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    // While the device reads the source, the bar shows the original's upload (a drop's 'Resuming…' included).
    const resuming = { bytesUploaded: 10, bytesTotal: 4096, percent: 0, bytesPerSecond: null, secondsLeft: null, resuming: true };
    uploads[0]!.options.onProgress(resuming);
    expect(progress).toEqual([{ phase: 'uploading', ...resuming }]);
    decline(new ConversionDeclined('no decoder for hev1.1.6.L153.90 on this device'));
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(uploads[0]!.options.file).toBe(original);
    expect(uploads[0]!.options.signal.aborted).toBe(false);
    expect(log).toEqual(['original: no decoder for hev1.1.6.L153.90 on this device']);
  });

  it('uploads the mezzanine when the conversion ends first: the original is aborted (its parts deleted)', async () => {
    convert.mockImplementation((_file, _signal, onProgress) => {
      onProgress(0.5);
      return { started: Promise.resolve(started), result: Promise.resolve(mezzanine) };
    });
    const { sent, log, progress } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(2));
    expect(uploads[0]!.options.signal.aborted).toBe(true);
    expect(uploads[1]!.options.file).toBe(mezzanine);
    uploads[1]!.finish('uploads/mezzanine.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/mezzanine.mp4', converted: true });
    expect(progress).toContainEqual({ phase: 'preparing', percent: 50 });
    expect(log[0]).toBe('converting avc1.640033 to 1080x1920 with the software decoder');
    expect(log[1]).toBe('convert: the conversion finished first');
    expect(log[2]).toMatch(/^converted: 512 bytes, 12\.5 % of the original/);
  });

  it('keeps the original when it finishes uploading before the conversion', async () => {
    let abortedConversion = false;
    convert.mockImplementation((_file, signal) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      return { started: Promise.resolve(started), result: new Promise(() => undefined) };
    });
    const { sent, log } = run();
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.finish('uploads/original.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original.mp4', converted: false });
    expect(abortedConversion).toBe(true);
    expect(log.at(-1)).toBe('original: it finished uploading first');
  });

  it('gives up a kept conversion that stops moving: the worker is ended and the original is uploaded again', async () => {
    let abortedConversion = false;
    convert.mockImplementation((_file, signal, onProgress) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      onProgress(0.5);
      // A tiny duration and a crawling uplink: after the first 3 s the race keeps the conversion.
      return { started: Promise.resolve({ ...started, durationSeconds: 0.001 }), result: new Promise(() => undefined) };
    });
    const log: string[] = [];
    const sent = sendVideo({ client: {} as Client, file: original, signal: new AbortController().signal, onProgress: () => undefined, log: (l) => log.push(l), stallMs: 4000 });
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    uploads[0]!.options.onProgress({ bytesUploaded: 1, bytesTotal: 4096, percent: 0, bytesPerSecond: 1, secondsLeft: 4095, resuming: false });
    await vi.waitFor(() => expect(uploads).toHaveLength(2), { timeout: 15_000 });
    expect(uploads[0]!.options.signal.aborted).toBe(true);
    expect(uploads[1]!.options.file).toBe(original);
    expect(abortedConversion).toBe(true);
    expect(log).toContain('original: conversion failed after the verdict: no progress for 4 s');
    uploads[1]!.finish('uploads/original-again.mp4');
    await expect(sent).resolves.toEqual({ key: 'uploads/original-again.mp4', converted: false });
  }, 20_000);

  it('cancelling stops the conversion and the upload', async () => {
    let abortedConversion = false;
    convert.mockImplementation((_file, signal) => {
      signal.addEventListener('abort', () => (abortedConversion = true));
      return { started: Promise.resolve(started), result: new Promise(() => undefined) };
    });
    const cancel = new AbortController();
    const { sent } = run(cancel.signal);
    await vi.waitFor(() => expect(uploads).toHaveLength(1));
    cancel.abort();
    await expect(sent).rejects.toThrow(/cancelled/);
    expect(abortedConversion).toBe(true);
    expect(uploads[0]!.options.signal.aborted).toBe(true);
  });
});
