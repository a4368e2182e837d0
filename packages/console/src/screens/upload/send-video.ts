/**
 * From a checked file to a stored upload (docs/upload-conversion.md). Where the browser can convert, the device starts
 * converting and the original starts uploading at the same time; after the first seconds `raceVerdict` keeps the one
 * that ends sooner: the converted mezzanine (the original's parts are aborted and deleted) or the original (the
 * conversion is cancelled). The mezzanine goes up while it is made: its upload (stream-upload.ts, size stated at the
 * end) starts with the conversion, its parts wait for the verdict, then each leaves as soon as the muxer fills it.
 * A source the device will not or cannot convert (HDR, 10-bit, no decoder or encoder, a decode that fails) keeps
 * uploading the original. The choice and its reasons go to the debug log. Every failure
 * reaches the caller as an UploadError; cancelling rejects with an AbortError.
 */
import type { Client } from 'urql';
import { FileSubmitPreSignedUploadMutation } from './upload-operations.js';
import { uploadVideo, type UploadProgress } from './multipart-upload.js';
import { canConvertHere, ConversionDeclined, startConversion, type ConversionStart } from './convert-video.js';
import { raceVerdict } from './convert-rules.js';
import { asUploadError, uploadErrorOf } from './upload-error.js';
import { startPartStream, type PartStream } from './stream-upload.js';

/** What the uploading dialog shows: the device preparing the video (percent of the conversion), then the upload. */
export type SendProgress = { phase: 'preparing'; percent: number } | ({ phase: 'uploading' } & UploadProgress);

export interface SendOptions {
  client: Client;
  file: File;
  signal: AbortSignal;
  onProgress: (p: SendProgress) => void;
  /** Where the choice and its reasons are written (the browser's debug log). */
  log?: (line: string) => void;
  /** A kept conversion that moves no further for this long is given up for the original (default STALL_MS). */
  stallMs?: number;
}

/** Seen once under load: a conversion standing at 8 % for minutes. The user then gets the original instead. */
const STALL_MS = 30_000;

const debugLog = (line: string) => console.debug(`[upload] ${line}`);

/** The mezzanine's name: the original's, as an .mp4 ("IMG_0001.MOV" → "IMG_0001.mp4"). */
function mezzanineName(name: string): string {
  return `${name.replace(/\.[^.]*$/, '') || 'video'}.mp4`;
}

/** A signal that aborts with the parent or on its own. */
function childSignal(parent: AbortSignal): AbortController {
  const c = new AbortController();
  if (parent.aborted) c.abort();
  else parent.addEventListener('abort', () => c.abort(), { once: true });
  return c;
}

