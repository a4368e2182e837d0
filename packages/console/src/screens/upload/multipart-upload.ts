/**
 * The video upload: resumable, in parts, through Uppy's S3 multipart client (@uppy/aws-s3) with our own
 * endpoints (GraphQL: uploadMultipartStart / SignPart / Parts / Complete / Abort). Parts go straight to storage
 * (S3's pre-signed part URLs, or the local store's /upload-part) 4 at a time; a failed part is retried (Uppy's
 * retryDelays; offline waits for the browser to come back online); when a part still fails, the upload resumes
 * itself a few times ("Resuming…"), listing the parts already stored and sending only the others. Picking the same
 * file again after a reload resumes the same way: the server finds the unfinished upload by user, name, size and
 * last-modified time. Loaded with the upload screen's first pick (not in the initial bundle).
 */
import Uppy from '@uppy/core';
import AwsS3 from '@uppy/aws-s3';
import { videoExtension } from './read-video-meta.js';
import { UploadError } from './upload-error.js';
import type { UploadCalls } from './upload-calls.js';

/** Parts in flight at once (3–4; more gains nothing on a phone's uplink and costs memory). */
export const PARALLEL_PARTS = 4;
/** Waits before each retry of one failed part request (Uppy's retryDelays). */
export const PART_RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10000];
/** Waits before the whole upload resumes itself after a part gave up (connection lost for longer). */
export const RESUME_DELAYS_MS = [2000, 5000, 10000, 20000, 30000];

export interface UploadProgress {
  bytesUploaded: number;
  bytesTotal: number;
  /** Whole percent, 0 to 100. */
  percent: number;
  /** Bytes a second, smoothed; null until measured. */
  bytesPerSecond: number | null;
  /** Seconds left at that speed; null until measured. */
  secondsLeft: number | null;
  /** True after a drop, while the upload is resuming (until new bytes arrive). */
  resuming: boolean;
}

export interface UploadOptions {
  calls: UploadCalls;
  file: File;
  signal: AbortSignal;
  onProgress: (p: UploadProgress) => void;
  /** For tests: the waits between automatic resumes. */
  resumeDelaysMs?: number[];
  /** The tour this file is the original of, for its photos (original-follows.ts): it makes no tour of its own. */
  photoSourceFor?: string;
}

/** Speed from a moving window of progress samples (the last ~8 s). */
export function speedMeter() {
  const samples: Array<{ t: number; bytes: number }> = [];
  return (bytes: number): number | null => {
    const t = performance.now();
    samples.push({ t, bytes });
    while (samples.length > 2 && t - samples[0]!.t > 8000) samples.shift();
    const first = samples[0]!;
    const dt = (t - first.t) / 1000;
    if (dt < 1 || bytes <= first.bytes) return null;
    return (bytes - first.bytes) / dt;
  };
}

export const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new DOMException('Upload cancelled', 'AbortError'));
      },
      { once: true },
    );
  });

/** Uploads the file and answers its key for fileSubmitPreSignedUpload. */
export async function uploadVideo({
  calls,
  file,
  signal,
  onProgress,
  resumeDelaysMs = RESUME_DELAYS_MS,
  photoSourceFor,
}: UploadOptions): Promise<{ key: string }> {
  const s = await calls.start({
    extension: videoExtension(file),
    fileName: file.name,
    size: file.size,
    lastModified: file.lastModified,
    ...(photoSourceFor ? { photoSourceFor } : {}),
  });
  const ref = { key: s.key, uploadId: s.uploadId };
  if (signal.aborted) throw new DOMException('Upload cancelled', 'AbortError');

  let resuming = s.resumed;
  let completed = false;
  const measure = speedMeter();
  let lastBytes = -1;
  const report = (bytesUploaded: number) => {
    if (bytesUploaded > lastBytes && lastBytes >= 0) resuming = false;
    lastBytes = Math.max(lastBytes, bytesUploaded);
    const bytesPerSecond = measure(bytesUploaded);
    onProgress({
      bytesUploaded,
      bytesTotal: file.size,
      percent: Math.min(100, Math.floor((bytesUploaded / file.size) * 100)),
      bytesPerSecond,
      secondsLeft: bytesPerSecond ? Math.max(0, Math.round((file.size - bytesUploaded) / bytesPerSecond)) : null,
      resuming,
    });
  };
  report(0);

  const signed = new Set<number>();
  const sign = async (partNumber: number) => {
    // A part signed again is a part being retried: the connection dropped.
    if (signed.has(partNumber) && !resuming) {
      resuming = true;
      report(Math.max(0, lastBytes));
    }
    signed.add(partNumber);
    return { method: 'PUT' as const, ...(await calls.signPart({ ...ref, partNumber })) };
  };
  const complete = async () => {
    if (completed) return;
    await calls.complete(ref);
    completed = true;
  };

  const uppy = new Uppy({ autoProceed: false, allowMultipleUploadBatches: true });
  uppy.use(AwsS3, {
    // Always parts; Uppy itself sends a file of 5 MiB or less as one PUT (getUploadParameters).
    shouldUseMultipart: () => true,
    limit: PARALLEL_PARTS,
    retryDelays: PART_RETRY_DELAYS_MS,
    getChunkSize: () => s.partSize,
    // The upload exists already (started or found above): Uppy restores it, lists its parts and sends the rest.
    createMultipartUpload: async () => ref,
    listParts: async () =>
      (await calls.listParts(ref)).map((p) => ({ PartNumber: p.partNumber, Size: p.size, ETag: p.etag })),
    signPart: async (_file, { partNumber }) => sign(partNumber),
    // A file of one part (5 MiB or less) goes as one PUT to part 1's URL.
    getUploadParameters: async () => sign(1),
    completeMultipartUpload: async () => {
      await complete();
      return { location: ref.key };
    },
    abortMultipartUpload: () => calls.abort(ref),
  });
  uppy.on('upload-progress', (_f, p) => {
    if (typeof p.bytesUploaded === 'number') report(p.bytesUploaded);
  });
  const id = uppy.addFile({
    name: file.name,
    type: file.type || 'application/octet-stream',
    data: file,
    source: 'Local',
  });
  uppy.setFileState(id, { s3Multipart: ref } as never);

  const cancelled = new Promise<never>((_, reject) => {
    const stop = () => {
      // Cancel upload: Uppy aborts the parts in flight and calls abortMultipartUpload (the parts are deleted).
      uppy.cancelAll();
      reject(new DOMException('Upload cancelled', 'AbortError'));
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  cancelled.catch(() => undefined);

  try {
    let result = await Promise.race([uppy.upload(), cancelled]);
    for (let attempt = 0; !result?.successful?.length; attempt++) {
      const failure = result?.failed?.[0]?.error;
      const message = typeof failure === 'string' ? failure : (failure as Error | undefined)?.message;
      if (attempt >= resumeDelaysMs.length)
        throw new UploadError(
          'NETWORK',
          message && message !== 'Unknown error' ? message : 'The connection was lost during the upload.',
        );
      resuming = true;
      report(Math.max(0, lastBytes));
      await Promise.race([wait(resumeDelaysMs[attempt]!, signal), cancelled]);
      result = await Promise.race([uppy.retryUpload(id), cancelled]);
    }
    // One part went as a single PUT: Uppy does not complete it.
    await complete();
    report(file.size);
    return { key: ref.key };
  } finally {
    if (!signal.aborted) uppy.destroy();
  }
}