/** Uploads the file (converted on the device when that is sooner) and answers the stored upload's key. */
export async function sendVideo({
  client,
  file,
  signal,
  onProgress,
  log = debugLog,
  stallMs = STALL_MS,
}: SendOptions): Promise<{ key: string; converted: boolean }> {
  const uploading = (p: UploadProgress) => onProgress({ phase: 'uploading', ...p });
  if (!canConvertHere()) {
    log('original: this browser has no WebCodecs in workers');
    return { key: (await uploadVideo({ client, file, signal, onProgress: uploading })).key, converted: false };
  }

  const convertCtl = childSignal(signal);
  const originalCtl = childSignal(signal);
  // 'check': the device is reading the source (the bar shows the original's upload); 'race': both run (the bar shows
  // the conversion); then the side kept.
  let phase: 'check' | 'race' | 'convert' | 'finish' | 'original' = 'check';
  let converted = 0;
  let movedAt = performance.now();
  let original: UploadProgress | null = null;
  const conversion = startConversion(file, convertCtl.signal, (f) => {
    converted = f;
    movedAt = performance.now();
    if (phase === 'race' || phase === 'convert')
      onProgress({ phase: 'preparing', percent: Math.min(99, Math.floor(f * 100)) });
  });
  const originalUpload = uploadVideo({
    client,
    file,
    signal: originalCtl.signal,
    onProgress: (p) => {
      original = p;
      if (phase === 'original' || phase === 'check') uploading(p);
    },
  });
  originalUpload.catch(() => undefined);

  let stream: PartStream | null = null;
  const keepOriginal = async (reason: string) => {
    phase = 'original';
    log(`original: ${reason}`);
    convertCtl.abort();
    void stream?.abort();
    if (original) uploading(original);
    return { key: (await originalUpload).key, converted: false };
  };

  let start: ConversionStart | null;
  try {
    start = await Promise.race([conversion.started, originalUpload.then(() => null)]);
  } catch (e) {
    if (signal.aborted) throw e;
    if (e instanceof ConversionDeclined) return keepOriginal(e.reason);
    throw e;
  }
  if (signal.aborted) throw new DOMException('Upload cancelled', 'AbortError');
  if (!start) return keepOriginal('it finished uploading before the device had checked the source');
  phase = 'race';
  onProgress({ phase: 'preparing', percent: Math.min(99, Math.floor(converted * 100)) });
  log(
    `converting ${start.codec} to ${start.size.width}x${start.size.height} with the ${start.decoder} decoder (asked with '${start.decoderHint}') and the ${start.encoder} encoder`,
  );

  // The mezzanine's upload, begun now: its part size cuts the worker's output, and its parts wait for the verdict.
  let partsBeforeDone = 0;
  let converting = true;
  try {
    stream = await startPartStream({
      client,
      fileName: mezzanineName(file.name),
      lastModified: file.lastModified,
      limit: file.size,
      signal: convertCtl.signal,
      onProgress: (p) => {
        if (phase === 'finish') uploading(p);
      },
    });
  } catch (e) {
    if (signal.aborted) throw new DOMException('Upload cancelled', 'AbortError');
    return keepOriginal(`the mezzanine's upload was refused: ${asUploadError(e).message}`);
  }
  const parts = stream;
  signal.addEventListener('abort', () => void parts.abort(), { once: true });
  // While the upload holds the muxer back (too many parts unsent on a slow uplink), the conversion is not stalled.
  let heldByUpload = false;
  const result = conversion.convert(parts.partSize, file.size, async (n, bytes) => {
    heldByUpload = true;
    try {
      await parts.put(n, bytes);
    } finally {
      heldByUpload = false;
      movedAt = performance.now();
    }
    if (converting) partsBeforeDone++;
  });
  result.catch(() => undefined);

  const began = performance.now();
  const verdict = await new Promise<{ choice: 'convert' | 'original'; reason: string }>((resolve) => {
    const timer = setInterval(() => {
      const v = raceVerdict({
        elapsedSeconds: (performance.now() - began) / 1000,
        converted,
        durationSeconds: start.durationSeconds,
        originalBytes: file.size,
        uploadedBytes: original?.bytesUploaded ?? 0,
        bytesPerSecond: original?.bytesPerSecond ?? null,
      });
      if (v.choice !== 'wait') done(v);
    }, 250);
    const done = (v: { choice: 'convert' | 'original'; reason: string }) => {
      clearInterval(timer);
      resolve(v);
    };
    signal.addEventListener('abort', () => done({ choice: 'original', reason: 'cancelled' }), { once: true });
    originalUpload.then(
      () => done({ choice: 'original', reason: 'it finished uploading first' }),
      () => undefined,
    );
    result.then(
      () => done({ choice: 'convert', reason: 'the conversion finished first' }),
      (e: unknown) =>
        done({
          choice: 'original',
          reason: e instanceof ConversionDeclined ? `conversion failed: ${e.reason}` : 'conversion stopped',
        }),
    );
  });
  if (signal.aborted) throw new DOMException('Upload cancelled', 'AbortError');
  if (verdict.choice === 'original') return keepOriginal(verdict.reason);

  phase = 'convert';
  log(`convert: ${verdict.reason}`);
  originalCtl.abort();
  parts.release();
  let size: number;
  let watchdog: ReturnType<typeof setInterval> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    watchdog = setInterval(
      () => {
        if (!heldByUpload && performance.now() - movedAt > stallMs)
          reject(new ConversionDeclined(`no progress for ${stallMs / 1000} s`));
      },
      Math.min(1000, stallMs),
    );
  });
  try {
    size = await Promise.race([result, stalled]);
  } catch (e) {
    if (signal.aborted || !(e instanceof ConversionDeclined)) throw e;
    // A part that could not be stored (the connection gone for good) is the user's error, not the device's.
    const lost = parts.failure();
    if (lost) throw lost;
    // Decoding broke or stalled after the verdict: the worker is ended, the mezzanine's parts deleted, and the original
    // starts again from its first part.
    convertCtl.abort();
    void parts.abort();
    log(`original: conversion failed after the verdict: ${e.reason}`);
    return { key: (await uploadVideo({ client, file, signal, onProgress: uploading })).key, converted: false };
  } finally {
    clearInterval(watchdog);
  }
  converting = false;
  log(
    `converted: ${size} bytes, ${((size / file.size) * 100).toFixed(1)} % of the original, in ${((performance.now() - began) / 1000).toFixed(1)} s; ${partsBeforeDone} of ${Math.ceil(size / parts.partSize)} parts handed to the upload while converting`,
  );
  phase = 'finish';
  return { key: (await parts.finish(size)).key, converted: true };
}

/** Creates the tour from the stored upload; answers its id. */
export async function submitUpload(client: Client, key: string): Promise<string> {
  const done = await client.mutation(FileSubmitPreSignedUploadMutation, { input: { key } }).toPromise();
  const tourId = done.data?.fileSubmitPreSignedUpload.tourId;
  if (done.error || !tourId) throw uploadErrorOf(done.error);
  return tourId;
}
